/**
 * Search everywhere (issue 31): Ctrl+K opens the command menu on any screen; typing finds
 * records of several resources, grouped; arrows and Enter open one, which then shows among the
 * recent items of an empty box; commands ("New client", "Go to Proposals") go where they say;
 * Escape closes; a search that finds nothing or fails says so. Screenshots go to SHOTS.
 */
import { expect, type Page, test } from "@playwright/test";
import { seedCategory, uniqueTag } from "./catalogue-helpers";
import { apiSession, openSignedIn } from "./helpers";
import { shoot } from "./shots";

const SPEC = "search";

const menuDialog = (page: Page) => page.getByRole("dialog", { name: "Search and commands" });
const box = (page: Page) => page.getByRole("combobox", { name: "Search records and commands" });
const options = (page: Page) => menuDialog(page).getByRole("option");
const selected = (page: Page) => menuDialog(page).locator('[role="option"][aria-selected="true"]');

async function openWithKeys(page: Page) {
  // The shortcut is the app's once its header is there.
  await expect(page.getByTestId("search-button")).toBeVisible();
  await page.keyboard.press("Control+k");
  await expect(menuDialog(page)).toBeVisible();
  await expect(box(page)).toBeFocused();
}

test("Ctrl+K finds records across resources; arrows and Enter open one; it is then recent", async ({
  page,
  request,
}) => {
  const tag = uniqueTag();
  const admin = await apiSession(request);
  const { category } = await seedCategory(admin, tag);
  const lamp = await admin.expect<{ id: string }>("POST", "/api/products", 201, {
    sku_code: `AUR-${tag}-1`,
    name: `${tag} Aurora lamp`,
    price: 1200,
    category_id: category.id,
  });
  const shade = await admin.expect<{ id: string }>("POST", "/api/products", 201, {
    sku_code: `AUR-${tag}-2`,
    name: `${tag} Aurora shade`,
    price: 800,
    category_id: category.id,
  });
  await admin.expect("POST", "/crm/clients", 201, {
    name: `${tag} Aurora Holdings`,
    company: "Aurora Group",
    email: `aurora-${tag.toLowerCase()}@example.com`,
  });

  await openSignedIn(page, "crm/clients");
  await openWithKeys(page);
  // An empty box offers the screens the person may open.
  await expect(menuDialog(page).getByRole("option", { name: /Go to Proposals/ })).toBeVisible();

  await box(page).fill(`${tag} aurora`);
  await expect(options(page)).toHaveText([
    new RegExp(`${tag} Aurora Holdings`),
    new RegExp(`${tag} Aurora lamp`),
    new RegExp(`${tag} Aurora shade`),
  ]);
  await expect(menuDialog(page).getByRole("group", { name: "Clients" })).toBeVisible();
  await expect(menuDialog(page).getByRole("group", { name: "Products" })).toContainText(`AUR-${tag}-1`);
  await expect(selected(page)).toContainText("Holdings");
  await shoot(page, SPEC, "results");

  await box(page).press("ArrowDown");
  await box(page).press("ArrowDown");
  await expect(selected(page)).toContainText("Aurora shade");
  await box(page).press("ArrowUp");
  await expect(selected(page)).toContainText("Aurora lamp");
  await box(page).press("ArrowDown");
  await box(page).press("Enter");
  await expect(menuDialog(page)).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/manage/products/products/show/${shade.id}$`));
  await expect(page.getByText(`${tag} Aurora shade`).first()).toBeVisible();

  // Back in the menu, the box empty: the record just opened comes first among the recent ones.
  await openWithKeys(page);
  const recent = menuDialog(page).getByRole("group", { name: "Recent" });
  await expect(recent.getByRole("option").first()).toContainText(`${tag} Aurora shade`);
  await shoot(page, SPEC, "recent");
  await page.keyboard.press("Escape");
  await expect(menuDialog(page)).toBeHidden();

  // The other product, by its SKU, opened from the header's button with the mouse.
  await page.getByTestId("search-button").click();
  await expect(box(page)).toBeFocused();
  await box(page).fill(`AUR-${tag}-1`);
  await menuDialog(page)
    .getByRole("option", { name: new RegExp(`${tag} Aurora lamp`) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/manage/products/products/show/${lamp.id}$`));
});

test("commands go where they say; nothing found and a failed search say so", async ({ page }) => {
  await openSignedIn(page, "");
  await page.getByTestId("search-button").click();
  await expect(box(page)).toBeFocused();
  await box(page).fill("new cli");
  await expect(selected(page)).toContainText("New client");
  await box(page).press("Enter");
  await expect(page).toHaveURL(/\/manage\/crm\/clients\/create$/);
  await expect(page.getByLabel("Name", { exact: true })).toBeVisible();

  await openWithKeys(page);
  await box(page).fill("go to proposals");
  await expect(selected(page)).toContainText("Go to Proposals");
  await box(page).press("Enter");
  await expect(page).toHaveURL(/\/manage\/store\/proposals$/);

  await openWithKeys(page);
  const nothing = `qqzx${uniqueTag()}`;
  await box(page).fill(nothing);
  await expect(menuDialog(page).getByText(`No matches for “${nothing}”`, { exact: true })).toBeVisible();
  await shoot(page, SPEC, "no-matches");

  // The server fails: the menu says so, and Retry searches again once it is back.
  await page.route(/\/api\/search\?/, (route) =>
    route.fulfill({
      status: 500,
      contentType: "application/json",
      body: '{"statusCode":500,"message":"boom"}',
    }),
  );
  await box(page).fill(`${nothing}x`);
  const failure = menuDialog(page).getByRole("alert");
  await expect(failure).toContainText("The server ran into a problem (error 500)");
  await shoot(page, SPEC, "failed");
  await page.unroute(/\/api\/search\?/);
  await failure.getByRole("button", { name: "Retry" }).click();
  await expect(menuDialog(page).getByText(`No matches for “${nothing}x”`, { exact: true })).toBeVisible();

  await page.keyboard.press("Escape");
  await expect(menuDialog(page)).toBeHidden();
  // Ctrl+K toggles: pressed on an open menu, it closes it.
  await openWithKeys(page);
  await page.keyboard.press("Control+k");
  await expect(menuDialog(page)).toBeHidden();
});
