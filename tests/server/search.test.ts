/**
 * Search everywhere (`GET /api/search`), on both drivers: records of every resource and module
 * the person may see, grouped by resource, ranked (the exact name, then names starting with the
 * text), with the admin app's path; the person's grants applied on the server; a throwaway
 * entity written as its two definitions searched with no other edit; bad input a 400.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResourceDefinition } from "../../resources/contract";
import { RESOURCES } from "../../resources/index";
import { MODULE_IDS } from "../../resources/modules";
import { auditProperties, type EntitySchema } from "../../schemas/contract";
import type { SearchResponse } from "../../schemas/search";
import { tableResolver } from "../../server/db/snapshot";
import { createTableSql } from "../../server/resources/ddl";
import { DRIVERS, signedInMember, startServer, type TestServer } from "./harness";

const gizmoSchema = {
  $id: "gizmo",
  title: "Gizmo",
  type: "object",
  additionalProperties: false,
  "x-table": "test_gizmos",
  "x-label": "title",
  "x-defaultSort": "title",
  "x-list": ["title", "maker"],
  "x-searchable": ["title", "maker"],
  "x-filterable": ["title"],
  required: ["title"],
  properties: {
    ...auditProperties,
    title: { type: "string", title: "Title", minLength: 1, maxLength: 80 },
    maker: { type: "string", title: "Maker", maxLength: 80 },
  },
} as const satisfies EntitySchema;

/** Written as docs/adding-a-resource.md says; registered only in this test. */
const gizmos: ResourceDefinition = {
  name: "gizmos",
  schema: gizmoSchema,
  moduleID: MODULE_IDS.analytics,
  base: "api",
  label: "Gizmos",
  singular: "Gizmo",
  icon: "ToolOutlined",
  parent: "analytics",
};

const tableOf = (name: string) => (name === "gizmos" ? "test_gizmos" : tableResolver(RESOURCES)(name));

describe.each(DRIVERS)("search everywhere on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  const ids: Record<string, string> = {};

  const search = (q: string, token: string, extra = "") =>
    s.api<SearchResponse & { details?: Array<{ field: string; message: string }> }>(
      "GET",
      `/api/search?q=${encodeURIComponent(q)}${extra}`,
      { token },
    );
  const titlesOf = (answer: SearchResponse, resource: string) =>
    answer.groups.find((g) => g.resource === resource)?.hits.map((h) => h.title);

  beforeAll(async () => {
    s = await startServer(
      driver,
      {},
      { resources: [...RESOURCES, gizmos], setupSql: createTableSql(gizmoSchema, tableOf) },
    );
    admin = (await s.signIn()).accessToken;
    const post = async (path: string, body: object) => {
      const made = await s.api<{ id: string }>("POST", path, { token: admin, body });
      if (made.status !== 201) throw new Error(`${path}: ${JSON.stringify(made.body)}`);
      return made.body.id;
    };
    const category = await post("/api/categories", { name: "Lighting" });
    for (const [sku, name] of [
      ["ZL-2", "Zephyr lamp"],
      ["ZL-1", "Zephyr"],
      ["BZ-9", "Big zephyr shade"],
      ["CZ-3", "Czephyrine"],
      ["OFF-50", "50% off_sale"],
    ]) {
      ids[name] = await post("/api/products", { sku_code: sku, name, price: 10, category_id: category });
    }
    ids.client = await post("/crm/clients", {
      name: "Ada Lovelace",
      company: "Zephyr Holdings",
      email: "ada@zephyr.test",
    });
    ids.gizmo = await post("/api/gizmos", { title: "Sprocket", maker: "Zephyr Works" });
    ids.user = await post("/api/users", {
      first_name: "Zephyrine",
      last_name: "Okafor",
      email: "zephyrine@example.com",
      password: "Zephyr-passw0rd-9",
      role: 3,
      modules: [],
    });
    await post("/cms/content-types", {
      kind: "collection",
      apiName: "article",
      name: "Article",
      required: ["title"],
      properties: { title: { "x-kind": "text", title: "Title", maxLength: 80 } },
    });
    ids.entry = await post("/cms/entries/article", { title: "Zephyr season opens" });
    await sql`insert into dam_assets (name, original_name, storage_key, mime, size)
      values ('zephyr-banner.png', 'zephyr-banner.png', 'search-test/zephyr', 'image/png', 10)`.execute(
      s.database.db,
    );
  });
  afterAll(() => s?.close());

  it("finds records of every resource and module, grouped and ranked, with their paths", async () => {
    const res = await search("zephyr", admin);
    expect(res.status).toBe(200);
    expect(res.body.q).toBe("zephyr");
    // The exact name first, then names starting with it, then a word starting with it, then the rest.
    expect(titlesOf(res.body, "products")).toEqual([
      "Zephyr",
      "Zephyr lamp",
      "Big zephyr shade",
      "Czephyrine",
    ]);
    expect(res.body.groups[0].resource).toBe("products");
    const products = res.body.groups.find((g) => g.resource === "products");
    expect(products).toMatchObject({ label: "Products", icon: "ShoppingOutlined", more: false });
    expect(products?.hits[0]).toEqual({
      id: ids.Zephyr,
      title: "Zephyr",
      subtitle: "ZL-1",
      path: `/products/products/show/${ids.Zephyr}`,
    });
    const client = res.body.groups.find((g) => g.resource === "clients")?.hits[0];
    expect(client).toEqual({
      id: ids.client,
      title: "Ada Lovelace",
      subtitle: "Zephyr Holdings · ada@zephyr.test",
      path: `/crm/clients/show/${ids.client}`,
    });
    expect(res.body.groups.find((g) => g.resource === "users")?.hits[0]).toMatchObject({
      title: "Zephyrine Okafor",
      subtitle: "zephyrine@example.com",
      path: `/users/show/${ids.user}`,
    });
    expect(res.body.groups.find((g) => g.resource === "dam-assets")?.hits[0]).toMatchObject({
      title: "zephyr-banner.png",
      path: "/dam?q=zephyr-banner.png",
    });
    expect(res.body.groups.find((g) => g.resource === "cms-entries")?.hits).toEqual([
      {
        id: ids.entry,
        title: "Zephyr season opens",
        subtitle: "Article",
        path: `/cms/entries/article/show/${ids.entry}`,
      },
    ]);
    // A limit per group, and `more` when it is filled.
    const two = await search("zephyr", admin, "&limit=2");
    expect(titlesOf(two.body, "products")).toEqual(["Zephyr", "Zephyr lamp"]);
    expect(two.body.groups.find((g) => g.resource === "products")?.more).toBe(true);
  });

  it("finds names starting with a text too short for trigrams (one or two characters)", async () => {
    expect(titlesOf((await search("ze", admin)).body, "products")).toEqual(["Zephyr", "Zephyr lamp"]);
    expect(titlesOf((await search("Z", admin)).body, "products")).toEqual(["Zephyr", "Zephyr lamp"]);
  });

  it("searches an entity written as its two definitions, with no other edit", async () => {
    const res = await search("zephyr works", admin);
    expect(res.body.groups).toEqual([
      {
        resource: "gizmos",
        label: "Gizmos",
        icon: "ToolOutlined",
        more: false,
        hits: [
          {
            id: ids.gizmo,
            title: "Sprocket",
            subtitle: "Zephyr Works",
            path: `/analytics/gizmos/show/${ids.gizmo}`,
          },
        ],
      },
    ]);
  });

  it("applies the person's grants on the server", async () => {
    const crm = await signedInMember(s, admin, [MODULE_IDS.crm]);
    const crmOnly = await search("zephyr", crm.token);
    expect(crmOnly.body.groups.map((g) => g.resource)).toEqual(["clients"]);
    const none = await signedInMember(s, admin, []);
    expect((await search("zephyr", none.token)).body.groups).toEqual([]);
    // Users are for administrators with the Users module: a member with the module sees none.
    const member = await signedInMember(s, admin, [MODULE_IDS.users, MODULE_IDS.products]);
    expect((await search("zephyr", member.token)).body.groups.map((g) => g.resource)).toEqual(["products"]);
    expect((await s.api("GET", "/api/search?q=zephyr")).status).toBe(401);
  });

  it("takes LIKE's special characters literally", async () => {
    expect(titlesOf((await search("50%", admin)).body, "products")).toEqual(["50% off_sale"]);
    expect(titlesOf((await search("f_s", admin)).body, "products")).toEqual(["50% off_sale"]);
    expect((await search("0_o", admin)).body.groups).toEqual([]);
    const odd = await search(`\\'"();--<b>ü漢`, admin);
    expect(odd.status).toBe(200);
    expect(odd.body.groups).toEqual([]);
  });

  it("answers bad input with a 400 naming the field", async () => {
    const refused = async (query: string) => {
      const res = await s.api<{ details: Array<{ field: string; message: string }> }>(
        "GET",
        `/api/search${query}`,
        { token: admin },
      );
      expect(res.status, query).toBe(400);
      return res.body.details;
    };
    expect(await refused("")).toEqual([{ field: "q", message: expect.stringMatching(/required/) }]);
    expect(await refused("?q=")).toEqual([{ field: "q", message: expect.stringMatching(/^Search text/) }]);
    expect(await refused("?q=%20%20")).toEqual([{ field: "q", message: "Search text must not be blank" }]);
    expect(await refused(`?q=${"a".repeat(101)}`)).toEqual([
      { field: "q", message: expect.stringMatching(/^Search text .*100/) },
    ]);
    expect((await refused("?q=a%00b"))[0].field).toMatch(/q/);
    expect((await refused("?q=%FF"))[0]).toBeDefined();
    expect((await refused("?q=ab&limit=0"))[0].field).toBe("limit");
    expect((await refused("?q=ab&limit=many"))[0].field).toBe("limit");
    expect((await refused("?q=ab&colour=red"))[0]).toBeDefined();
  });
});
