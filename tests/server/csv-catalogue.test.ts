/**
 * CSV import and export on the catalogue's resources (issue 12): products with their category
 * and sub-category by label (scoped to the category), a second unique key only the database
 * checks, sub-categories keyed by ID, and a resource without a generic create route.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvServerOptions, exportFile, importFile } from "./csv-fixtures";
import { DRIVERS, startServer, type TestServer } from "./harness";

type Rec = Record<string, unknown> & { id: string };
type List = { data: Rec[]; total: number };
type Err = { row: number; field: string; message: string };
const byRowAndField = (a: Err, b: Err) => a.row - b.row || a.field.localeCompare(b.field);

describe.each(DRIVERS)("CSV on the catalogue on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  const post = async (path: string, body: unknown) => {
    const res = await s.api<Rec>("POST", path, { token: admin, body });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  beforeAll(async () => {
    s = await startServer(driver, {}, csvServerOptions);
    admin = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  it("imports products with categories and sub-categories by label, scoped to their category", async () => {
    const shoes = await post("/api/categories", { name: "Shoes", products_cat_id: 11 });
    const bags = await post("/api/categories", { name: "Bags" });
    const shoeSneakers = await post("/api/sub-categories", { name: "Sneakers", category_id: shoes.id });
    const bagSneakers = await post("/api/sub-categories", { name: "Sneakers", category_id: bags.id });

    const created = await importFile(s, admin, "/api/products", [
      "SKU code,Name,Price,Category,Sub-category,Status,Images",
      "P-1,Runner,49.9,shoes,Sneakers,Active,https://img.example/a.jpg|https://img.example/b.jpg",
      `P-2,Tote,20,${bags.id},,draft,`,
    ]);
    expect(created.body).toEqual({
      message: "Imported: 2 products created, 0 updated",
      created: 2,
      updated: 0,
      errors: [],
    });
    const file = await exportFile(s, admin, "/api/products", "sort=sku_code&q=P-");
    expect(file.rows).toEqual([
      [
        "SKU code",
        "Name",
        "Description",
        "Price",
        "Currency",
        "Category",
        "Sub-category",
        "Stock level",
        "Variant of",
        "Status",
        "Images",
      ],
      [
        "P-1",
        "Runner",
        "",
        "49.90",
        "INR",
        "Shoes",
        "Sneakers",
        "",
        "",
        "active",
        "https://img.example/a.jpg | https://img.example/b.jpg",
      ],
      ["P-2", "Tote", "", "20.00", "INR", "Bags", "", "", "", "draft", ""],
    ]);

    // P-2 keeps its category (Bags), so "Sneakers" is Bags' one; P-1 is given Bags' by ID, which
    // the database's scoped key refuses: that row alone is reported, and nothing is written.
    const scoped = await importFile(s, admin, "/api/products", [
      "SKU code,Sub-category",
      "P-2,Sneakers",
      `P-1,${bagSneakers.id}`,
    ]);
    expect(scoped.status).toBe(400);
    expect(scoped.body.errors).toEqual([
      { row: 3, field: "Sub-category", message: "The sub-category does not belong to the chosen category" },
    ]);
    const ok = await importFile(s, admin, "/api/products", ["SKU code,Sub-category", "P-2,Sneakers"]);
    expect(ok.body.updated).toBe(1);
    const products = (await s.api<List>("GET", "/api/products?q=P-&sort=sku_code", { token: admin })).body
      .data;
    expect(products.map((p) => p.sub_category_id)).toEqual([shoeSneakers.id, bagSneakers.id]);
    expect(products[0].images).toEqual(["https://img.example/a.jpg", "https://img.example/b.jpg"]);

    const ambiguous = await importFile(s, admin, "/api/products", [
      "SKU code,Name,Price,Sub-category",
      "P-3,X,1,sneakers",
    ]);
    expect(ambiguous.body.errors.sort(byRowAndField)).toEqual([
      { row: 2, field: "Category", message: "Category is required" },
      {
        row: 2,
        field: "Sub-category",
        message: "2 sub-category records are named 'sneakers'; write the ID of the one you mean",
      },
    ]);
  });

  it("finds the rows that break a constraint only the database knows (a second unique key)", async () => {
    const res = await importFile(s, admin, "/api/categories", [
      "Name,Catalogue category ID",
      "Scarves,12",
      "Hats,11",
    ]);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { row: 3, field: "Catalogue category ID", message: "Catalogue category ID is already in use" },
    ]);
    const names = (await s.api<List>("GET", "/api/categories?pageSize=50", { token: admin })).body.data.map(
      (c) => c.name,
    );
    expect(names).not.toContain("Scarves");
  });

  it("matches by ID where there is no single-field unique key, and only updates where create is off", async () => {
    const file = await exportFile(s, admin, "/api/sub-categories", "sort=name&q=Sneak");
    expect(file.rows[0]).toEqual(["ID", "Name", "Category", "Description"]);
    const [shoeRow] = file.rows.slice(1).filter((r) => r[2] === "Shoes");
    expect(shoeRow).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/), "Sneakers", "Shoes", ""]);

    const bad = await importFile(s, admin, "/api/sub-categories", [
      "ID,Name,Category",
      `${shoeRow[0]},Trainers,Shoes`,
      "00000000-0000-4000-8000-000000000000,Ghost,Shoes",
      "not-an-id,Boots,Shoes",
    ]);
    expect(bad.body.errors).toEqual([
      { row: 3, field: "ID", message: "No sub-category has this ID" },
      { row: 4, field: "ID", message: "ID must be a UUID, such as 0b7c5a3e-9d1f-4c2a-8e6b-1f2d3c4b5a69" },
    ]);
    const good = await importFile(s, admin, "/api/sub-categories", [
      "ID,Name,Category",
      `${shoeRow[0].toUpperCase()},Trainers,Shoes`,
      ",Boots,Shoes",
    ]);
    expect(good.body).toMatchObject({ created: 1, updated: 1, errors: [] });
    expect((await s.api<Rec>("GET", `/api/sub-categories/${shoeRow[0]}`, { token: admin })).body.name).toBe(
      "Trainers",
    );

    await s.database.db
      .insertInto("csv_stamps" as never)
      .values({ code: "S-1" } as never)
      .execute();
    const stamps = await importFile(s, admin, "/api/stamps", ["Code,Label", "S-1,First", "S-2,Second"]);
    expect(stamps.body.errors).toEqual([
      {
        row: 3,
        field: "Code",
        message: "No stamp has this Code; stamps are not created by import, only updated",
      },
    ]);
    const updated = await importFile(s, admin, "/api/stamps", ["Code,Label", "S-1,First"]);
    expect(updated.body).toMatchObject({ created: 0, updated: 1 });
  });
});
