/**
 * PDF processing as an admin and a reader see it (issue 13): a damaged upload says so in plain
 * words in the PDF library, with the PDF tool's own text collapsed under it; and the public
 * viewer's zoom size, which processing no longer makes, is made on its first request.
 * Screenshots at 1440×900 and 1280×800 go to .tmp/e2e-shots/pdf-processing (tests/e2e/shots.ts).
 */
import { expect, type Page, test } from "@playwright/test";
import { makeCataloguePdf, makeCorruptPdf } from "../fixtures/make-pdf";
import { api, apiSession, signIn } from "./helpers";
import { processedPdf, uploadPdf } from "./pdf-helpers";
import { shootAsIs } from "./shots";

const shoot = (page: Page, name: string) => shootAsIs(page, "pdf-processing", name);

test("a damaged PDF says so in plain words, with the tool's own text collapsed under it", async ({
  page,
  request,
}) => {
  // Processing, then two sign-ins and the lazy library screen: long on a busy machine.
  test.setTimeout(300_000);
  const admin = await apiSession(request);
  const name = `Damaged ${Date.now()}`;
  const pdf = await uploadPdf(admin, `${name}.pdf`, makeCorruptPdf(), name);
  expect((await processedPdf(admin, pdf.id)).pdflist_status).toBe("error");

  await signIn(page);
  for (const [width, height] of [
    [1440, 900],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto("/manage/pdf/pdfs");
    const search = page.getByLabel("Search catalogues");
    await expect(search).toBeVisible({ timeout: 120_000 });
    await search.fill(name);
    await search.press("Enter");
    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row).toHaveCount(1);
    const message = row.locator("[data-pdf-error]");
    await expect(message).toHaveText("This PDF is damaged and could not be read");
    // The message is whole, not cut: it wraps inside its cell.
    expect(await message.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    const detail = row.locator("[data-pdf-error-detail]");
    await expect(detail).toBeHidden();
    await row.getByText("Details", { exact: true }).click();
    await expect(detail).toBeVisible();
    await expect(detail).toHaveText(/^(pdf(info|toppm|totext)|pdf\.js): \S/);
    await expect(message).not.toContainText(await detail.innerText());
    await row.scrollIntoViewIfNeeded();
    await shoot(page, `pdf-error-detail-${width}x${height}`);
  }
});

test("the viewer's zoom size is made on its first request", async ({ page, request }) => {
  test.setTimeout(150_000);
  const admin = await apiSession(request);
  const name = `Zoom ${Date.now()}`;
  const pdf = await uploadPdf(
    admin,
    `${name}.pdf`,
    await makeCataloguePdf({ pages: 2, photos: false }),
    name,
  );
  expect((await processedPdf(admin, pdf.id)).pdflist_status).toBe("ready");
  await admin.expect("PATCH", `/api/pdfs/${pdf.id}`, 200, { pdfstatus: true });

  // Processing made no zoom image: the public data lists its URL all the same.
  const data = (await (await request.get(api(`/public/pdfs/${pdf.id}`))).json()) as {
    pages: { images: { zoom: string; screen: string } }[];
  };
  const zoomUrl = data.pages[0].images.zoom;
  expect(zoomUrl).toMatch(new RegExp(`^/assets/pdfs/${pdf.id}/v1/p1-w2400\\.webp$`));
  expect(data.pages[0].images.screen).toMatch(/-w1200\.jpg$/);

  for (const [width, height] of [
    [1440, 900],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`/view/${pdf.slug}`);
    const image = page.getByRole("img", { name: "Page 1" });
    await expect(image).toBeVisible();
    for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "Zoom in" }).click();
    await expect(page.getByLabel("Zoom level")).toHaveText("200%");
    await expect(image).toHaveAttribute("src", zoomUrl);
    // Loaded, at its full width: the first request made it.
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), {
        timeout: 60_000,
      })
      .toBe(2400);
    await image.evaluate((img: HTMLImageElement) => img.decode());
    await shoot(page, `viewer-zoom-${width}x${height}`);
  }
});
