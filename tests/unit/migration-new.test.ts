/**
 * `npm run migration:new` (server/db/migration-new.ts) and the migrations folder it writes
 * into (server/db/migration-folder.ts), on temporary folders.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ResourceDefinition } from "../../resources/contract";
import { auditProperties, type EntitySchema } from "../../schemas/contract";
import { MIGRATIONS_DIR, migrationFiles } from "../../server/db/migration-folder";
import { nextMigrationName, planMigration, writeMigration } from "../../server/db/migration-new";
import { readSnapshot } from "../../server/db/snapshot";

const schema = (table: string, extra: Partial<EntitySchema["properties"]> = {}): EntitySchema => ({
  $id: table,
  title: table,
  type: "object",
  additionalProperties: false,
  "x-table": table,
  "x-label": "name",
  "x-defaultSort": "name",
  "x-list": ["name"],
  "x-searchable": ["name"],
  "x-filterable": ["name"],
  required: ["name"],
  properties: { ...auditProperties, name: { type: "string", maxLength: 80 }, ...extra },
});

const resource = (name: string, s: EntitySchema): ResourceDefinition => ({
  name,
  schema: s,
  moduleID: 1,
  base: "api",
  label: name,
  singular: name,
  icon: "TagsOutlined",
});

const shelves = resource("shelves", schema("shelves"));
const bins = resource(
  "bins",
  schema("bins", {
    shelf_id: { type: "string", format: "uuid", "x-relation": { resource: "shelves", labelField: "name" } },
  }),
);

let migrationsDir: string;
let snapshotsDir: string;
beforeEach(() => {
  const root = mkdtempSync(path.join(os.tmpdir(), "atelier-migration-new-"));
  migrationsDir = path.join(root, "migrations");
  snapshotsDir = path.join(root, "snapshots");
  mkdirSync(migrationsDir);
  mkdirSync(snapshotsDir);
  writeFileSync(path.join(migrationsDir, "0001-platform.ts"), "export async function up() {}\n");
  writeFileSync(path.join(migrationsDir, "0002-catalogue.ts"), "export async function up() {}\n");
});
afterEach(() => rmSync(path.dirname(migrationsDir), { recursive: true, force: true }));

const write = (entities: string[], resources: ResourceDefinition[], name?: string) =>
  writeMigration({ entities, resources, name, migrationsDir, snapshotsDir });

describe("npm run migration:new", () => {
  it("writes a new entity's CREATE TABLE as the next migration, tables it references first", async () => {
    const result = await write(["bins", "shelves"], [shelves, bins]);
    expect(result.migration?.name).toBe("0003-shelves-bins");
    const text = readFileSync(path.join(migrationsDir, "0003-shelves-bins.ts"), "utf8");
    expect(text).toMatch(/^\/\*\*\n \* Creates shelves, bins\./);
    expect(text).toContain('import { type Kysely, sql } from "kysely";');
    expect(text).toContain("export async function up(db: Kysely<unknown>): Promise<void> {");
    expect(text.indexOf("create table shelves")).toBeLessThan(text.indexOf("create table bins"));
    expect(text).toContain(
      "constraint bins_shelf_id_fkey foreign key (shelf_id) references shelves (id) on delete restrict",
    );
    expect(readSnapshot("bins", snapshotsDir)?.foreignKeys.map((k) => k.name)).toContain(
      "bins_shelf_id_fkey",
    );
  });

  it("writes nothing when the schema matches its snapshot", async () => {
    await write(["shelves"], [shelves]);
    const again = await write(["shelves"], [shelves]);
    expect(again.migration).toBeUndefined();
    expect(again.plan.unchanged).toEqual(["shelves"]);
    expect(readdirSync(migrationsDir)).toEqual(["0001-platform.ts", "0002-catalogue.ts", "0003-shelves.ts"]);
  });

  it("writes the alter statements of a changed schema, and moves the snapshot on", async () => {
    await write(["shelves"], [shelves]);
    const changed = resource("shelves", schema("shelves", { aisle: { type: "integer", minimum: 1 } }));
    const result = await write(["shelves"], [changed], "shelf aisles");
    expect(result.migration?.name).toBe("0004-shelf-aisles");
    expect(result.migration?.source).toContain("-- shelves (changed)");
    expect(result.migration?.source).toContain("    alter table shelves add column aisle integer;");
    expect(result.migration?.source).toContain("npm run migration:new -- shelves --name shelf aisles");
    expect(readSnapshot("shelves", snapshotsDir)?.columns.map((c) => c.name)).toContain("aisle");
    expect(planMigration(["shelves"], [changed], snapshotsDir).changes).toEqual([]);
  });

  it("names the known entities when asked for an unknown one", () => {
    expect(() => planMigration(["shelf"], [shelves, bins], snapshotsDir)).toThrow(
      "Unknown entity 'shelf'. Known entities: bins, shelves",
    );
  });

  it("escapes what TypeScript would read inside the sql template", async () => {
    const placeholder = ["$", "{x}"].join(""); // a template placeholder, spelled so no linter reads it as one
    const odd = resource(
      "odds",
      schema("odds", { mark: { type: "string", enum: ["`", placeholder, "\\"] } }),
    );
    const result = await write(["odds"], [odd]);
    const source = result.migration?.source ?? "";
    const template = source.slice(source.indexOf("sql`") + 4, source.lastIndexOf("`.execute"));
    // What the template literal evaluates to is the SQL that runs.
    const run = new Function(`return \`${template}\`;`)() as string;
    expect(run).toContain(`mark in ('\`', '${placeholder}', '\\')`);
  });

  it("numbers after the highest migration", () => {
    expect(nextMigrationName(["0001-a.ts", "0009-b.ts"], "Brands")).toBe("0010-brands");
    expect(nextMigrationName([], "x")).toBe("0001-x");
  });
});

describe("the migrations folder", () => {
  it("holds the migrations under the names databases already recorded", async () => {
    const names = (await migrationFiles(MIGRATIONS_DIR)).map((f) => f.replace(/\.ts$/, ""));
    expect(names.slice(0, 10)).toEqual([
      "0001-platform",
      "0002-catalogue",
      "0003-catalogue-scoped-sub-category",
      "0004-dam",
      "0005-jobs",
      "0006-pdf-library",
      "0007-security-events",
      "0008-idempotency-keys",
      "0009-session-lifetime",
      "0010-schema-constraints",
    ]);
  });

  it("refuses a file that is not a migration, and two migrations with one number", async () => {
    writeFileSync(path.join(migrationsDir, "0003_brands.ts"), "");
    await expect(migrationFiles(migrationsDir)).rejects.toThrow(/0003_brands.ts is not a migration/);
    rmSync(path.join(migrationsDir, "0003_brands.ts"));
    writeFileSync(path.join(migrationsDir, "0002-brands.ts"), "");
    await expect(migrationFiles(migrationsDir)).rejects.toThrow(
      "0002-brands.ts and 0002-catalogue.ts have the same number",
    );
  });
});
