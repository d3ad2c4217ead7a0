/**
 * The hotspot editor fits the page: by default the page is exactly as wide as the space between
 * the thumbnails and the hotspot panel (nothing under the panel, nothing cut off); "Fit page"
 * shows it whole; Ctrl+wheel zooms around the cursor and the buttons around the centre; + - 0
 * work from the keyboard but not while typing; a hotspot drawn, moved and resized at 150 % is
 * saved at the same place on the page as at fit width.
 * Screenshots go to .tmp/e2e-shots/hotspot-fit (tests/e2e/shots.ts), to look at.
 */
import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import { makeCataloguePdf } from "../fixtures/make-pdf";
import { apiSession, signIn } from "./helpers";
import { processedPdf, uploadPdf } from "./pdf-helpers";
import { shootAsIs } from "./shots";

interface Link {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A catalogue uploaded through the API and processed; answers its id. */
async function readyPdf(request: APIRequestContext, fileName: string): Promise<string> {
  const admin = await apiSession(request);
  const buffer = await makeCataloguePdf({ pages: 2, photos: false });
  const pdf = await processedPdf(admin, (await uploadPdf(admin, fileName, buffer)).id);
  expect(pdf.pdflist_status).toBe("ready");
  return pdf.id;
}

async function openEditor(page: Page, id: string) {
  await page.goto(`pdf/pdfs/show/${id}`);
  const image = page.getByTestId("page-canvas").locator("img");
  await expect
    // The first load of the SPA, the catalogue and its page image: slow on a busy machine.
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), {
      timeout: 30_000,
    })
    .toBeTruthy();
  return image;
}

/** The viewport's inner box (its scrollbar left out) and the gutter kept around the page. */
function viewportBox(viewport: Locator) {
  return viewport.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const left = r.left + el.clientLeft;
    const top = r.top + el.clientTop;
    return {
      left,
      top,
      width: el.clientWidth,
      height: el.clientHeight,
      right: left + el.clientWidth,
      bottom: top + el.clientHeight,
      outerRight: r.right,
      gutter: Number(el.dataset.gutter),
      scrollWidth: el.scrollWidth,
    };
  });
}

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error("not on screen");
  return box;
}

/** Where a page point (fractions of the page) is on screen. */
async function pagePoint(image: Locator, u: number, v: number) {
  const box = await boxOf(image);
  return { x: box.x + box.width * u, y: box.y + box.height * v };
}

const shot = (page: Page, name: string) => shootAsIs(page, "hotspot-fit", name);

const zoomLevel = (page: Page) => page.getByTestId("zoom-level");
const percent = async (page: Page) => Number((await zoomLevel(page).innerText()).replace("%", ""));

for (const size of [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
]) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test("the page fits the width, Fit page shows it whole, and zooming keeps the point under the cursor", async ({
      page,
      request,
    }) => {
      test.setTimeout(150_000);
      const id = await readyPdf(request, `Fit ${size.width}.pdf`);
      await signIn(page);
      const image = await openEditor(page, id);
      const viewport = page.getByTestId("page-viewport");
      const fitWidth = page.getByRole("button", { name: "Fit width" });
      const fitPage = page.getByRole("button", { name: "Fit page" });

      // Fit width, by default: as wide as the viewport less its gutters, inside it, nothing cut.
      await expect(fitWidth).toHaveAttribute("aria-pressed", "true");
      const vp = await viewportBox(viewport);
      const img = await boxOf(image);
      expect(Math.abs(img.width - (vp.width - 2 * vp.gutter))).toBeLessThanOrEqual(2);
      expect(img.x).toBeGreaterThanOrEqual(vp.left);
      expect(img.x + img.width).toBeLessThanOrEqual(vp.right);
      expect(img.y).toBeGreaterThanOrEqual(vp.top);
      expect(vp.scrollWidth).toBeLessThanOrEqual(vp.width);
      // Not under the hotspot panel, not past the thumbnails, and the window does not scroll sideways.
      const panel = await boxOf(page.getByRole("region", { name: "Hotspots of page 1" }));
      const thumbs = await boxOf(page.getByRole("navigation", { name: "Pages" }));
      expect(vp.outerRight).toBeLessThanOrEqual(panel.x);
      expect(thumbs.x + thumbs.width).toBeLessThanOrEqual(vp.left);
      expect(panel.x + panel.width).toBeLessThanOrEqual(size.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
      // The editor fills the window without making it scroll: the viewport ends on screen.
      expect(vp.bottom).toBeLessThanOrEqual(size.height);
      // The percentage is the page's real size (A4 is 595.28 pt, 96/72 px a point).
      expect(Math.abs((await percent(page)) - (img.width / (595.28 * (96 / 72))) * 100)).toBeLessThanOrEqual(
        1,
      );
      await shot(page, `fit-width-${size.width}`);

      // Fit page: the whole page, height included, inside the viewport.
      await fitPage.click();
      await expect(fitPage).toHaveAttribute("aria-pressed", "true");
      await expect
        .poll(async () => Math.round((await boxOf(image)).height))
        .toBeLessThanOrEqual(Math.round(vp.height - 2 * vp.gutter));
      const whole = await boxOf(image);
      const vpPage = await viewportBox(viewport);
      expect(whole.y).toBeGreaterThanOrEqual(vpPage.top);
      expect(whole.y + whole.height).toBeLessThanOrEqual(vpPage.bottom);
      expect(whole.x).toBeGreaterThanOrEqual(vpPage.left);
      expect(whole.x + whole.width).toBeLessThanOrEqual(vpPage.right);
      expect(Math.abs(whole.height - (vpPage.height - 2 * vpPage.gutter))).toBeLessThanOrEqual(2);
      await shot(page, `fit-page-${size.width}`);

      // Ctrl+wheel at a point of the page zooms in around it: the point stays under the cursor.
      await fitWidth.click();
      await expect.poll(async () => Math.round((await boxOf(image)).width)).toBe(Math.round(img.width));
      const at = { x: vp.left + vp.width * 0.3, y: vp.top + vp.height * 0.4 };
      const before = await boxOf(image);
      const u = (at.x - before.x) / before.width;
      const v = (at.y - before.y) / before.height;
      const fitPercent = await percent(page);
      await page.mouse.move(at.x, at.y);
      await page.keyboard.down("Control");
      await page.mouse.wheel(0, -200);
      await page.keyboard.up("Control");
      await expect.poll(() => percent(page)).toBeGreaterThan(fitPercent);
      await expect(fitWidth).toHaveAttribute("aria-pressed", "false");
      const zoomed = await boxOf(image);
      expect(zoomed.width).toBeGreaterThan(before.width * 1.2);
      const still = await pagePoint(image, u, v);
      expect(Math.abs(still.x - at.x)).toBeLessThanOrEqual(3);
      expect(Math.abs(still.y - at.y)).toBeLessThanOrEqual(3);
      await shot(page, `wheel-zoom-${size.width}`);

      // The zoom-in button keeps the viewport's centre still.
      const centre = { x: vp.left + vp.width / 2, y: vp.top + vp.height / 2 };
      const c = await boxOf(image);
      const cu = (centre.x - c.x) / c.width;
      const cv = (centre.y - c.y) / c.height;
      const wheelPercent = await percent(page);
      await page.getByRole("button", { name: "Zoom in" }).click();
      await expect.poll(() => percent(page)).toBeGreaterThan(wheelPercent);
      const centred = await pagePoint(image, cu, cv);
      expect(Math.abs(centred.x - centre.x)).toBeLessThanOrEqual(3);
      expect(Math.abs(centred.y - centre.y)).toBeLessThanOrEqual(3);

      // Keys: not while typing in a field…
      const search = page.getByLabel("Search the catalogue", { exact: true });
      await search.click();
      const typedAt = await percent(page);
      await page.keyboard.type("+-0");
      await expect(search).toHaveValue("+-0");
      expect(await percent(page)).toBe(typedAt);
      await search.fill("");
      await search.evaluate((el) => el.blur());
      // …but out of it: - zooms out a step, 0 fits the width again.
      await page.keyboard.press("-");
      await expect.poll(() => percent(page)).toBeLessThan(typedAt);
      await page.keyboard.press("0");
      await expect(fitWidth).toHaveAttribute("aria-pressed", "true");
      await expect.poll(async () => Math.round((await boxOf(image)).width)).toBe(Math.round(img.width));
      expect(await percent(page)).toBe(fitPercent);
    });
  });
}

test.describe("hotspots at every zoom", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  /** Drags on the page between two page points (fractions of the page). */
  async function dragOnPage(page: Page, image: Locator, from: [number, number], to: [number, number]) {
    const a = await pagePoint(image, ...from);
    const b = await pagePoint(image, ...to);
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    await page.mouse.move(b.x, b.y, { steps: 6 });
    await page.mouse.up();
  }

  /** A hotspot's box on screen, as fractions of the page image. */
  async function placeOf(hotspot: Locator, image: Locator): Promise<Link> {
    const h = await boxOf(hotspot);
    const i = await boxOf(image);
    return {
      x: (h.x - i.x) / i.width,
      y: (h.y - i.y) / i.height,
      w: h.width / i.width,
      h: h.height / i.height,
    };
  }

  function expectNear(actual: Link, expected: Link, tolerance = 0.004) {
    for (const key of ["x", "y", "w", "h"] as const) {
      expect(
        Math.abs(actual[key] - expected[key]),
        `${key}: ${actual[key]} vs ${expected[key]}`,
      ).toBeLessThanOrEqual(tolerance);
    }
  }

  test("a hotspot drawn, moved and resized at 150 % lands at the same page coordinates as at fit width", async ({
    page,
    request,
  }) => {
    test.setTimeout(150_000);
    const id = await readyPdf(request, "Zoomed hotspots.pdf");
    await signIn(page);
    const image = await openEditor(page, id);
    const viewport = page.getByTestId("page-viewport");

    // At fit width.
    const first = { x: 0.1, y: 0.1, w: 0.2, h: 0.06 };
    await dragOnPage(page, image, [first.x, first.y], [first.x + first.w, first.y + first.h]);
    const hotspot1 = page.getByRole("button", { name: /^Hotspot 1:/ });
    await expect(hotspot1).toBeVisible();
    await page.getByRole("textbox", { name: "URL" }).fill("https://example.com/one");

    // Up to 150 % with the button.
    const zoomIn = page.getByRole("button", { name: "Zoom in" });
    for (let i = 0; i < 12 && (await percent(page)) < 150; i++) {
      const was = await percent(page);
      await zoomIn.click();
      await expect.poll(() => percent(page)).toBeGreaterThan(was);
    }
    await expect(zoomLevel(page)).toHaveText("150%");
    const wide = await boxOf(image);
    expect(Math.abs(wide.width - 595.28 * (96 / 72) * 1.5)).toBeLessThanOrEqual(2);
    // The first hotspot is where it was drawn, on the larger page.
    expectNear(await placeOf(hotspot1, image), first);

    // Scroll so the page's point (0.4, 0.25) is near the viewport's top left, then draw there.
    const vp = await viewportBox(viewport);
    const target = await pagePoint(image, 0.4, 0.25);
    await viewport.evaluate((el, d) => el.scrollBy(d.x, d.y), {
      x: target.x - (vp.left + 40),
      y: target.y - (vp.top + 40),
    });
    await expect
      .poll(async () => Math.round((await pagePoint(image, 0.4, 0.25)).x))
      .toBe(Math.round(vp.left + 40));
    await dragOnPage(page, image, [0.45, 0.3], [0.6, 0.36]);
    const hotspot2 = page.getByRole("button", { name: /^Hotspot 2:/ });
    await expect(hotspot2).toBeVisible();
    expectNear(await placeOf(hotspot2, image), { x: 0.45, y: 0.3, w: 0.15, h: 0.06 });
    await page.getByRole("textbox", { name: "URL" }).fill("https://example.com/two");

    // Move it right by 5 % of the page, then make it 5 % wider and 2 % taller by its corner.
    const c = await boxOf(hotspot2);
    await page.mouse.move(c.x + c.width / 2, c.y + c.height / 2);
    await page.mouse.down();
    await page.mouse.move(c.x + c.width / 2 + wide.width * 0.05, c.y + c.height / 2, { steps: 5 });
    await page.mouse.up();
    expectNear(await placeOf(hotspot2, image), { x: 0.5, y: 0.3, w: 0.15, h: 0.06 });
    const corner = await boxOf(hotspot2.locator('[data-handle="se"]'));
    await page.mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2);
    await page.mouse.down();
    await page.mouse.move(
      corner.x + corner.width / 2 + wide.width * 0.05,
      corner.y + corner.height / 2 + wide.height * 0.02,
      { steps: 5 },
    );
    await page.mouse.up();
    const second = { x: 0.5, y: 0.3, w: 0.2, h: 0.08 };
    expectNear(await placeOf(hotspot2, image), second);
    await shot(page, "hotspots-at-150");

    await page.getByRole("button", { name: /^(save )?Save$/ }).click();
    await expect(page.getByText("Hotspots of page 1 saved")).toBeVisible();
    const admin = await apiSession(request);
    const saved = await admin.expect<{ links: Link[] }>("GET", `/api/pdfs/${id}/pages/1/links`, 200);
    expect(saved.links).toHaveLength(2);
    expectNear(saved.links[0], first);
    expectNear(saved.links[1], second);

    // Back at fit width, both are where they were saved.
    await page.keyboard.press("0");
    await expect(page.getByRole("button", { name: "Fit width" })).toHaveAttribute("aria-pressed", "true");
    await expect.poll(async () => (await boxOf(image)).width).toBeLessThan(wide.width);
    expectNear(await placeOf(hotspot1, image), first);
    expectNear(await placeOf(hotspot2, image), second);
    await shot(page, "hotspots-at-fit-width");
  });
});
