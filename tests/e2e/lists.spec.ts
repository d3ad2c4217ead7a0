/**
 * The generated lists as a picky admin sees them (issue 13): a list that fails to load says
 * so in place with Retry; long text is cut with "..." and shown whole on hover; every column
 * fits or scrolls clear of the sticky Actions column at 1440×900 and 1280×800; a column
 * chooser remembered on the server (so it survives reload and signing out); and the sider
 * stays folded across reloads with no menu label cut. Screenshots go to SHOTS.
 */
import { expect, type Page, test } from "@playwright/test";
import { productNames, seedCategory, uniqueTag } from "./catalogue-helpers";
import { apiSession, signIn, signOut } from "./helpers";
import { shotsDir } from "./shots";

const SHOTS = shotsDir("lists");
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
] as const;

const LONG_NAME = "Handwoven rattan lounge chair with a solid teak frame and weatherproof cushions";

/** A category and `count` products with long names; returns the tag their names carry. */
async function seedProducts(request: Parameters<typeof apiSession>[0], count = 2) {
  const tag = uniqueTag();
  const admin = await apiSession(request);
  const { category, sub } = await seedCategory(admin, `${tag} Outdoor furniture and garden lighting`);
  for (let i = 0; i < count; i++) {
    await admin.expect("POST", "/api/products", 201, {
      sku_code: `SKU-${tag}-${i}`,
      name: `${LONG_NAME} ${tag} ${i}`,
      price: 123456.78,
      currency: "INR",
      category_id: category.id,
      sub_category_id: sub.id,
      status: "active",
    });
  }
  return tag;
}

/** Opens the products list searched for `tag` and waits for its rows. */
async function openProducts(page: Page, tag: string) {
  await page.goto(
    `products/products?filters[0][field]=q&filters[0][operator]=contains&filters[0][value]=${tag}`,
  );
  await expect(productNames(page).first()).toBeVisible({ timeout: 30_000 });
}

// The admin's saved columns and sider would change the other specs' screens: never left behind.
test.afterEach(async ({ request }) => {
  const admin = await apiSession(request);
  for (const key of ["list-columns:products", "ui.menuClose"]) {
    await admin.expect("DELETE", `/api/me/preferences/${key}`, 204);
  }
});

const header = (page: Page, title: string) =>
  page.locator(".ant-table-thead th").filter({ hasText: new RegExp(`^${title}$`) });

test("a list that fails to load says what failed, with Retry, never the empty state", async ({
  page,
  request,
}) => {
  const tag = await seedProducts(request, 1);
  await signIn(page);
  await page.setViewportSize(SIZES[1]);
  // Every read of the list fails (the client retries a 5xx twice, then gives up).
  await page.route(/\/api\/products\?/, (route) =>
    route.request().method() === "GET"
      ? route.fulfill({
          status: 500,
          contentType: "application/json",
          body: '{"statusCode":500,"message":"boom"}',
        })
      : route.fallback(),
  );
  await page.goto("products/products");
  const failure = page.getByRole("alert").filter({ hasText: "The products could not be loaded" });
  await expect(failure).toBeVisible({ timeout: 30_000 });
  await expect(failure).toContainText("The server ran into a problem (error 500)");
  await expect(page.getByText("No products yet")).toHaveCount(0);
  await expect(page.locator(".ant-table")).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/load-error-1280.png` });

  // The server is back: Retry loads the list in place.
  await page.unroute(/\/api\/products\?/);
  await failure.getByRole("button", { name: /Retry/ }).click();
  await expect(failure).toHaveCount(0, { timeout: 30_000 });
  await expect(productNames(page).first()).toBeVisible();

  // A search that finds nothing is the "no match" state, not an error.
  const box = page.getByRole("searchbox", { name: "Search products" });
  await box.fill(`${tag}-nothing-matches`);
  await box.press("Enter");
  await expect(page.getByText("No products match these filters")).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("long text is cut with a 3-character ellipsis and shown whole on hover", async ({ page, request }) => {
  const tag = await seedProducts(request, 1);
  const fullName = `${LONG_NAME} ${tag} 0`;
  await signIn(page);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await openProducts(page, tag);
    const link = productNames(page).first();
    // Cut to fit its cell, with "..." (never "…"), and still named in full for a screen reader.
    await expect(link).toHaveText(/^Handwoven rattan .*[^.]\.\.\.$/);
    const shown = (await link.textContent()) ?? "";
    expect(shown.length).toBeLessThan(fullName.length);
    expect(fullName.startsWith(shown.slice(0, -3))).toBe(true);
    await expect(link).toHaveAccessibleName(fullName);
    const cell = link.locator("xpath=ancestor::td[1]");
    const fits = await cell.evaluate((td) => td.scrollWidth <= td.clientWidth);
    expect(fits).toBe(true);

    await link.hover();
    await expect(page.getByRole("tooltip").filter({ hasText: fullName })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/truncated-hover-${size.width}.png` });
    await page.mouse.move(0, 0);
  }
});

test("every column fits or scrolls clear of the sticky Actions column", async ({ page, request }) => {
  const tag = await seedProducts(request, 2);
  await signIn(page);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await openProducts(page, tag);
    // No title is cut.
    const cutTitles = await page
      .locator(".ant-table-thead th")
      .evaluateAll((cells) =>
        cells.filter((th) => th.scrollWidth > th.clientWidth + 1).map((th) => th.textContent),
      );
    expect(cutTitles).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/products-${size.width}.png` });

    // Scrolled as far right as it goes, the last data column ends where Actions begins.
    const body = page.locator(".ant-table-content, .ant-table-body").first();
    await body.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await expect
      .poll(async () => {
        const last = await header(page, "Updated").boundingBox();
        const actions = await header(page, "Actions").boundingBox();
        return last && actions ? actions.x - (last.x + last.width) : Number.NEGATIVE_INFINITY;
      })
      .toBeGreaterThanOrEqual(-1);
    // The Actions column is inside the window.
    const actions = await header(page, "Actions").boundingBox();
    expect((actions?.x ?? 0) + (actions?.width ?? 0)).toBeLessThanOrEqual(size.width);
    await page.screenshot({ path: `${SHOTS}/products-scrolled-${size.width}.png` });
  }
});

test("a hidden column stays hidden after a reload and after signing in again", async ({ page, request }) => {
  const tag = await seedProducts(request, 1);
  const admin = await apiSession(request);
  const key = "/api/me/preferences/list-columns:products";
  await admin.expect("DELETE", key, 204);
  await signIn(page);
  await page.setViewportSize(SIZES[0]);
  await openProducts(page, tag);
  await expect(header(page, "Status")).toHaveCount(1);

  await page.getByRole("button", { name: /Columns/ }).click();
  // The chooser shows the saved preference, which changes through the query cache a tick after
  // the click: click, then wait for the box (uncheck() checks at once and calls it a failure).
  const status = page.getByRole("checkbox", { name: "Status" });
  await status.click();
  await expect(status).not.toBeChecked();
  // Up past the hidden Status, then past Sub-category.
  await page.getByRole("button", { name: "Move Updated up" }).click();
  await page.getByRole("button", { name: "Move Updated up" }).click();
  await expect(header(page, "Status")).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/column-chooser-1440.png` });
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Columns (1 hidden)" })).toBeVisible();
  const titles = () => page.locator(".ant-table-thead th").allTextContents();
  const arranged = (await titles()).filter(Boolean);
  expect(arranged.indexOf("Updated")).toBeLessThan(arranged.indexOf("Sub-category"));

  // Saved on the server: it survives a reload, and signing out (which clears local storage).
  await expect
    .poll(async () => (await admin.call<{ value: unknown }>("GET", key)).body.value)
    .toMatchObject({ hidden: ["status"], order: expect.arrayContaining(["updated_at"]) });
  await page.reload();
  await expect(productNames(page).first()).toBeVisible({ timeout: 30_000 });
  await expect(header(page, "Status")).toHaveCount(0);
  await signOut(page);
  await signIn(page);
  await openProducts(page, tag);
  await expect(header(page, "Status")).toHaveCount(0);
  expect((await titles()).filter(Boolean)).toEqual(arranged);

  // Reset to default brings every column back, in the schema's order.
  await page.getByRole("button", { name: /Columns/ }).click();
  await page.getByRole("button", { name: "Reset to default" }).click();
  await expect(header(page, "Status")).toHaveCount(1);
  await expect.poll(async () => (await admin.call<{ value: unknown }>("GET", key)).body.value).toBeNull();
});

test("the sider stays folded across a reload, and no menu label is cut", async ({ page }) => {
  await signIn(page);
  const sider = page.locator(".ant-layout-sider").first();
  const trigger = page.locator(".ant-layout-sider-trigger");
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.goto("products/products");
    // Every module group open, so every label is on screen.
    const groups = page.locator(".ant-menu-submenu-title[aria-expanded='false']");
    while ((await groups.count()) > 0) await groups.first().click();
    const cut = await page
      .locator(".ant-layout-sider .ant-menu-title-content")
      .evaluateAll((items) =>
        items.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent),
      );
    expect(cut).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/sider-open-${size.width}.png` });
  }

  const saved = () =>
    page.waitForResponse(
      (r) => r.url().includes("/api/me/preferences/ui.menuClose") && r.request().method() === "PUT",
    );
  let put = saved();
  await trigger.click();
  await expect(sider).toHaveClass(/ant-layout-sider-collapsed/);
  await put;
  await page.reload();
  await expect(page.getByRole("menu").first()).toBeVisible({ timeout: 30_000 });
  await expect(sider).toHaveClass(/ant-layout-sider-collapsed/);
  await page.screenshot({ path: `${SHOTS}/sider-folded-1280.png` });

  // Open again, and so it stays.
  put = saved();
  await trigger.click();
  await expect(sider).not.toHaveClass(/ant-layout-sider-collapsed/);
  await put;
  await page.reload();
  await expect(page.getByRole("menu").first()).toBeVisible({ timeout: 30_000 });
  await expect(sider).not.toHaveClass(/ant-layout-sider-collapsed/);
});
