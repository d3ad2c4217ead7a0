/**
 * Every record's history in the browser (issue 31): a product edited in its form and moved to
 * another category shows, on its page's History tab, the changes as a readable diff (labels,
 * money, categories by name, who and when); restoring the name after a confirmation puts it
 * back and is itself recorded; the admin sees what the person changed on their user page.
 */
import { expect, test } from "@playwright/test";
import { uniqueTag } from "./catalogue-helpers";
import { apiSession, openSignedIn } from "./helpers";
import { shoot } from "./shots";

interface Row {
  id: string;
}

test("a product's History tab shows the readable diff and restores a field", async ({ page, request }) => {
  test.setTimeout(60_000);
  const tag = uniqueTag();
  const admin = await apiSession(request);
  const mugs = await admin.expect<Row>("POST", "/api/categories", 201, { name: `${tag} Mugs` });
  const cups = await admin.expect<Row>("POST", "/api/categories", 201, { name: `${tag} Cups` });
  const product = await admin.expect<Row>("POST", "/api/products", 201, {
    sku_code: `${tag}-MUG`,
    name: `${tag} Stoneware mug`,
    price: 12.5,
    category_id: mugs.id,
    description: "Hand thrown",
  });
  await admin.expect("PATCH", `/api/products/${product.id}`, 200, { category_id: cups.id });

  // Edit in the form: the name and the price.
  await openSignedIn(page, `products/products/edit/${product.id}`);
  const name = page.getByLabel("Name", { exact: true });
  await expect(name).toHaveValue(`${tag} Stoneware mug`);
  await name.fill(`${tag} Porcelain mug`);
  await page.getByLabel("Price", { exact: true }).fill("18.75");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Changes saved")).toBeVisible();
  await expect(page.getByRole("heading", { name: `${tag} Porcelain mug` })).toBeVisible();

  // The History tab: newest first, labels, money, categories by name, who and when.
  await page.getByRole("tab", { name: "History" }).click();
  await expect(page).toHaveURL(/\?tab=history$/);
  const history = page.getByTestId("record-history");
  await expect(history.getByText("3 changes, newest first", { exact: false })).toBeVisible();
  const entries = history.locator("section.history-entry");
  await expect(entries).toHaveCount(3);
  const latest = entries.nth(0);
  await expect(latest.getByText("Updated", { exact: true })).toBeVisible();
  await expect(latest.getByText("Just now")).toBeVisible();
  const nameRow = latest.getByRole("row", { name: /^Name/ });
  await expect(nameRow).toContainText(`${tag} Stoneware mug`);
  await expect(nameRow).toContainText(`${tag} Porcelain mug`);
  await expect(latest.getByRole("row", { name: /^Price/ })).toContainText("₹12.50");
  await expect(latest.getByRole("row", { name: /^Price/ })).toContainText("₹18.75");
  const moved = entries.nth(1).getByRole("row", { name: /^Category/ });
  await expect(moved.getByRole("link", { name: `${tag} Mugs` })).toBeVisible();
  await expect(moved.getByRole("link", { name: `${tag} Cups` })).toBeVisible();
  await expect(entries.nth(2).getByText("Created", { exact: true })).toBeVisible();
  await shoot(page, "history", "product-history");

  // Restore the name, after a confirmation.
  await nameRow.getByRole("button", { name: "Restore Name" }).click();
  const confirm = page.getByRole("tooltip").filter({ hasText: "Restore Name?" });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Restore" }).click();
  await expect(page.getByText("Name restored")).toBeVisible();
  await expect(page.getByRole("heading", { name: `${tag} Stoneware mug` })).toBeVisible();
  await expect(entries).toHaveCount(4);
  await expect(entries.nth(0)).toContainText("(restore)");
  await expect(entries.nth(0).getByRole("row", { name: /^Name/ })).toContainText(`${tag} Stoneware mug`);
  // The price stays as edited.
  await page.getByRole("tab", { name: "Details" }).click();
  // In the Details panel: the History panel, kept once opened, holds the same price.
  await expect(page.getByRole("tabpanel", { name: "Details" }).getByText("₹18.75")).toBeVisible();

  // The admin's view of what one person changed: here, the admin's own changes.
  await page.goto(`/manage/users/show/${admin.user.userID}`);
  const changes = page.locator(".ant-card").filter({ hasText: "Changes" }).last();
  await expect(changes.getByRole("link", { name: `${tag} Stoneware mug` }).first()).toBeVisible();
  await changes.scrollIntoViewIfNeeded();
  await shoot(page, "history", "user-changes");
});
