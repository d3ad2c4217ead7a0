/**
 * `npm run migration:new` end to end on a real database, on each driver: the generated create
 * of a new entity runs, then the generated alter of its changed schema runs over a table with
 * a row in it, and the table is then exactly the one the changed schema makes.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ResourceDefinition } from "../../resources/contract";
import { RESOURCES } from "../../resources/index";
import { auditProperties, type EntitySchema, type FieldSchema } from "../../schemas/contract";
import { type DatabaseHandle, openDatabase } from "../../server/db";
import { writeMigration } from "../../server/db/migration-new";
import { tableResolver } from "../../server/db/snapshot";
import { createTableSqlOf } from "../../server/resources/ddl";
import { tableModelOf } from "../../server/resources/table-model";
import { DRIVERS } from "./harness";
import { createTestDatabase } from "./pg";
import { expectedShapes, tableShape } from "./table-shape";

const categoryResource = RESOURCES.find((r) => r.schema["x-table"] === "categories");

function widgets(fields: Record<string, FieldSchema>, extra: Partial<EntitySchema> = {}): ResourceDefinition {
  const schema: EntitySchema = {
    $id: "widget",
    title: "Widget",
    type: "object",
    additionalProperties: false,
    "x-table": "test_widgets",
    "x-label": "title",
    "x-defaultSort": "title",
    "x-list": ["title"],
    "x-searchable": ["title"],
    "x-filterable": ["title", "size"],
    required: ["title", "category_id"],
    ...extra,
    properties: { ...auditProperties, ...fields },
  };
  return {
    name: "widgets",
    schema,
    moduleID: 1,
    base: "api",
    label: "Widgets",
    singular: "Widget",
    icon: "ToolOutlined",
  };
}

const category = (onDelete?: "cascade"): FieldSchema => ({
  type: "string",
  format: "uuid",
  "x-relation": {
    resource: categoryResource?.name ?? "",
    labelField: "name",
    ...(onDelete ? { onDelete } : {}),
  },
});

const before = widgets({
  title: { type: "string", minLength: 1, maxLength: 50 },
  size: { type: "integer", minimum: 0, maximum: 100 },
  rank: { type: "integer", minimum: 0 },
  colour: { type: "string", enum: ["red", "blue"], default: "red" },
  note: { type: "string" },
  legacy: { type: "string" },
  category_id: category(),
});

// Every kind of change at once: a new column with a default, a dropped column, a stricter
// check, a changed default, a new unique, a key that now cascades, a type change, a field
// that becomes required and one that becomes nullable.
const after = widgets(
  {
    title: { type: "string", minLength: 1, maxLength: 80 },
    size: { type: ["integer", "null"], minimum: 0, maximum: 10 },
    rank: { type: "number", minimum: 0 },
    colour: { type: "string", enum: ["red", "blue", "green"], default: "blue" },
    note: { type: "string", maxLength: 200 },
    weight: { type: "number", default: 1 },
    category_id: category("cascade"),
  },
  { required: ["title", "category_id", "note", "size"], "x-unique": [["title"]], "x-filterable": ["title"] },
);

describe.each(DRIVERS)("a generated create, then a generated alter, on %s", (driver) => {
  let handle: DatabaseHandle;
  let drop: (() => Promise<void>) | undefined;
  let dir: string;
  const db = () => handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;

  beforeAll(async () => {
    let url: string | null = null;
    if (driver === "postgres") {
      const created = await createTestDatabase(inject("pgUrl") ?? "");
      url = created.url;
      drop = created.drop;
    }
    handle = await openDatabase({ databaseUrl: url, pgliteDir: "memory://" });
    dir = mkdtempSync(path.join(os.tmpdir(), "atelier-migration-apply-"));
    mkdirSync(path.join(dir, "migrations"));
    mkdirSync(path.join(dir, "snapshots"));
  });
  afterAll(async () => {
    await handle?.close();
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  const generate = (resource: ResourceDefinition) =>
    writeMigration({
      entities: ["widgets"],
      resources: [...RESOURCES, resource],
      migrationsDir: path.join(dir, "migrations"),
      snapshotsDir: path.join(dir, "snapshots"),
    });

  it("leaves the table the changed schema makes, and keeps its rows", async () => {
    const created = await generate(before);
    expect(created.plan.changes.map((c) => c.kind)).toEqual(["create"]);
    await sql.raw(created.plan.changes[0].sql).execute(handle.db);

    const shoes = await db()
      .insertInto("categories")
      .values({ name: `Shoes ${driver}` })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db()
      .insertInto("test_widgets")
      .values({ title: "Sprocket", size: 5, rank: 3, note: "kept", legacy: "gone", category_id: shoes.id })
      .execute();

    const altered = await generate(after);
    const [change] = altered.plan.changes;
    expect(change.kind).toBe("alter");
    expect(change.sql).toMatch(/-- review: drops legacy/);
    expect(change.sql).toMatch(/-- review: rank changes type from integer to double precision/);
    await sql.raw(change.sql).execute(handle.db);

    const table = "test_widgets";
    const wanted = await expectedShapes(
      handle.db as Kysely<unknown>,
      [createTableSqlOf(tableModelOf(after.schema, tableResolver([...RESOURCES, after])))],
      [table],
    );
    const actual = await tableShape(handle.db, table);
    expect(actual).toEqual(wanted.get(table));
    expect(actual.constraints).toContain(
      "test_widgets_category_id_fkey: FOREIGN KEY (category_id) REFERENCES categories(id) ON DELETE CASCADE",
    );

    const row = await db().selectFrom(table).selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      title: "Sprocket",
      size: 5,
      rank: 3,
      colour: "red",
      note: "kept",
      weight: 1,
    });
    expect(row).not.toHaveProperty("legacy");
    // The new rules hold in the database itself, and the key now cascades.
    await expect(
      db().insertInto(table).values({ title: "Big", size: 11, note: "n", category_id: shoes.id }).execute(),
    ).rejects.toMatchObject({ code: "23514", constraint: "test_widgets_size_check" });
    await db().deleteFrom("categories").where("id", "=", shoes.id).execute();
    expect(await db().selectFrom(table).selectAll().execute()).toEqual([]);

    const again = await generate(after);
    expect(again.migration).toBeUndefined();
  });
});
