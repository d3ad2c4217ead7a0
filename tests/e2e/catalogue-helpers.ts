/** The catalogue specs' shared steps: unique names, the Products menu, the list search, seeding. */
import { expect, type Locator, type Page } from "@playwright/test";
import type { ApiSession } from "./helpers";

export interface Row {
  id: string;
  name: string;
}

/** A word unique to one test, put in every name it creates (search finds exactly them). */
export const uniqueTag = () => `T${Date.now()}${Math.floor(Math.random() * 1000)}`;

/** The left menu. */
export const menu = (page: Page) => page.getByRole("menu").first();

/** Opens a screen of the Products menu group ("Products", "Categories", "Sub-categories"). */
export async function openFromMenu(page: Page, item: "Products" | "Categories" | "Sub-categories") {
  const entry = menu(page).locator(".ant-menu-sub").getByRole("link", { name: item, exact: true });
  if (!(await entry.isVisible())) await menu(page).getByText("Products", { exact: true }).first().click();
  await entry.click();
}

/** The list's Create button (its accessible name also holds its icon's). */
export const createButton = (page: Page) => page.getByRole("button", { name: /^(plus-square )?Create$/ });

/** The names in the product list, top to bottom (the label column links to each record). */
export const productNames = (page: Page): Locator =>
  page.locator('.ant-table-tbody a[href*="/products/products/show/"]');

/** Searches the products list and waits until it shows `names`, in that order. */
export async function search(page: Page, text: string, names: string[]) {
  const box = page.getByRole("searchbox", { name: "Search products" });
  await box.fill(text);
  await box.press("Enter");
  await expect(productNames(page)).toHaveText(names);
}

/** A category with one sub-category, through the API. */
export async function seedCategory(admin: ApiSession, tag: string) {
  const category = await admin.expect<Row>("POST", "/api/categories", 201, { name: `${tag} category` });
  const sub = await admin.expect<Row>("POST", "/api/sub-categories", 201, {
    name: `${tag} sub-category`,
    category_id: category.id,
  });
  return { category, sub };
}
