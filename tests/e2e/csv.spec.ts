/**
 * CSV through a generated list (products): the export follows the list's search, and the
 * import checks the file first (a dry run) before writing.
 */
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { search, seedCategory, uniqueTag } from "./catalogue-helpers";
import { apiSession, openSignedIn } from "./helpers";

test("products go out and back in as CSV: the export follows the search, the import checks first", async ({
  page,
  request,
}) => {
  // An export, two dialogs and two searches: longer than one screen's test.
  test.setTimeout(60_000);
  const tag = uniqueTag();
  const admin = await apiSession(request);
  const { category, sub } = await seedCategory(admin, tag);
  await admin.expect("POST", "/api/products", 201, {
    sku_code: `${tag}-A`,
    name: `${tag} Alpha`,
    price: 12.5,
    category_id: category.id,
    sub_category_id: sub.id,
  });
  // Another product the search leaves out of the export.
  await admin.expect("POST", "/api/products", 201, {
    sku_code: `OUT-${Date.now()}`,
    name: "Outside the search",
    price: 1,
    category_id: category.id,
  });

  await openSignedIn(page, "products/products");
  await search(page, tag, [`${tag} Alpha`]);

  // Export: the list's search, the fields' titles, the category by its name.
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: /Export CSV/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("products.csv");
  const exported = await readFile((await download.path()) as string, "utf8");
  expect(
    exported
      .replace(/^\ufeff/, "")
      .trim()
      .split("\n"),
  ).toEqual([
    "SKU code,Name,Description,Price,Currency,Category,Sub-category,Stock level,Variant of,Status,Images",
    `${tag}-A,${tag} Alpha,,12.50,INR,${category.name},${sub.name},,,draft,`,
  ]);

  const dialog = page.getByRole("dialog", { name: "Import products from CSV" });
  const choose = async (name: string, lines: string[]) => {
    await page.getByRole("button", { name: /Import CSV/ }).click();
    await expect(dialog).toBeVisible();
    await dialog.locator('input[type="file"]').setInputFiles({
      name,
      mimeType: "text/csv",
      buffer: Buffer.from(lines.join("\n")),
    });
  };

  // A file with mistakes: the dry run lists them by row and column, and nothing is written.
  await choose("bad.csv", [
    "SKU code,Name,Price,Category",
    `${tag}-B,${tag} Bravo,ten,${category.name}`,
    `${tag}-C,,3,No such category`,
  ]);
  await expect(dialog.getByRole("alert")).toContainText("The file has 3 errors");
  // The next step has the focus, so the keyboard never falls out of the dialog.
  const again = dialog.getByRole("button", { name: "Choose another file" });
  await expect(again).toBeFocused();
  const errors = dialog.getByRole("region", { name: "Import errors" });
  const bodyRows = errors.locator(".ant-table-tbody tr.ant-table-row");
  await expect(bodyRows).toHaveText([
    /^2PricePrice must be a number$/,
    /^3CategoryNo category has the name or ID 'No such category'$/,
    /^3NameName is required$/,
  ]);
  await errors.getByRole("columnheader", { name: /^Message/ }).click();
  await expect(bodyRows.first()).toHaveText(/^3NameName is required$/);
  await again.press("Enter");
  await expect(dialog.getByRole("button", { name: /^Choose a CSV file/ })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  const none = await admin.expect<{ total: number }>("GET", `/api/products?q=${tag}-B`, 200);
  expect(none.total).toBe(0);

  // A good file: the dry run counts, then Import writes every row.
  await choose("good.csv", [
    "SKU code,Name,Price,Category,Sub-category",
    `${tag}-A,${tag} Alpha v2,13,${category.name},${sub.name}`,
    `${tag}-B,${tag} Bravo,10,${category.name},`,
  ]);
  await expect(dialog.getByRole("status")).toContainText("1 product to create, 1 to update");
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByText("Imported: 1 product created, 1 updated")).toBeVisible();
  await expect(dialog).toBeHidden();
  await search(page, `${tag}-A`, [`${tag} Alpha v2`]);
  await search(page, `${tag}-B`, [`${tag} Bravo`]);
});
