/**
 * Loops over every resource, so a new entity is checked with no new test file: its migrated
 * table is exactly the one its schema makes today (no drift: columns, checks, uniques, foreign
 * keys with their on delete, indexes), and a throwaway entity registered only in this test gets
 * a working API from its two definitions alone.
 */
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResourceDefinition } from "../../resources/contract";
import { RESOURCES } from "../../resources/index";
import { auditProperties, type EntitySchema } from "../../schemas/contract";
import { tableResolver } from "../../server/db/snapshot";
import { StatementCache } from "../../server/db/statements";
import { badRequest } from "../../server/http/errors";
import { listPage } from "../../server/http/list-query";
import { createTableSql, createTableSqlOf } from "../../server/resources/ddl";
import { listOptionsOf } from "../../server/resources/list-options";
import type { ResourceRules } from "../../server/resources/rules";
import { inCreateOrder, tableModelOf } from "../../server/resources/table-model";
import { DRIVERS, startServer, type TestServer } from "./harness";
import { expectedShapes, type TableShape, tableShape, tablesOf } from "./table-shape";

const tableOf = (name: string) =>
  name === "gadgets" ? gadgets.schema["x-table"] : tableResolver(RESOURCES)(name);

describe.each(DRIVERS)("schemas and tables on %s", (driver) => {
  let s: TestServer;
  let expected: Map<string, TableShape>;
  beforeAll(async () => {
    s = await startServer(driver);
    // The tables as the generator would create them today, beside the migrated ones.
    const models = inCreateOrder(RESOURCES.map((r) => ({ model: tableModelOf(r.schema, tableOf) })));
    expected = await expectedShapes(
      s.database.db as Kysely<unknown>,
      models.map((m) => createTableSqlOf(m.model)),
      tablesOf(models.map((m) => m.model)),
    );
  });
  afterAll(() => s?.close());

  it.each(RESOURCES.map((r) => [r.name, r] as const))(
    "%s: the migrated table is the one its schema makes (columns, checks, uniques, keys with on delete, indexes)",
    async (_name, r) => {
      const table = r.schema["x-table"];
      const actual = await tableShape(s.database.db, table);
      const wanted = expected.get(table);
      expect(actual.columns).toEqual(wanted?.columns);
      expect(actual.constraints).toEqual(wanted?.constraints);
      expect(actual.indexes).toEqual(wanted?.indexes);
      // Not two empty lists agreeing: every rule of the schema is there, under its name.
      const model = tableModelOf(r.schema, tableOf);
      const definition = (name: string) => actual.constraints.find((c) => c.startsWith(`${name}: `));
      for (const c of [...model.checks, ...model.uniques]) expect(definition(c.name), c.name).toBeDefined();
      for (const k of model.foreignKeys) {
        expect(definition(k.name), k.name).toContain(`ON DELETE ${k.onDelete.toUpperCase()}`);
      }
    },
  );
});

const gadgetSchema = {
  $id: "gadget",
  title: "Gadget",
  type: "object",
  additionalProperties: false,
  "x-table": "test_gadgets",
  "x-label": "title",
  "x-defaultSort": "title",
  "x-list": ["title", "weight", "in_stock"],
  "x-searchable": ["title"],
  "x-filterable": ["title", "weight", "in_stock", "kind"],
  "x-unique": [["title"]],
  required: ["title"],
  properties: {
    ...auditProperties,
    title: { type: "string", title: "Title", minLength: 2, maxLength: 50 },
    weight: { type: "integer", title: "Weight", minimum: 0 },
    in_stock: { type: "boolean", title: "In stock", default: true },
    kind: { type: "string", title: "Kind", enum: ["a", "b"] },
  },
} as const satisfies EntitySchema;

/** Writes the rules ran for (afterWrite), by gadget title. */
const ruled: string[] = [];

/**
 * A rule the schema cannot say: gadgets of kind b weigh at least 10. It leaves alone a write of
 * neither field, and a new weight of a gadget stored as not of kind b.
 */
const heavyKindB: ResourceRules = {
  quiet(mode, fields) {
    if (fields.includes("kind")) return false;
    if (!fields.includes("weight")) return true;
    return mode === "update" && sql<boolean>`test_gadgets.kind is distinct from 'b'`;
  },
  async afterWrite({ row }) {
    ruled.push(String(row.title));
  },
  async beforeWrite({ existing, values }) {
    const kind = "kind" in values ? values.kind : existing?.kind;
    const weight = ("weight" in values ? values.weight : existing?.weight) as number | null | undefined;
    if (kind === "b" && (weight ?? 0) < 10) {
      throw badRequest("A gadget of kind b is heavy", [
        { field: "weight", message: "Weight must be at least 10 for kind b" },
      ]);
    }
  },
};

const gadgets: ResourceDefinition = {
  name: "gadgets",
  schema: gadgetSchema,
  moduleID: 9,
  base: "api",
  label: "Gadgets",
  singular: "Gadget",
  icon: "ToolOutlined",
};

describe("a throwaway entity, registered only here", () => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startServer(
      "pglite",
      {},
      {
        resources: [...RESOURCES, gadgets],
        setupSql: createTableSql(gadgetSchema, tableOf),
        rules: { gadgets: heavyKindB },
      },
    );
    admin = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  it("gets list, create, get, update, delete, validation and uniqueness from its definitions", async () => {
    const created = await s.api<{ id: string }>("POST", "/api/gadgets", {
      token: admin,
      body: { title: "Sprocket", weight: 3 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: "Sprocket", weight: 3, in_stock: true, kind: null });
    expect((await s.api("POST", "/api/gadgets", { token: admin, body: { title: "Sprocket" } })).status).toBe(
      409,
    );
    const bad = await s.api("POST", "/api/gadgets", {
      token: admin,
      body: { title: "x", weight: -1, kind: "z" },
    });
    expect(bad.status).toBe(400);
    expect((bad.body.details as Array<{ field: string }>).map((d) => d.field).sort()).toEqual([
      "kind",
      "title",
      "weight",
    ]);
    const filters = encodeURIComponent(JSON.stringify([{ field: "weight", operator: "gte", value: 3 }]));
    const list = await s.api<{ data: unknown[]; total: number }>(
      "GET",
      `/api/gadgets?filters=${filters}&q=sprock`,
      { token: admin },
    );
    expect(list.body.total).toBe(1);
    const patched = await s.api("PATCH", `/api/gadgets/${created.body.id}`, {
      token: admin,
      body: { in_stock: false },
    });
    expect(patched.body).toMatchObject({ in_stock: false, weight: 3 });
    expect((await s.api("DELETE", `/api/gadgets/${created.body.id}`, { token: admin })).status).toBe(204);
  });

  it("runs its business rule on create and update, against the stored values", async () => {
    const light = await s.api("POST", "/api/gadgets", {
      token: admin,
      body: { title: "Feather", kind: "b" },
    });
    expect(light.status).toBe(400);
    expect(light.body.details).toEqual([
      { field: "weight", message: "Weight must be at least 10 for kind b" },
    ]);
    const heavy = await s.api<{ id: string }>("POST", "/api/gadgets", {
      token: admin,
      body: { title: "Anvil", kind: "b", weight: 12 },
    });
    expect(heavy.status).toBe(201);
    const lighter = await s.api("PATCH", `/api/gadgets/${heavy.body.id}`, {
      token: admin,
      body: { weight: 2 },
    });
    expect(lighter.status).toBe(400);
    const stored = await s.api("GET", `/api/gadgets/${heavy.body.id}`, { token: admin });
    expect(stored.body).toMatchObject({ weight: 12 });
    const retyped = await s.api("PATCH", `/api/gadgets/${heavy.body.id}`, {
      token: admin,
      body: { weight: 2, kind: "a" },
    });
    expect(retyped.status).toBe(200);
  });

  it("skips its rules for the writes they leave alone (quiet), and runs them when its guard stops one", async () => {
    const patch = (id: string, body: object) =>
      s.api<{ weight: number }>("PATCH", `/api/gadgets/${id}`, { token: admin, body });
    ruled.length = 0;
    const plain = await s.api<{ id: string }>("POST", "/api/gadgets", {
      token: admin,
      body: { title: "Plain" },
    });
    const bee = await s.api<{ id: string }>("POST", "/api/gadgets", {
      token: admin,
      body: { title: "Bee", kind: "b", weight: 20 },
    });
    expect(ruled).toEqual(["Bee"]);
    // Neither field, or a weight of a gadget not of kind b: one statement, no rule.
    expect((await patch(plain.body.id, { in_stock: false })).status).toBe(200);
    expect((await patch(plain.body.id, { weight: 1 })).body.weight).toBe(1);
    expect((await patch(bee.body.id, { in_stock: false })).status).toBe(200);
    expect(ruled).toEqual(["Bee"]);
    // The guard stops a new weight of kind b: the rules run, and refuse or allow it.
    expect((await patch(bee.body.id, { weight: 3 })).status).toBe(400);
    expect((await patch(bee.body.id, { weight: 30 })).body.weight).toBe(30);
    expect(ruled).toEqual(["Bee", "Bee"]);
    // Stopped because there is no such gadget: still a 404.
    const missing = await patch("00000000-0000-4000-8000-000000000000", { weight: 1 });
    expect(missing.status).toBe(404);
  });

  it("keeps a list's statement per shape, each request binding its own values", async () => {
    const db = s.database.db as unknown as Kysely<unknown>;
    const statements = new StatementCache();
    const options = listOptionsOf(gadgetSchema);
    const base = (db as Kysely<Record<string, object>>).selectFrom("test_gadgets as t").selectAll("t");
    for (const [title, weight] of [
      ["Kept one", 101],
      ["Kept two", 102],
      ["Kept three", 103],
    ] as const)
      await s.api("POST", "/api/gadgets", { token: admin, body: { title, weight } });
    const list = (weight: number, extra: object[] = []) =>
      listPage(
        db,
        base,
        {
          filters: JSON.stringify([{ field: "weight", operator: "gte", value: weight }, ...extra]),
          q: "kept",
          sort: "-weight",
          pageSize: 2,
        },
        options,
        statements,
      );
    const first = await list(101);
    expect([first.total, first.rows.map((r) => (r as { title: string }).title)]).toEqual([
      3,
      ["Kept three", "Kept two"],
    ]);
    const second = await list(103);
    expect([second.total, second.rows.map((r) => (r as { title: string }).title)]).toEqual([
      1,
      ["Kept three"],
    ]);
    expect(statements.size).toBe(1);
    // Another shape (one more filter) is a statement of its own.
    const third = await list(101, [{ field: "in_stock", operator: "eq", value: true }]);
    expect(third.total).toBe(3);
    expect(statements.size).toBe(2);
  });

  it("is gated by its module and listed in the OpenAPI document", async () => {
    expect(
      s.routes
        .filter((r) => r.url.startsWith("/api/gadgets"))
        .every((r) => (r.access as { moduleID?: number }).moduleID === 9),
    ).toBe(true);
    const doc = await s.api<{ paths: Record<string, unknown> }>("GET", "/api/docs/json");
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(["/api/gadgets", "/api/gadgets/{id}", "/api/gadgets/delete"]),
    );
  });
});
