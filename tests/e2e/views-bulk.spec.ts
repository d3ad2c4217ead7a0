/**
 * Saved views and bulk edit on the products list (issue 31), as an admin uses them: search and
 * hide a column, save that as a view, switch tabs, make it the default, open the list plainly
 * and reload (both land on it); then select all records matching the view's filter, set one
 * field on all of them, confirm the count, follow the job's progress and read the result.
 * Screenshots at 1440×900 and 1280×800 go to SHOTS.
 */
import { expect, type Locator, type Page, test } from "@playwright/test";
import { productNames, seedCategory, uniqueTag } from "./catalogue-helpers";
import { api, apiSession, apiSignIn, signIn } from "./helpers";
import { shoot } from "./shots";

const SPEC = "views-bulk";
/** Past the 200 a bulk edit runs inline: the edit runs as a job, with progress. */
const COUNT = 230;

interface Listed {
  data: Array<{ id: string; status: string }>;
  total: number;
}

// The admin's default view, views and columns would change the other specs' product lists.
test.afterEach(async ({ request }) => {
  const admin = await apiSession(request);
  await admin.expect("PUT", "/api/products/views/default", 200, { id: null });
  const { data } = await admin.expect<{ data: Array<{ id: string; canEdit: boolean }> }>(
    "GET",
    "/api/products/views",
    200,
  );
  for (const view of data.filter((v) => v.canEdit))
    await admin.expect("DELETE", `/api/products/views/${view.id}`, 204);
  await admin.expect("DELETE", "/api/me/preferences/list-columns:products", 204);
});

/** Picks `option` in an antd select (its visible list, not the hidden one for screen readers), confirming it took. */
async function pick(page: Page, box: Locator, option: string) {
  const select = box.locator(
    "xpath=ancestor::div[contains(concat(' ', normalize-space(@class), ' '), ' ant-select ')][1]",
  );
  const open = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)");
  await expect(async () => {
    if ((await select.locator(`.ant-select-selection-item[title="${option}"]`).count()) > 0) return;
    if ((await box.getAttribute("aria-expanded")) !== "true") await box.click({ force: true });
    await open.locator(`.ant-select-item-option[title="${option}"]`).click({ timeout: 5000 });
    await expect(select.locator(`.ant-select-selection-item[title="${option}"]`)).toBeVisible({
      timeout: 2000,
    });
  }).toPass({ timeout: 30_000 });
}

const searchBox = (page: Page) => page.getByRole("searchbox", { name: "Search products" });
const tabs = (page: Page) => page.getByRole("tablist");

test("a saved view opens by default; all matching records get one field set, as one job with progress", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const tag = uniqueTag();
  const admin = await apiSession(request);
  const { category, sub } = await seedCategory(admin, tag);
  // The products in one import (all rows or none), drafts all.
  const rows = Array.from(
    { length: COUNT },
    (_, i) =>
      `SKU-${tag}-${i},Lamp ${tag} ${String(i).padStart(3, "0")},${100 + i},INR,${category.id},${sub.id},draft`,
  );
  const { accessToken } = await apiSignIn(request);
  const imported = await request.post(api("/api/products/import"), {
    headers: { Authorization: `Bearer ${accessToken}`, "content-type": "text/csv" },
    data: ["sku_code,name,price,currency,category_id,sub_category_id,status", ...rows].join("\n"),
  });
  expect(imported.status(), await imported.text()).toBe(200);

  await signIn(page);
  await page.goto("products/products");
  // No view yet: no tabs, only "Save as view".
  await expect(page.getByRole("button", { name: /Save as view/ })).toBeVisible({ timeout: 30_000 });
  await expect(tabs(page)).toHaveCount(0);

  // The list searched for the tag, without the Currency column: saved as a view.
  await searchBox(page).fill(tag);
  await searchBox(page).press("Enter");
  await expect(productNames(page)).toHaveCount(10, { timeout: 30_000 });
  await page.getByRole("button", { name: /^(insert-row-left )?Columns/ }).click();
  // The chooser's box follows the saved preference a tick after the click (as in lists.spec):
  // click, then wait for it; uncheck() checks at once and calls a late change a failure.
  const currency = page.getByRole("checkbox", { name: "Currency" });
  await currency.click();
  await expect(currency).not.toBeChecked();
  await page.keyboard.press("Escape");
  await expect(page.locator(".ant-table-thead th").filter({ hasText: /^Currency$/ })).toHaveCount(0);
  await page.getByRole("button", { name: /Save as view/ }).click();
  const dialog = page.getByRole("dialog", { name: "Save the list as a view" });
  await dialog.getByLabel("Name").fill(`Lamps ${tag}`);
  await shoot(page, SPEC, "save-view");
  await dialog.getByRole("button", { name: "Save view" }).click();
  const viewTab = tabs(page).getByRole("tab", { name: `Lamps ${tag}` });
  await expect(viewTab).toHaveAttribute("aria-selected", "true");

  // Switching tabs: the plain list, then the view again with its search and columns.
  await tabs(page).getByRole("tab", { name: "All products" }).click();
  await expect(searchBox(page)).toHaveValue("");
  await expect(page.locator(".ant-table-thead th").filter({ hasText: /^Currency$/ })).toHaveCount(1);
  await viewTab.click();
  await expect(searchBox(page)).toHaveValue(tag);
  await expect(page.locator(".ant-table-thead th").filter({ hasText: /^Currency$/ })).toHaveCount(0);

  // The default: the list opened plainly lands on it, and so does a reload.
  await page.getByRole("button", { name: `View options for Lamps ${tag}` }).click();
  await page.getByRole("menuitem", { name: "Open the list with this view" }).click();
  await expect(viewTab.getByLabel("default")).toBeVisible();
  await page.goto("products/products");
  await expect(viewTab).toHaveAttribute("aria-selected", "true", { timeout: 30_000 });
  await expect(searchBox(page)).toHaveValue(tag);
  await page.reload();
  await expect(viewTab).toHaveAttribute("aria-selected", "true", { timeout: 30_000 });
  await expect(searchBox(page)).toHaveValue(tag);
  await expect(productNames(page)).toHaveCount(10, { timeout: 30_000 });
  await shoot(page, SPEC, "view-default");

  // Every record matching the view's search: one field set on all of them.
  await page.getByRole("checkbox", { name: "Select all" }).check();
  await page.getByRole("button", { name: `Select all ${COUNT} products matching the filter` }).click();
  await expect(page.getByRole("region", { name: "Selection" })).toContainText(
    `All ${COUNT} products matching the filter are selected`,
  );
  await page.getByRole("button", { name: /Edit field/ }).click();
  const edit = page.getByRole("dialog", { name: `Edit a field of ${COUNT} products` });
  await pick(page, edit.getByRole("combobox", { name: "Field to set" }), "Status");
  await pick(page, edit.getByRole("combobox", { name: "Status" }), "Active");
  await shoot(page, SPEC, "edit-field");
  await edit.getByRole("button", { name: "Next" }).click();
  await expect(edit).toContainText(`Set Status to Active on ${COUNT} products?`);
  await shoot(page, SPEC, "confirm");

  // The first progress answer is held until the progress bar has been seen.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/api\/products\/bulk-update\/[0-9a-f-]{36}$/, async (route) => {
    await held;
    await route.continue();
  });
  await edit.getByRole("button", { name: `Set on ${COUNT} products` }).click();
  await expect(edit.getByRole("progressbar", { name: "Bulk edit progress" })).toBeVisible();
  await shoot(page, SPEC, "progress");
  release();
  await expect(edit.getByText(`Status set on ${COUNT} products`)).toBeVisible({ timeout: 60_000 });
  await shoot(page, SPEC, "result");
  await edit.getByRole("button", { name: "Done" }).click();

  const after = await admin.expect<Listed>(
    "GET",
    `/api/products?pageSize=200&q=${tag}&filters=${encodeURIComponent(JSON.stringify([{ field: "status", operator: "eq", value: "active" }]))}`,
    200,
  );
  expect(after.total).toBe(COUNT);
  await expect(page.getByRole("region", { name: "Selection" })).toHaveCount(0);
});
