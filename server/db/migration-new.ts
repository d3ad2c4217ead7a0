/**
 * What `npm run migration:new <entity…>` does (scripts/migration-new.ts is its command line):
 * for each entity, the CREATE TABLE when it has no snapshot yet, else the statements from its
 * snapshot to its schema now; all of them in one new migration file with the next number,
 * and the snapshots rewritten to match. Nothing is written when nothing changed.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { ResourceDefinition } from "../../resources/contract";
import { createTableSqlOf } from "../resources/ddl";
import { alterSql, diffTables } from "../resources/table-diff";
import { inCreateOrder, type TableModel } from "../resources/table-model";
import { MIGRATIONS_DIR, migrationFiles } from "./migration-folder";
import { pendingChange, SNAPSHOTS_DIR, writeSnapshot } from "./snapshot";

export interface EntityChange {
  entity: string;
  table: string;
  kind: "create" | "alter";
  /** The SQL for the migration, review notes included. */
  sql: string;
  /** How many steps carry a `-- review:` note. */
  reviews: number;
  model: TableModel;
}

export interface MigrationPlan {
  changes: EntityChange[];
  /** Entities whose table already matches their schema. */
  unchanged: string[];
}

/** The entity asked for is not a resource: the message lists those that are. */
export class UnknownEntityError extends Error {
  constructor(names: readonly string[], resources: readonly ResourceDefinition[]) {
    const known = resources.map((r) => r.name).sort();
    super(
      `Unknown entity ${names.map((n) => `'${n}'`).join(", ")}. Known entities: ${known.join(", ")} ` +
        "(a resource's name, as in resources/*.ts)",
    );
  }
}

/**
 * Creates first, each after the tables it references (among those created here), then changes:
 * a change may add a key to a table created in the same migration.
 */
const ordered = (changes: EntityChange[]) => [
  ...inCreateOrder(changes.filter((c) => c.kind === "create")),
  ...changes.filter((c) => c.kind === "alter"),
];

export function planMigration(
  entities: readonly string[],
  resources: readonly ResourceDefinition[],
  snapshotsDir = SNAPSHOTS_DIR,
): MigrationPlan {
  const unknown = entities.filter((name) => !resources.some((r) => r.name === name));
  if (unknown.length) throw new UnknownEntityError(unknown, resources);
  const changes: EntityChange[] = [];
  const unchanged: string[] = [];
  for (const entity of new Set(entities)) {
    const resource = resources.find((r) => r.name === entity)!;
    const pending = pendingChange(resource, resources, snapshotsDir);
    const { model } = pending;
    if (pending.kind === "none") unchanged.push(entity);
    else if (pending.kind === "create") {
      changes.push({
        entity,
        table: model.table,
        kind: "create",
        sql: createTableSqlOf(model),
        reviews: 0,
        model,
      });
    } else {
      const steps = diffTables(pending.before, model);
      const reviews = steps.filter((s) => s.review).length;
      changes.push({ entity, table: model.table, kind: "alter", sql: alterSql(steps), reviews, model });
    }
  }
  return { changes: ordered(changes), unchanged };
}

/** `0011-brands` after 0010-…: the next free number and the words, in kebab case. */
export function nextMigrationName(files: readonly string[], words: string): string {
  const numbers = files.map((f) => Number.parseInt(f.slice(0, 4), 10)).filter(Number.isFinite);
  const next = String(Math.max(0, ...numbers) + 1).padStart(4, "0");
  const slug = words
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (!slug) throw new Error(`'${words}' gives no file name: use letters or digits`);
  return `${next}-${slug}`;
}

/** Text inside sql`…`: a backslash, a backtick or `${` would otherwise be read by TypeScript. */
const templateText = (s: string) => s.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${");

const indent = (text: string, by: string) =>
  text
    .split("\n")
    .map((line) => (line ? by + line : line))
    .join("\n");

/** Words in lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** The migration file: the wrapper every migration has, around the plan's SQL. */
export function migrationSource(plan: MigrationPlan, command: string): string {
  const list = (kind: EntityChange["kind"]) =>
    plan.changes
      .filter((c) => c.kind === kind)
      .map((c) => c.table)
      .join(", ");
  const summary = [
    list("create") && `Creates ${list("create")}.`,
    list("alter") &&
      `Brings ${list("alter")} up to date with ${plan.changes.length > 1 ? "their" : "its"} schema.`,
  ]
    .filter(Boolean)
    .join(" ");
  const blocks = plan.changes.map(
    (c) => `-- ${c.entity} (${c.kind === "create" ? "new" : "changed"})\n${c.sql}`,
  );
  const header = `${summary} Generated from the schemas and server/db/snapshots/ by`;
  return [
    "/**",
    ...wrap(header, 100).map((line) => ` * ${line}`),
    ` *   ${command}`,
    " * then reviewed.",
    " */",
    'import { type Kysely, sql } from "kysely";',
    "",
    "export async function up(db: Kysely<unknown>): Promise<void> {",
    "  await sql`",
    indent(templateText(blocks.join("\n\n")), "    "),
    "  `.execute(db);",
    "}",
    "",
  ].join("\n");
}

export interface WriteOptions {
  entities: readonly string[];
  resources: readonly ResourceDefinition[];
  /** Words of the file name; default: the entities' names. */
  name?: string;
  /** Print, write nothing. */
  dryRun?: boolean;
  migrationsDir?: string;
  snapshotsDir?: string;
}

export interface WriteResult {
  plan: MigrationPlan;
  /** The migration's name and text; absent when nothing changed. */
  migration?: { name: string; file: string; source: string };
  snapshots: string[];
}

/** Plans, then writes the migration and the snapshots it leaves (unless `dryRun`). */
export async function writeMigration(options: WriteOptions): Promise<WriteResult> {
  const migrationsDir = options.migrationsDir ?? MIGRATIONS_DIR;
  const snapshotsDir = options.snapshotsDir ?? SNAPSHOTS_DIR;
  const plan = planMigration(options.entities, options.resources, snapshotsDir);
  if (!plan.changes.length) return { plan, snapshots: [] };
  const files = await migrationFiles(migrationsDir);
  const name = nextMigrationName(files, options.name ?? plan.changes.map((c) => c.entity).join("-"));
  const entities = plan.changes.map((c) => c.entity).join(" ");
  const command = options.name
    ? `npm run migration:new -- ${entities} --name ${options.name}`
    : `npm run migration:new ${entities}`;
  const source = migrationSource(plan, command);
  const file = path.join(migrationsDir, `${name}.ts`);
  if (options.dryRun) return { plan, migration: { name, file, source }, snapshots: [] };
  writeFileSync(file, source, { flag: "wx" });
  const snapshots = plan.changes.map((c) => writeSnapshot(c.model, name, snapshotsDir));
  return { plan, migration: { name, file, source }, snapshots };
}
