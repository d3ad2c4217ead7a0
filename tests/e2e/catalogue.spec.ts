/**
 * The catalogue through the generated resource screens (Products module): create, edit,
 * filter, sort and bulk-delete products, categories and sub-categories (CSV: csv.spec.ts);
 * the form's own validation in the server's words; and the module grant
 * that keeps other users out.
 * Names carry Date.now(), so the tests neither clash nor depend on each other's data.
 */
import { expect, test } from "@playwright/test";
import {
  createButton,
  expectProductNames,
  menu,
  openFromMenu,
  type Row,
  search,
  seedCategory,
  uniqueTag,
} from "./catalogue-helpers";
import { apiSession, choose, combobox, createUser, openSignedIn, signIn } from "./helpers";

test("admin creates a category, a sub-category and a product, then edits the product", async ({
  page,
  request,
}) => {
  const tag = uniqueTag();
  const categoryName = `${tag} Lighting`;
  const subName = `${tag} Desk lamps`;
  const productName = `${tag} Brass lamp`;
  const sku = `SKU-${tag}`;
  // Another category's sub-category must not be offered for this product.
  const admin = await apiSession(request);
  const other = await seedCategory(admin, `${tag} other`);

  await signIn(page);

  // Category.
  await openFromMenu(page, "Categories");
  await expect(page).toHaveURL(/\/manage\/products\/categories(\?|$)/);
  await expect(page.getByRole("heading", { name: "Categories", exact: true })).toBeVisible();
  await createButton(page).click();
  await expect(page).toHaveURL(/\/manage\/products\/categories\/create$/);
  await expect(page.getByRole("heading", { name: "Create category" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(categoryName);
  await page.getByLabel("Catalogue category ID", { exact: true }).fill(String(Date.now() % 2_000_000_000));
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Category created")).toBeVisible();
  await expect(page).toHaveURL(/\/manage\/products\/categories\/show\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: categoryName })).toBeVisible();

  // Sub-category, in that category.
  await openFromMenu(page, "Sub-categories");
  await expect(page).toHaveURL(/\/manage\/products\/sub-categories(\?|$)/);
  await expect(page.getByRole("heading", { name: "Sub-categories", exact: true })).toBeVisible();
  await createButton(page).click();
  await expect(page).toHaveURL(/\/manage\/products\/sub-categories\/create$/);
  await expect(page.getByRole("heading", { name: "Create sub-category" })).toBeVisible();
  await choose(page, "Category", categoryName, { type: true });
  await page.getByLabel("Name", { exact: true }).fill(subName);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Sub-category created")).toBeVisible();
  await expect(page).toHaveURL(/\/manage\/products\/sub-categories\/show\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: subName })).toBeVisible();
  await expect(page.getByRole("link", { name: categoryName })).toBeVisible();

  // Product: the sub-category waits for the category.
  await openFromMenu(page, "Products");
  await expect(page).toHaveURL(/\/manage\/products\/products(\?|$)/);
  await expect(page.getByRole("heading", { name: "Products", exact: true })).toBeVisible();
  await createButton(page).click();
  await expect(page).toHaveURL(/\/manage\/products\/products\/create$/);
  await expect(page.getByRole("heading", { name: "Create product" })).toBeVisible();
  const subSelect = combobox(page, "Sub-category");
  await expect(subSelect).toBeDisabled();
  await expect(page.getByText("Choose a category first")).toBeVisible();
  await page.getByLabel("SKU code", { exact: true }).fill(sku);
  await page.getByLabel("Name", { exact: true }).fill(productName);
  await choose(page, "Category", categoryName, { type: true });
  await expect(subSelect).toBeEnabled();
  await expect(page.getByText("Choose a category first")).toHaveCount(0);
  await subSelect.click({ force: true });
  const offered = page.locator(
    ".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option",
  );
  await expect(offered).toHaveText([subName]);
  await expect(offered.filter({ hasText: other.sub.name })).toHaveCount(0);
  await offered.first().click();
  await page.getByLabel("Price", { exact: true }).fill("1299.5");
  await choose(page, "Status", "Active");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Product created")).toBeVisible();
  await expect(page).toHaveURL(/\/manage\/products\/products\/show\/[0-9a-f-]{36}$/);
  const productUrl = page.url();
  const productId = productUrl.split("/").pop() as string;
  await expect(page.getByRole("heading", { name: productName })).toBeVisible();
  const details = page.locator(".ant-descriptions");
  await expect(details.getByRole("link", { name: categoryName })).toBeVisible();
  await expect(details.getByRole("link", { name: subName })).toBeVisible();
  await expect(details.getByText("Active", { exact: true })).toBeVisible();
  await expect(details.getByText(sku, { exact: true })).toBeVisible();

  // What the server stored.
  const stored = await admin.expect<Record<string, unknown>>("GET", `/api/products/${productId}`, 200);
  expect(stored).toMatchObject({
    sku_code: sku,
    name: productName,
    price: 1299.5,
    currency: "INR",
    status: "active",
  });

  // Edit: the show page and the list show the change.
  await page.getByRole("button", { name: "Edit" }).click();
  await expect(page).toHaveURL(new RegExp(`/manage/products/products/edit/${productId}$`));
  await expect(page.getByRole("heading", { name: `Edit ${productName}` })).toBeVisible();
  // The tab names the screen, not Refine's "#<id> Edit Products | Refine".
  await expect(page).toHaveTitle("Edit Product | Atelier");
  const name = page.getByLabel("Name", { exact: true });
  await expect(name).toHaveValue(productName);
  await name.fill(`${productName} (polished)`);
  await choose(page, "Status", "Archived");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Changes saved")).toBeVisible();
  await expect(page).toHaveURL(productUrl);
  await expect(page.getByRole("heading", { name: `${productName} (polished)` })).toBeVisible();
  await expect(details.getByText("Archived", { exact: true })).toBeVisible();

  await openFromMenu(page, "Products");
  await search(page, tag, [`${productName} (polished)`]);
  const row = page.getByRole("row", { name: new RegExp(sku) });
  await expect(row.getByText("Archived", { exact: true })).toBeVisible();
  await expect(row.getByRole("link", { name: subName })).toBeVisible();
});

test("the products list filters by status, searches and sorts by a clicked column", async ({
  page,
  request,
}) => {
  const tag = uniqueTag();
  const admin = await apiSession(request);
  const { category } = await seedCategory(admin, tag);
  // Created in this order, so the default sort (last updated first) is Alpha, Charlie, Bravo.
  for (const [word, price, status] of [
    ["Bravo", 30, "active"],
    ["Charlie", 10, "draft"],
    ["Alpha", 20, "active"],
  ] as const) {
    await admin.expect("POST", "/api/products", 201, {
      sku_code: `${tag}-${word}`,
      name: `${tag} ${word}`,
      price,
      status,
      category_id: category.id,
    });
  }
  const [alpha, bravo, charlie] = ["Alpha", "Bravo", "Charlie"].map((word) => `${tag} ${word}`);

  await openSignedIn(page, "products/products");
  await search(page, tag, [alpha, charlie, bravo]);
  await expect(page.getByText("3 products", { exact: true })).toBeVisible();

  // Sort by name: ascending, then descending.
  const nameHeader = page.getByRole("columnheader", { name: /^Name/ });
  await nameHeader.click();
  await expectProductNames(page, [alpha, bravo, charlie]);
  await expect(page).toHaveURL(/sorters/);
  await nameHeader.click();
  await expectProductNames(page, [charlie, bravo, alpha]);

  // Sort by price, ascending.
  await page.getByRole("columnheader", { name: /^Price/ }).click();
  await expectProductNames(page, [charlie, alpha, bravo]);

  // Filter by status: only the active ones, still by price.
  await choose(page, "Filter by Status", "Active");
  await expectProductNames(page, [alpha, bravo]);
  await expect(page.getByText("2 products", { exact: true })).toBeVisible();
  await choose(page, "Filter by Status", "Draft");
  await expectProductNames(page, [charlie]);
  await expect(page.getByText("1 product", { exact: true })).toBeVisible();

  // Filter by category (a relation, its options read once opened): after a reload the box
  // still names the category, not its id.
  const categoryName = String(category.name);
  await choose(page, "Filter by Category", categoryName, { search: categoryName });
  await expect(page).toHaveURL(/category_id/);
  await page.reload();
  await expectProductNames(page, [charlie]);
  await expect(
    combobox(page, "Filter by Category")
      .locator("xpath=ancestor::div[contains(concat(' ', normalize-space(@class), ' '), ' ant-select ')][1]")
      .locator(`.ant-select-selection-item[title="${categoryName}"]`),
  ).toBeVisible();

  // A search that matches one of them narrows further; one that matches none says so.
  await search(page, `${tag} Charlie`, [charlie]);
  await search(page, `${tag} Alpha`, []);
  await expect(page.getByText("No products match these filters")).toBeVisible();

  // Clearing the filters drops the search and the status.
  await page
    .getByRole("button", { name: /Clear filters/ })
    .first()
    .click();
  await expect(page.getByRole("searchbox", { name: "Search products" })).toHaveValue("");
  await search(page, tag, [charlie, alpha, bravo]);
});

test("selected products are deleted together", async ({ page, request }) => {
  const tag = uniqueTag();
  const admin = await apiSession(request);
  const { category } = await seedCategory(admin, tag);
  const ids: Record<string, string> = {};
  for (const word of ["Keep", "Drop one", "Drop two"]) {
    const created = await admin.expect<Row>("POST", "/api/products", 201, {
      sku_code: `${tag}-${word.replace(" ", "-")}`,
      name: `${tag} ${word}`,
      price: 5,
      category_id: category.id,
    });
    ids[word] = created.id;
  }

  await openSignedIn(page, "products/products");
  await search(page, tag, [`${tag} Drop two`, `${tag} Drop one`, `${tag} Keep`]);

  for (const word of ["Drop one", "Drop two"]) {
    await page
      .getByRole("row", { name: `${tag} ${word}` })
      .getByRole("checkbox")
      .check();
  }
  const selection = page.getByRole("region", { name: "Selection" });
  await expect(selection.getByText("2 selected")).toBeVisible();
  await selection.getByRole("button", { name: /Delete selected/ }).click();
  await expect(page.getByText("Delete 2 selected?")).toBeVisible();
  await page.getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.getByText("2 products deleted")).toBeVisible();
  await expectProductNames(page, [`${tag} Keep`]);
  await expect(selection).toHaveCount(0);

  await admin.expect("GET", `/api/products/${ids["Drop one"]}`, 404);
  await admin.expect("GET", `/api/products/${ids["Drop two"]}`, 404);
  await admin.expect("GET", `/api/products/${ids.Keep}`, 200);
});

test("the product form rejects bad fields in the server's words, before sending anything", async ({
  page,
  request,
}) => {
  const admin = await apiSession(request);
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/api/products") posts.push(r.url());
  });

  await openSignedIn(page, "products/products/create");
  await page.getByLabel("SKU code", { exact: true }).fill("bad sku");
  const name = page.getByLabel("Name", { exact: true });
  await name.fill("x");
  await name.fill("");
  await page.getByRole("button", { name: "Save" }).click();

  // rjsf puts a field's messages in `<field id>__error`.
  const fieldError = (id: string) => page.locator(`#root_${id}__error`);
  await expect(fieldError("name")).toBeVisible();
  await expect(fieldError("sku_code")).toBeVisible();
  const shown = {
    name: (await fieldError("name").innerText()).trim(),
    sku_code: (await fieldError("sku_code").innerText()).trim(),
  };
  expect(shown.name).toBe("Name is required");
  expect(shown.sku_code).toBe("SKU code may only contain letters, digits, dots, dashes and underscores");
  await expect(page).toHaveURL(/\/products\/products\/create$/);
  expect(posts).toEqual([]);

  // The API says the same about the same input.
  const answer = await admin.call<{ details: { field: string; message: string }[] }>(
    "POST",
    "/api/products",
    { sku_code: "bad sku", price: 1 },
  );
  expect(answer.status).toBe(400);
  const serverSays = (field: string) => answer.body.details.find((d) => d.field === field)?.message;
  expect(serverSays("name")).toBe(shown.name);
  expect(serverSays("sku_code")).toBe(shown.sku_code);

  // Fixing the field clears its message.
  await name.fill("Fixed");
  await expect(fieldError("name")).toHaveCount(0);
});

test("a user without the Products module is kept out of the catalogue, on screen and in the API", async ({
  page,
  request,
}) => {
  const admin = await apiSession(request);
  const email = `no-products-${Date.now()}@example.com`;
  const password = "Nora-passw0rd";
  await createUser(admin, {
    first_name: "Nora",
    last_name: "Noproducts",
    email,
    password,
    modules: [6],
  });

  await signIn(page, email, password);
  await expect(menu(page).getByText("Forms", { exact: true })).toBeVisible();
  await expect(menu(page).getByText("Products", { exact: true })).toHaveCount(0);
  for (const path of ["products/products", "products/categories/create", "products/sub-categories"]) {
    await page.goto(path);
    await expect(page.getByText("You do not have access to this module")).toBeVisible();
    await expect(page.getByRole("table")).toHaveCount(0);
  }

  const user = await apiSession(request, email, password);
  await user.expect("GET", "/api/products", 403);
  await user.expect("GET", "/api/categories", 403);
  await user.expect("POST", "/api/products", 403, { sku_code: "NOPE-1", name: "Nope", price: 1 });
  await user.expect("GET", "/api/products/master", 403);
});
