/**
 * The public catalogue viewer (`/view/{slug}`, its own bundle viewer.html) against the real
 * server: a 3-page PDF uploaded, processed and published through the API with one hotspot of
 * each kind, then read in Chromium by a visitor who is not signed in — pages, keyboard, every
 * hotspot, search, the cart and its totals — and the views, visitors and searched words
 * counted for the back-office analytics. An unpublished catalogue says it is not available.
 */
import { expect, type Page, test } from "@playwright/test";
import type { PdfLink } from "../../schemas/pdf-library";
import { catalogueHeading, makeCataloguePdf } from "../fixtures/make-pdf";
import { type ApiSession, apiSession, E2E_ORIGIN } from "./helpers";
import { processedPdf, uploadPdf } from "./pdf-helpers";

// Prices are checked as the visitor's browser formats them.
const LOCALE = "en-IN";
test.use({ locale: LOCALE, viewport: { width: 1280, height: 800 } });

interface PublicEvent {
  type: string;
  page?: number;
  word?: string;
  linkId?: string;
}

const money = (amount: number) =>
  new Intl.NumberFormat(LOCALE, { style: "currency", currency: "INR" }).format(amount);

/** Uploads a catalogue PDF of `pages` pages made offline; answers it, queued for processing. */
const upload = async (admin: ApiSession, fileName: string, pages: number) =>
  uploadPdf(admin, fileName, await makeCataloguePdf({ pages, photos: false }));

/** The `/public/events` a page sends, as they are sent. */
function recordEvents(page: Page): PublicEvent[] {
  const events: PublicEvent[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/public/events")
      events.push(request.postDataJSON() as PublicEvent);
  });
  return events;
}

test("a visitor reads a published catalogue: pages, every hotspot, search, the cart, and the analytics count it", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const tag = `V${Date.now()}`;
  const admin = await apiSession(request);

  // A category and two products, one for each Add Product kind.
  const category = await admin.expect<{ id: string }>("POST", "/api/categories", 201, {
    name: `${tag} Lamps`,
  });
  const lamp = await admin.expect<{ id: string; name: string; sku_code: string }>(
    "POST",
    "/api/products",
    201,
    {
      sku_code: `LMP-${tag}`,
      name: `${tag} Brass lamp`,
      price: 1499.5,
      currency: "INR",
      category_id: category.id,
    },
  );
  const shade = await admin.expect<{ id: string; name: string; sku_code: string }>(
    "POST",
    "/api/products",
    201,
    {
      sku_code: `SHD-${tag}`,
      name: `${tag} Linen shade`,
      price: 250,
      currency: "INR",
      description: "Hand-stitched linen, 30 cm.",
      images: [`${E2E_ORIGIN}/manage/images/logo.svg`],
      category_id: category.id,
    },
  );

  // A 3-page catalogue, processed, published.
  const created = await upload(admin, `${tag}-spring.pdf`, 3);
  const pdf = await processedPdf(admin, created.id);
  expect(pdf.pdflist_status).toBe("ready");
  await admin.expect("PATCH", `/api/pdfs/${pdf.id}`, 200, { pdfstatus: true });

  // One hotspot of each kind on page 1; some with a visible button.
  const links: PdfLink[] = [
    { x: 0.05, y: 0.15, w: 0.25, h: 0.08, kind: "pageLink", target: { page: 3 } },
    {
      x: 0.37,
      y: 0.15,
      w: 0.25,
      h: 0.08,
      kind: "link",
      target: { url: "https://example.com/spring" },
      button: { icon: "External Link", size: "md", colour: "Primary", label: "Visit" },
    },
    {
      x: 0.69,
      y: 0.15,
      w: 0.25,
      h: 0.08,
      kind: "video",
      target: { youtubeId: "dQw4w9WgXcQ" },
      button: { icon: "Play", size: "lg", colour: "Secondary" },
    },
    { x: 0.05, y: 0.35, w: 0.25, h: 0.08, kind: "iframe", target: { url: "https://example.com/embed" } },
    {
      x: 0.37,
      y: 0.35,
      w: 0.25,
      h: 0.08,
      kind: "text",
      target: { text: "Ask us about <b>linen</b>\nWe answer within a day." },
      button: { icon: "Add-1", size: "sm", colour: "Tertiary", label: "Fabrics" },
    },
    {
      x: 0.69,
      y: 0.35,
      w: 0.25,
      h: 0.08,
      kind: "addProduct",
      target: { productId: lamp.id },
      button: { icon: "Add-2", size: "md", colour: "Forth" },
    },
    {
      x: 0.05,
      y: 0.55,
      w: 0.25,
      h: 0.08,
      kind: "addProductDetails",
      target: { productId: shade.id },
      button: { icon: "Add-3", size: "md", colour: "Primary", label: "Details" },
    },
  ];
  const saved = await admin.send("PUT", `/api/pdfs/${pdf.id}/pages/1/links`, {
    data: { revision: 0, links },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const linkIds = ((await saved.json()) as { links: { id: string }[] }).links.map((l) => l.id);
  expect(linkIds).toHaveLength(7);

  // The outside world, answered locally (the e2e machine has no internet).
  await context.route(/^https:\/\/(example\.com|www\.youtube-nocookie\.com)\//, (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Outside</title><p>Outside</p>" }),
  );

  const events = recordEvents(page);
  await page.goto(`${E2E_ORIGIN}/view/${pdf.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: pdf.name })).toBeVisible();
  await expect(page).toHaveTitle(pdf.name);
  const pageImage = (n: number) => page.getByRole("img", { name: `Page ${n}`, exact: true });
  await expect(pageImage(1)).toBeVisible();
  await expect(pageImage(1)).toHaveJSProperty("complete", true);
  expect(await pageImage(1).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
  await expect(page.getByRole("button", { name: "Previous page" })).toBeDisabled();
  await expect(page.getByLabel("Page number")).toHaveValue("1");
  await expect(page.getByRole("navigation", { name: "Pages" }).getByRole("button")).toHaveCount(3);
  await expect(page.getByRole("button", { name: "Cart (0)" })).toBeVisible();

  // Turning pages: a wide screen shows the cover alone, then pages 2 and 3 side by side.
  await page.getByRole("button", { name: "Next page" }).click();
  await expect(pageImage(2)).toBeVisible();
  await expect(pageImage(3)).toBeVisible();
  await expect(page.getByRole("button", { name: "Next page" })).toBeDisabled();
  await page.keyboard.press("ArrowLeft");
  await expect(pageImage(1)).toBeVisible();
  await expect(pageImage(2)).toBeHidden();
  await page.keyboard.press("ArrowRight");
  await expect(pageImage(3)).toBeVisible();
  await page.getByRole("button", { name: "Page 1", exact: true }).click();
  await expect(page.getByRole("button", { name: "Page 1", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await page.getByLabel("Page number").fill("3");
  await page.getByLabel("Page number").press("Enter");
  await expect(pageImage(3)).toBeVisible();
  await page.getByLabel("Page number").blur();
  await page.keyboard.press("Home");
  await expect(pageImage(1)).toBeVisible();

  // Zoom: past 150 % the 2400 px image is loaded; fit goes back.
  await page.getByRole("button", { name: "Zoom in" }).click();
  await page.getByRole("button", { name: "Zoom in" }).click();
  await page.getByRole("button", { name: "Zoom in" }).click();
  await expect(page.getByLabel("Zoom level")).toHaveText("200%");
  await expect(pageImage(1)).toHaveAttribute("src", /-w2400\.webp$/);
  await page.getByRole("button", { name: "Fit to screen" }).click();
  await expect(page.getByLabel("Zoom level")).toHaveText("100%");
  await expect(pageImage(1)).toHaveAttribute("src", /-w1200\.jpg$/);

  // pageLink: to page 3.
  await page.getByRole("button", { name: "Go to page 3" }).click();
  await expect(pageImage(3)).toBeVisible();
  await expect(page.getByLabel("Page number")).toHaveValue("3");
  await expect(page).toHaveURL(/#page=3$/);
  await page.keyboard.press("Home");
  await expect(pageImage(1)).toBeVisible();

  // link: a new tab on the URL (no opener).
  const popupOpened = context.waitForEvent("page");
  await page.getByRole("button", { name: "Open link" }).click();
  const popup = await popupOpened;
  await expect.poll(() => popup.url()).toBe("https://example.com/spring");
  expect(await popup.evaluate(() => window.opener)).toBeNull();
  await popup.close();

  // video: the privacy-enhanced YouTube player in a dialog; Escape closes it.
  await page.getByRole("button", { name: "Play video" }).click();
  const video = page.getByRole("dialog", { name: "Video" });
  await expect(video).toBeVisible();
  await expect(video.locator("iframe")).toHaveAttribute(
    "src",
    /^https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ/,
  );
  await page.keyboard.press("Escape");
  await expect(video).toBeHidden();

  // iframe: the URL in a sandboxed frame.
  await page.getByRole("button", { name: "Show embedded page" }).click();
  const embedded = page.getByRole("dialog", { name: "Embedded page" });
  const frame = embedded.locator("iframe");
  await expect(frame).toHaveAttribute("src", "https://example.com/embed");
  await expect(frame).toHaveAttribute("sandbox", /allow-scripts/);
  await expect(embedded.frameLocator("iframe").getByText("Outside")).toBeVisible();
  await embedded.getByRole("button", { name: "Close" }).click();
  await expect(embedded).toBeHidden();

  // text: shown as text, never as HTML.
  await page.getByRole("button", { name: "Show text" }).click();
  const note = page.getByRole("dialog", { name: "Fabrics" });
  await expect(note).toContainText("Ask us about <b>linen</b>");
  await expect(note.locator("b")).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(note).toBeHidden();

  // addProduct: straight into the cart, one more on each use.
  const addLamp = page.getByRole("button", { name: `Add ${lamp.name} to cart` });
  await addLamp.click();
  await expect(page.getByRole("button", { name: "Cart (1)" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Added" })).toHaveText(
    `Added ${lamp.name} to the cart`,
  );
  await addLamp.click();
  await expect(page.getByRole("button", { name: "Cart (2)" })).toBeVisible();

  // addProductDetails: the product's details and a quantity, then Add to cart.
  await page.getByRole("button", { name: `See ${shade.name}` }).click();
  const details = page.getByRole("dialog", { name: shade.name });
  await expect(details).toContainText(`SKU ${shade.sku_code}`);
  await expect(details).toContainText(money(250));
  await expect(details).toContainText("Hand-stitched linen, 30 cm.");
  await expect(details.getByRole("img", { name: shade.name })).toBeVisible();
  await details.getByRole("button", { name: `More ${shade.name}` }).click();
  await details.getByRole("button", { name: `More ${shade.name}` }).click();
  await expect(details.getByLabel("Quantity", { exact: true })).toHaveValue("3");
  await details.getByRole("button", { name: "Add to cart" }).click();
  await expect(details).toBeHidden();
  await expect(page.getByRole("button", { name: "Cart (5)" })).toBeVisible();

  // The cart: lines, line totals and the total, in rupees.
  await page.getByRole("button", { name: "Cart (5)" }).click();
  const cart = page.getByRole("dialog", { name: "Cart" });
  const lampLine = cart.getByRole("listitem").filter({ hasText: lamp.name });
  const shadeLine = cart.getByRole("listitem").filter({ hasText: shade.name });
  await expect(lampLine).toContainText(`SKU ${lamp.sku_code}`);
  await expect(lampLine).toContainText(`${money(1499.5)} each`);
  await expect(lampLine.getByTestId("line-total")).toHaveText(money(2999));
  await expect(shadeLine.getByTestId("line-total")).toHaveText(money(750));
  await expect(cart.getByTestId("cart-total")).toHaveText(`Total${money(3749)}`);
  await cart.getByRole("button", { name: `Fewer ${lamp.name}` }).click();
  await expect(cart.getByLabel(`Quantity of ${lamp.name}`)).toHaveValue("1");
  await expect(cart.getByTestId("cart-total")).toHaveText(`Total${money(2249.5)}`);
  await cart.getByRole("button", { name: `Remove ${shade.name}` }).click();
  await expect(shadeLine).toHaveCount(0);
  await expect(cart.getByTestId("cart-total")).toHaveText(`Total${money(1499.5)}`);
  await page.keyboard.press("Escape");
  await expect(cart).toBeHidden();
  await expect(page.getByRole("button", { name: "Cart (1)" })).toBeVisible();

  // Every hotspot use was sent as a click with its link and page.
  await expect
    .poll(() => new Set(events.filter((e) => e.type === "click").map((e) => e.linkId)).size)
    .toBe(linkIds.length);
  expect(events.filter((e) => e.type === "click").every((e) => e.page === 1)).toBe(true);
  expect(new Set(events.filter((e) => e.type === "click").map((e) => e.linkId))).toEqual(new Set(linkIds));

  // Search: a heading printed on page 2 only; its result opens page 2.
  const words = catalogueHeading(2);
  await page.getByLabel("Search the catalogue").fill(words);
  await page.getByLabel("Search the catalogue").press("Enter");
  const results = page.getByRole("complementary", { name: "Search results" });
  const hit = results.getByRole("button", { name: /^Page 2\b/ });
  await expect(hit).toBeVisible();
  await expect(hit.locator("mark").first()).toBeVisible();
  await hit.click();
  await expect(pageImage(2)).toBeVisible();
  await expect(page.getByLabel("Page number")).toHaveValue("2");

  // The cart is kept for this catalogue across a reload; one view per visit.
  await page.reload();
  await expect(page.getByRole("button", { name: "Cart (1)" })).toBeVisible();
  await expect(pageImage(2)).toBeVisible();
  await expect.poll(() => events.filter((e) => e.type === "view").length).toBe(2);
  expect(events.find((e) => e.type === "search")?.word).toBe(words);

  // A phone: the page fits the width, nothing overflows, the controls are all there.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(pageImage(2)).toBeVisible();
  const box = await pageImage(2).boundingBox();
  expect(box?.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  for (const name of ["Previous page", "Next page", "Cart (1)", "Zoom in"])
    await expect(page.getByRole("button", { name })).toBeInViewport();
  await expect(page.getByLabel("Search the catalogue")).toBeInViewport();
  await page.getByRole("button", { name: "Previous page" }).click();
  await expect(pageImage(1)).toBeVisible();
  await page.getByRole("button", { name: `Add ${lamp.name} to cart` }).click();
  await expect(page.getByRole("button", { name: "Cart (2)" })).toBeVisible();

  // The back-office analytics count the visits, the visitor and the searched words.
  const count = async (what: "views" | "visitors") => {
    const answer = await admin.expect<{ data: { pdfId: string; count: number }[] }>(
      "POST",
      `/api/analytics/${what}`,
      200,
      { pdfId: pdf.id },
    );
    return answer.data.reduce((sum, point) => sum + point.count, 0);
  };
  await expect.poll(() => count("views")).toBeGreaterThanOrEqual(1);
  await expect.poll(() => count("visitors")).toBe(1);
  await expect
    .poll(async () => {
      const answer = await admin.expect<{ data: { word: string; count: number }[] }>(
        "POST",
        "/api/analytics/words",
        200,
        { pdfId: pdf.id },
      );
      return answer.data.find((w) => w.word === words.toLowerCase())?.count ?? 0;
    })
    .toBeGreaterThanOrEqual(1);
});

test("an unpublished or unknown catalogue is not available", async ({ page, request }) => {
  const admin = await apiSession(request);
  const draft = await upload(admin, `U${Date.now()}-draft.pdf`, 1);
  await page.goto(`${E2E_ORIGIN}/view/${draft.slug}`);
  await expect(page.getByRole("heading", { name: "This catalogue is not available" })).toBeVisible();
  await expect(page.getByRole("img")).toHaveCount(0);
  await page.goto(`${E2E_ORIGIN}/view/no-such-catalogue`);
  await expect(page.getByRole("heading", { name: "This catalogue is not available" })).toBeVisible();
});
