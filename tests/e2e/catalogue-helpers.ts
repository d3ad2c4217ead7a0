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

/** Where each entry of the Products menu group leads. */
const productsMenu = {
  Products: /\/manage\/products\/products(\?|$)/,
  Categories: /\/manage\/products\/categories(\?|$)/,
  "Sub-categories": /\/manage\/products\/sub-categories(\?|$)/,
} as const;

/**
 * Opens a screen of the Products menu group and waits for its URL. The group is expanded only
 * when its title says it is collapsed (`aria-expanded`), so a group still animating open is never
 * toggled shut; a click lost to a re-render or an animation is tried again.
 */
export async function openFromMenu(page: Page, item: keyof typeof productsMenu) {
  const group = menu(page)
    .locator(".ant-menu-submenu-title")
    .filter({ hasText: /^Products$/ });
  const entry = menu(page).locator(".ant-menu-sub").getByRole("link", { name: item, exact: true });
  await expect(async () => {
    if ((await group.getAttribute("aria-expanded", { timeout: 2_000 })) !== "true") await group.click();
    await entry.click({ timeout: 2_000 });
    await expect(page).toHaveURL(productsMenu[item], { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/** The list's Create button (its accessible name also holds its icon's). */
export const createButton = (page: Page) => page.getByRole("button", { name: /^(plus-square )?Create$/ });

/** The names in the product list, top to bottom (the label column links to each record). */
export const productNames = (page: Page): Locator =>
  page.locator('.ant-table-tbody a[href*="/products/products/show/"]');

/**
 * Waits until the product list shows `names`, top to bottom. A name cut to fit its cell ("...")
 * carries the whole name as the link's accessible name, so that is what is compared.
 */
export async function expectProductNames(page: Page, names: string[]) {
  await expect
    .poll(() =>
      productNames(page).evaluateAll((links) =>
        links.map((a) => a.getAttribute("aria-label") ?? a.textContent),
      ),
    )
    .toEqual(names);
}

/** Searches the products list and waits until it shows `names`, in that order. */
export async function search(page: Page, text: string, names: string[]) {
  const box = page.getByRole("searchbox", { name: "Search products" });
  await box.fill(text);
  await box.press("Enter");
  await expectProductNames(page, names);
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
