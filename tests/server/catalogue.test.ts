/** The resource engine proven on the catalogue: CRUD, validation, uniqueness, relations, lists, CSV. */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, startServer, type TestServer } from "./harness";

type Rec = Record<string, unknown> & { id: string };
type List = { data: Rec[]; total: number };

describe.each(DRIVERS)("catalogue on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let shoes: Rec;
  let bags: Rec;
  let sneakers: Rec;
  const post = (path: string, body: unknown) => s.api<Rec>("POST", path, { token: admin, body });

  beforeAll(async () => {
    s = await startServer(driver);
    admin = (await s.signIn()).accessToken;
    shoes = (await post("/api/categories", { name: "Shoes", products_cat_id: 11 })).body;
    bags = (await post("/api/categories", { name: "Bags" })).body;
    sneakers = (await post("/api/sub-categories", { name: "Sneakers", category_id: shoes.id })).body;
  });
  afterAll(() => s?.close());

  it("creates records with audit fields and schema defaults", async () => {
    const res = await post("/api/products", {
      sku_code: "SH-001",
      name: "Runner",
      price: 49.9,
      category_id: shoes.id,
      sub_category_id: sneakers.id,
    });
    expect(res.status).toBe(201);
    const me = await s.api("GET", "/api/users/me", { token: admin });
    expect(res.body).toMatchObject({
      sku_code: "SH-001",
      price: 49.9,
      currency: "INR",
      status: "draft",
      created_by: me.body.userID,
      updated_by: me.body.userID,
      images: null,
    });
    expect(typeof res.body.created_at).toBe("string");
    const row = await s.database.db
      .selectFrom("products" as never)
      .selectAll()
      .executeTakeFirst();
    expect(row).toBeTruthy();
  });

  it("rejects bad input with per-field messages, including read-only fields, and writes nothing", async () => {
    const res = await post("/api/products", {
      sku_code: "bad sku!",
      price: -1,
      currency: "XYZ",
      id: "x",
      created_by: "y",
    });
    expect(res.status).toBe(400);
    const byField = Object.fromEntries(
      (res.body.details as Array<{ field: string; message: string }>).map((d) => [d.field, d.message]),
    );
    expect(byField).toMatchObject({
      name: "Name is required",
      category_id: "Category is required",
      price: "Price must be 0 or more",
      id: "ID is not a field that can be set here",
      created_by: "Created by is not a field that can be set here",
      sku_code: "SKU code may only contain letters, digits, dots, dashes and underscores",
    });
    expect(byField.currency).toMatch(/^Currency must be one of INR, USD/);
    const count = await s.api<List>("GET", "/api/products", { token: admin });
    expect(count.body.total).toBe(1);
  });

  it("accepts every two-decimal price (0.29, 1.13, 4.35…) and refuses a third decimal", async () => {
    const prices = [0.29, 1.13, 4.35, 0.57, 1.15, 999999999.99];
    for (const [i, price] of prices.entries()) {
      const res = await post("/api/products", {
        sku_code: `DEC-${i}`,
        name: "Dec",
        price,
        category_id: shoes.id,
      });
      expect(res.status, `price ${price}`).toBe(201);
      expect(res.body.price).toBe(price);
    }
    const refused = await post("/api/products", {
      sku_code: "DEC-X",
      name: "Dec",
      price: 4.355,
      category_id: shoes.id,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([
      { field: "price", message: "Price must have at most 2 decimal places" },
    ]);
    const rows = await s.database.db
      .selectFrom("products" as never)
      .select(sql<number>`count(*)::int`.as("n"))
      .where(sql<boolean>`sku_code like 'DEC-%'`)
      .executeTakeFirstOrThrow();
    expect(rows).toEqual({ n: prices.length });
    const listed = await s.api<List>("GET", "/api/products?sort=sku_code&q=Dec&pageSize=50", {
      token: admin,
    });
    expect(listed.body.data.filter((p) => String(p.sku_code).startsWith("DEC-")).map((p) => p.price)).toEqual(
      prices,
    );
  });

  it("answers 409 naming the unique field, whatever the engine", async () => {
    const res = await post("/api/products", {
      sku_code: "SH-001",
      name: "Copy",
      price: 1,
      category_id: shoes.id,
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("A product with this SKU code already exists");
    expect(res.body.details).toEqual([{ field: "sku_code", message: "SKU code is already in use" }]);
    const pair = await post("/api/sub-categories", { name: "Sneakers", category_id: shoes.id });
    expect(pair.status).toBe(409);
    expect(pair.body.details).toEqual([
      { field: "category_id", message: "Category is already in use" },
      { field: "name", message: "Name is already in use" },
    ]);
  });

  it("answers 400 for a missing related record and 409 when deleting one still in use", async () => {
    const res = await post("/api/products", {
      sku_code: "X-1",
      name: "X",
      price: 1,
      category_id: "00000000-0000-4000-8000-000000000000",
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { field: "category_id", message: "The chosen category does not exist" },
    ]);
    const del = await s.api("DELETE", `/api/categories/${shoes.id}`, { token: admin });
    expect(del.status).toBe(409);
    expect(del.body.message).toMatch(/still used by (products|sub-categories)/);
  });

  it("refuses a sub-category of another category", async () => {
    const res = await post("/api/products", {
      sku_code: "BG-1",
      name: "Tote",
      price: 20,
      category_id: bags.id,
      sub_category_id: sneakers.id,
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { field: "sub_category_id", message: "The sub-category does not belong to the chosen category" },
    ]);
    const ok = await post("/api/products", {
      sku_code: "BG-1",
      name: "Tote",
      price: 20,
      category_id: bags.id,
    });
    expect(ok.status).toBe(201);
    const moved = await s.api("PATCH", `/api/products/${ok.body.id}`, {
      token: admin,
      body: { sub_category_id: sneakers.id },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.message).toBe("The sub-category does not belong to the chosen category");

    // Changing only the category of a product with a sub-category is checked too...
    const shoe = await post("/api/products", {
      sku_code: "SH-9",
      name: "Trainer",
      price: 30,
      category_id: shoes.id,
      sub_category_id: sneakers.id,
    });
    expect(shoe.status).toBe(201);
    const recategorised = await s.api("PATCH", `/api/products/${shoe.body.id}`, {
      token: admin,
      body: { category_id: bags.id },
    });
    expect(recategorised.status).toBe(400);
    expect(recategorised.body.details).toEqual([
      { field: "sub_category_id", message: "The sub-category does not belong to the chosen category" },
    ]);
    // ...and so is moving a sub-category that products use to another category.
    const movedSub = await s.api("PATCH", `/api/sub-categories/${sneakers.id}`, {
      token: admin,
      body: { category_id: bags.id },
    });
    expect(movedSub.status).toBe(409);
    expect((await s.api("DELETE", `/api/products/${shoe.body.id}`, { token: admin })).status).toBe(204);
  });

  it("updates partially, clears optional fields with null, and keeps audit fields server-side", async () => {
    const created = await post("/api/products", {
      sku_code: "UP-1",
      name: "Up",
      price: 5,
      category_id: bags.id,
      description: "old",
      status: "active",
      currency: "EUR",
    });
    const res = await s.api<Rec>("PATCH", `/api/products/${created.body.id}`, {
      token: admin,
      body: { price: 7.5, description: null },
    });
    expect(res.status).toBe(200);
    // Schema defaults fill new records only: a partial update keeps the stored status and currency.
    expect(res.body).toMatchObject({
      price: 7.5,
      description: null,
      name: "Up",
      status: "active",
      currency: "EUR",
    });
    expect(new Date(res.body.updated_at as string).getTime()).toBeGreaterThanOrEqual(
      new Date(created.body.updated_at as string).getTime(),
    );
    expect(
      (await s.api("PATCH", `/api/products/${created.body.id}`, { token: admin, body: {} })).status,
    ).toBe(400);
    expect(
      (
        await s.api("PATCH", `/api/products/${created.body.id}`, {
          token: admin,
          body: { updated_at: "2020-01-01T00:00:00Z" },
        })
      ).status,
    ).toBe(400);
    expect(
      (await s.api("GET", "/api/products/00000000-0000-4000-8000-000000000000", { token: admin })).status,
    ).toBe(404);
    expect((await s.api("GET", "/api/products/not-a-uuid", { token: admin })).status).toBe(400);
  });

  describe("lists", () => {
    beforeAll(async () => {
      for (let i = 1; i <= 23; i++) {
        await post("/api/products", {
          sku_code: `L-${String(i).padStart(2, "0")}`,
          name: `List item ${i}`,
          price: i * 10,
          category_id: i % 2 ? shoes.id : bags.id,
          status: i % 3 === 0 ? "active" : "draft",
        });
      }
    });
    const list = (query: string) =>
      s.api<List & { totalExact: boolean }>("GET", `/api/products?${query}`, { token: admin });
    const f = (filters: unknown) => `filters=${encodeURIComponent(JSON.stringify(filters))}`;

    it("pages with an exact total, including the last and an empty page", async () => {
      const all = await list("pageSize=200");
      const n = all.body.total;
      expect(all.body.data).toHaveLength(n);
      expect(all.body.totalExact).toBe(true);
      const last = await list(`pageSize=10&page=${Math.ceil(n / 10)}`);
      expect(last.body.data).toHaveLength(n % 10 || 10);
      expect(last.body.total).toBe(n);
      const empty = await list("pageSize=10&page=99");
      expect(empty.body).toMatchObject({ data: [], total: n });
      expect((await list("pageSize=10")).body.data).toHaveLength(10);
      expect((await list("pageSize=201")).status).toBe(400);
      expect((await list("page=0")).status).toBe(400);
    });

    it("sorts by several fields", async () => {
      const res = await list(
        `sort=-price,name&pageSize=3&${f([{ field: "sku_code", operator: "startswith", value: "L-" }])}`,
      );
      expect(res.body.data.map((p) => p.price)).toEqual([230, 220, 210]);
      const asc = await list(
        `sort=status,sku_code&pageSize=1&${f([{ field: "sku_code", operator: "startswith", value: "L-" }])}`,
      );
      expect(asc.body.data[0].sku_code).toBe("L-03");
    });

    it("filters with the shared operators and nested or/and groups", async () => {
      const between = await list(
        f([
          { field: "price", operator: "between", value: [100, 150] },
          { field: "sku_code", operator: "startswith", value: "L-" },
        ]),
      );
      expect(between.body.total).toBe(6);
      const group = await list(
        f([
          {
            operator: "or",
            value: [
              { field: "status", operator: "eq", value: "active" },
              {
                operator: "and",
                value: [
                  { field: "price", operator: "lt", value: 30 },
                  { field: "sku_code", operator: "startswith", value: "L-" },
                ],
              },
            ],
          },
        ]),
      );
      // 7 active list items, UP-1 (active), and L-01, L-02 under 30.
      expect(group.body.total).toBe(7 + 1 + 2);
      const inList = await list(
        f([
          { field: "category_id", operator: "in", value: [bags.id] },
          { field: "sku_code", operator: "nstartswith", value: "L-" },
        ]),
      );
      expect(inList.body.data.map((p) => p.sku_code).sort()).toEqual(["BG-1", "UP-1"]);
      const nulls = await list(f([{ field: "sub_category_id", operator: "nnull" }]));
      expect(nulls.body.data.map((p) => p.sku_code)).toEqual(["SH-001"]);
      const ids = await list(f([{ field: "id", operator: "in", value: [shoes.id] }]));
      expect(ids.body.total).toBe(0);
    });

    it("searches the searchable fields with q", async () => {
      const res = await list("q=runner");
      expect(res.body.data.map((p) => p.sku_code)).toEqual(["SH-001"]);
      expect((await list("q=%25")).body.total).toBe(0);
    });

    it("refuses unknown fields and keeps injection attempts as plain values", async () => {
      expect((await list("sort=created_by")).status).toBe(400);
      expect((await list("sort=price;drop table products")).status).toBe(400);
      expect(
        (await list(f([{ field: "description; drop table products", operator: "eq", value: 1 }]))).status,
      ).toBe(400);
      expect((await list(f([{ field: "price", operator: "raw", value: 1 }]))).status).toBe(400);
      expect((await list(f([{ field: "price", operator: "eq", value: "1 or 1=1" }]))).status).toBe(400);
      expect((await list(f([{ field: "category_id", operator: "eq", value: "x' or '1'='1" }]))).status).toBe(
        400,
      );
      expect((await list("filters=not-json")).status).toBe(400);
      const text = await list(f([{ field: "name", operator: "eq", value: "x' or '1'='1" }]));
      expect(text.body.total).toBe(0);
      expect((await list("pageSize=1")).body.total).toBeGreaterThan(20);
    });
  });

  it("deletes one and several", async () => {
    const a = await post("/api/products", { sku_code: "D-1", name: "D1", price: 1, category_id: bags.id });
    const b = await post("/api/products", { sku_code: "D-2", name: "D2", price: 1, category_id: bags.id });
    expect((await s.api("DELETE", `/api/products/${a.body.id}`, { token: admin })).status).toBe(204);
    expect((await s.api("DELETE", `/api/products/${a.body.id}`, { token: admin })).status).toBe(404);
    const bulk = await s.api("POST", "/api/products/delete", {
      token: admin,
      body: { ids: [a.body.id, b.body.id] },
    });
    expect(bulk.body).toEqual({ deleted: 1 });
  });

  it("gives master metadata and the picker", async () => {
    const master = await s.api<{
      total: number;
      byStatus: Array<{ status: string; count: number }>;
      byCategory: Array<{ name: string; count: number }>;
    }>("GET", "/api/products/master", { token: admin });
    expect(master.body.byStatus.reduce((n, r) => n + r.count, 0)).toBe(master.body.total);
    expect(master.body.byCategory.map((c) => c.name)).toEqual(["Bags", "Shoes"]);
    const pick = await s.api<List>("GET", "/api/products/all?q=tote", { token: admin });
    expect(pick.body.data).toEqual([
      { id: expect.any(String), sku_code: "BG-1", name: "Tote", price: 20, currency: "INR" },
    ]);
  });

  it("needs the Products module on every catalogue route", async () => {
    await post("/api/users", {
      first_name: "No",
      last_name: "Products",
      email: "nop@example.com",
      password: "Passw0rd-123",
      role: 3,
      modules: [1],
    });
    const { accessToken } = await s.signIn("nop@example.com", "Passw0rd-123");
    for (const path of [
      "/api/products",
      "/api/categories",
      "/api/sub-categories",
      "/api/products/master",
      "/api/products/all",
      "/api/products/export.csv",
    ]) {
      expect((await s.api("GET", path, { token: accessToken })).status, path).toBe(403);
    }
  });
});
