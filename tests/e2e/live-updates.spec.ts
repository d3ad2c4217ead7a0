/**
 * Lists update live: another admin's change (made here through the API, as a second
 * browser would) shows up in an open list without a reload, through the socket.
 */
import { expect, test } from "@playwright/test";
import { apiSession, openSignedIn } from "./helpers";

test("a product created, renamed and deleted by another admin appears, changes and goes live", async ({
  browser,
  request,
}) => {
  const tag = `L${Date.now()}`;
  const other = await apiSession(request);
  const category = await other.expect<{ id: string }>("POST", "/api/categories", 201, {
    name: `${tag} category`,
  });

  const context = await browser.newContext();
  const page = await context.newPage();
  await openSignedIn(page, "products/products");
  const table = page.locator(".ant-table-tbody");
  // The list screen's first load: a busy machine can take more than the default 10 s.
  await expect(page.getByRole("searchbox", { name: "Search products" })).toBeVisible({ timeout: 30_000 });
  // Let the first load settle, and prove the product is not there yet.
  await expect(table.getByRole("link", { name: `${tag} lamp` })).toHaveCount(0);
  // Wait until the list's live subscription is acknowledged before the change is made.
  await expect(page.locator("html")).toHaveAttribute("data-live", /(^| )products( |$)/);

  const product = await other.expect<{ id: string }>("POST", "/api/products", 201, {
    sku_code: `${tag}-1`,
    name: `${tag} lamp`,
    price: 12.5,
    category_id: category.id,
    status: "active",
  });
  await expect(table.getByRole("link", { name: `${tag} lamp` })).toBeVisible();

  await other.expect("PATCH", `/api/products/${product.id}`, 200, { name: `${tag} desk lamp` });
  await expect(table.getByRole("link", { name: `${tag} desk lamp` })).toBeVisible();

  await other.expect("DELETE", `/api/products/${product.id}`, 204);
  await expect(table.getByRole("link", { name: `${tag} desk lamp` })).toHaveCount(0);
  await context.close();
});
