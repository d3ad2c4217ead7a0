/**
 * The PDF library in the admin app: upload a catalogue and watch it processed, publish it,
 * draw a hotspot of every kind on a page and save them, accept a suggested Add Product
 * hotspot, and meet another admin's save without overwriting it.
 */
import { expect, type Page, test } from "@playwright/test";
import { makeCataloguePdf } from "../fixtures/make-pdf";
import { api, apiSession, choose, signIn } from "./helpers";

/** Draws a hotspot by dragging across the page, from/to as fractions of the page. */
async function draw(page: Page, from: [number, number], to: [number, number]) {
  const box = await page.getByTestId("page-canvas").boundingBox();
  if (!box) throw new Error("no page canvas");
  await page.mouse.move(box.x + box.width * from[0], box.y + box.height * from[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * to[0], box.y + box.height * to[1], { steps: 6 });
  await page.mouse.up();
}

test.use({ viewport: { width: 1440, height: 1000 } });

test("upload, process, publish, and draw a hotspot of every kind", async ({ page, request }) => {
  test.setTimeout(300_000);
  const tag = `P${Date.now()}`;
  const sku = `${tag}-LAMP`;
  const admin = await apiSession(request);
  const category = await admin.expect<{ id: string }>("POST", "/api/categories", 201, {
    name: `${tag} Lighting`,
  });
  await admin.expect("POST", "/api/products", 201, {
    sku_code: sku,
    name: `${tag} Brass lamp`,
    price: 120,
    category_id: category.id,
  });
  // Linked by hand below; the lamp is printed on the page and only suggested.
  await admin.expect("POST", "/api/products", 201, {
    sku_code: `${tag}-SOFA`,
    name: `${tag} Linen sofa`,
    price: 900,
    category_id: category.id,
  });

  await signIn(page);
  await page.getByRole("menu").first().getByText("PDF library", { exact: true }).first().click();
  const entry = page
    .getByRole("menu")
    .first()
    .locator(".ant-menu-sub")
    .getByRole("link", { name: "PDF library" });
  if (await entry.isVisible()) await entry.click();
  await expect(page).toHaveURL(/\/manage\/pdf\/pdfs/);

  // Upload: the queue shows the file, the list shows it processed.
  await page.getByLabel("PDF files to upload").setInputFiles({
    name: `${tag} Spring.pdf`,
    mimeType: "application/pdf",
    buffer: await makeCataloguePdf({
      pages: 4,
      photos: false,
      skus: [{ page: 1, code: sku, x: 0.6, y: 0.85 }],
    }),
  });
  const uploads = page.getByRole("region", { name: "Uploads" });
  await expect(uploads).toContainText("1 uploaded", { timeout: 20_000 });
  const row = page.getByRole("row", { name: new RegExp(`${tag} Spring`) });
  await expect(row.getByText("Ready", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText("4 pages ready");
  await expect(row.locator("img")).toHaveJSProperty("complete", true);

  // Publish.
  await row.getByRole("switch", { name: new RegExp(`Published: ${tag} Spring`) }).click();
  await expect(page.getByText(`${tag} Spring is published`)).toBeVisible();

  // The hotspot editor.
  await row.getByRole("link", { name: `${tag} Spring` }).click();
  await expect(page).toHaveURL(/\/manage\/pdf\/pdfs\/show\/[0-9a-f-]{36}/);
  const pdfId = page.url().split("/show/")[1].split("?")[0];
  await expect(page.getByTestId("page-canvas").locator("img")).toHaveJSProperty("complete", true);
  await expect(page.getByRole("button", { name: "Page 4" })).toBeVisible();

  const kinds: [string, (p: Page) => Promise<void>][] = [
    ["Go to page", (p) => p.getByRole("spinbutton", { name: "Go to page" }).fill("3")],
    ["Link", (p) => p.getByRole("textbox", { name: "URL" }).fill("https://example.com/spring")],
    [
      "Video (YouTube)",
      (p) => p.getByRole("textbox", { name: "YouTube link" }).fill("https://youtu.be/dQw4w9WgXcQ"),
    ],
    [
      "Embedded page (iframe)",
      (p) => p.getByRole("textbox", { name: "URL" }).fill("https://example.com/embed"),
    ],
    ["Custom Text", (p) => p.getByRole("textbox", { name: "Custom Text" }).fill("Linen, washed twice")],
    [
      "Add Product",
      (p) => choose(p, "Product", `${tag} Linen sofa (${tag}-SOFA)`, { search: `${tag}-SOFA` }),
    ],
    [
      "Add Product (with details)",
      (p) => choose(p, "Product", `${tag} Linen sofa (${tag}-SOFA)`, { search: `${tag}-SOFA` }),
    ],
  ];
  for (const [i, [label, fill]] of kinds.entries()) {
    const y = 0.03 + i * 0.045;
    await draw(page, [0.08, y], [0.3, y + 0.035]);
    await expect(page.getByRole("button", { name: new RegExp(`^Hotspot ${i + 1}:`) })).toBeVisible();
    await choose(page, "Action", label);
    await fill(page);
  }
  // The last one gets a button.
  await page.getByRole("switch", { name: "Show a button" }).click();
  await choose(page, "Button colour", "Secondary");
  await expect(page.getByText("Unsaved changes")).toBeVisible();
  await page.getByRole("button", { name: /^(save )?Save$/ }).click();
  await expect(page.getByText("Hotspots of page 1 saved")).toBeVisible();

  const saved = await admin.expect<{
    revision: number;
    links: { kind: string; target: Record<string, unknown>; button: unknown }[];
  }>("GET", `/api/pdfs/${pdfId}/pages/1/links`, 200);
  expect(saved.links.map((l) => l.kind)).toEqual([
    "pageLink",
    "link",
    "video",
    "iframe",
    "text",
    "addProduct",
    "addProductDetails",
  ]);
  expect(saved.links[0].target).toEqual({ page: 3 });
  expect(saved.links[2].target).toEqual({ youtubeId: "dQw4w9WgXcQ" });
  expect(saved.links[6].button).toMatchObject({ colour: "Secondary", size: "md" });

  // Undo works on the draft.
  await draw(page, [0.5, 0.04], [0.7, 0.08]);
  await expect(page.getByRole("button", { name: /^Hotspot 8:/ })).toBeVisible();
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByRole("button", { name: /^Hotspot 8:/ })).toHaveCount(0);

  // The product's SKU is printed on the page: one click adds and saves its hotspot.
  await page.getByRole("button", { name: `Add a hotspot for ${sku}` }).click();
  await expect(page.getByRole("button", { name: /^Hotspot 8: Add Product/ })).toBeVisible();
  await expect
    .poll(
      async () =>
        (await admin.expect<{ links: unknown[] }>("GET", `/api/pdfs/${pdfId}/pages/1/links`, 200)).links
          .length,
    )
    .toBe(8);
  await expect(page.getByRole("button", { name: `Add a hotspot for ${sku}` })).toHaveCount(0);

  // Another admin saves while this one has unsaved changes: nothing is overwritten.
  await draw(page, [0.5, 0.15], [0.7, 0.2]);
  const current = await admin.expect<{ revision: number; links: unknown[] }>(
    "GET",
    `/api/pdfs/${pdfId}/pages/1/links`,
    200,
  );
  const token = await request.post(api("/api/auth/signin"), {
    data: {
      email: "admin@example.com",
      password: "Admin-Passw0rd!",
      deviceInfo: { deviceId: `other-${tag}`, deviceName: "Other" },
    },
  });
  const { accessToken } = (await token.json()) as { accessToken: string };
  const theirs = await request.put(api(`/api/pdfs/${pdfId}/pages/1/links`), {
    headers: { Authorization: `Bearer ${accessToken}` },
    data: { revision: current.revision, links: current.links.slice(0, 2) },
  });
  expect(theirs.status()).toBe(200);
  await expect(page.getByText("Someone else saved this page's hotspots")).toBeVisible();
  await page.getByRole("button", { name: "Load their version" }).click();
  await expect(page.getByRole("button", { name: /^Hotspot \d+:/ })).toHaveCount(2);

  // The public page is there.
  const slug = (await admin.expect<{ slug: string }>("GET", `/api/pdfs/${pdfId}`, 200)).slug;
  const publicData = await request.get(api(`/public/pdfs/${slug}`));
  expect(publicData.status()).toBe(200);
});
