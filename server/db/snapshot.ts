/**
 * Snapshots: each entity's table as its last migration left it (server/db/snapshots/<table>.json,
 * a table model from server/resources/table-model.ts). `npm run migration:new` computes a
 * change against it and rewrites it with the migration; a test checks that none is behind
 * its schema. They live outside migrations/ so the migration folder holds migrations only.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type ResourceDefinition, USERS_RELATION } from "../../resources/contract";
import { diffTables } from "../resources/table-diff";
import { type TableModel, tableModelOf } from "../resources/table-model";

export const SNAPSHOTS_DIR = fileURLToPath(new URL("./snapshots/", import.meta.url));

/** A snapshot file: the table model, and the migration that left the table so. */
export interface Snapshot extends TableModel {
  migration: string;
}

export const snapshotFile = (table: string, dir = SNAPSHOTS_DIR) => path.join(dir, `${table}.json`);

export function readSnapshot(table: string, dir = SNAPSHOTS_DIR): TableModel | undefined {
  const file = snapshotFile(table, dir);
  if (!existsSync(file)) return undefined;
  const { migration: _migration, ...model } = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  return model;
}

export function writeSnapshot(model: TableModel, migration: string, dir = SNAPSHOTS_DIR): string {
  const file = snapshotFile(model.table, dir);
  const snapshot: Snapshot = { migration, ...model };
  writeFileSync(file, snapshotText(snapshot));
  return file;
}

/** JSON with one column, constraint or index a line, so a snapshot's diff in review reads like the change. */
function snapshotText(snapshot: Snapshot): string {
  const entries = Object.entries(snapshot).map(([key, value]) => {
    if (!Array.isArray(value)) return `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`;
    if (!value.length) return `  ${JSON.stringify(key)}: []`;
    const items = value.map((item) => `    ${JSON.stringify(item)}`).join(",\n");
    return `  ${JSON.stringify(key)}: [\n${items}\n  ]`;
  });
  return `{\n${entries.join(",\n")}\n}\n`;
}

/** Resolves relation targets among some resources (a relation to an unknown one is an error). */
export function tableResolver(resources: readonly ResourceDefinition[]): (name: string) => string {
  return (name) => {
    // The platform's users are no resource, but records name them (owners, assignees).
    if (name === USERS_RELATION) return "users";
    const target = resources.find((r) => r.name === name);
    if (!target) throw new Error(`a relation names '${name}', which is not a resource`);
    return target.schema["x-table"];
  };
}

export type PendingChange =
  | { kind: "create"; model: TableModel }
  | { kind: "alter" | "none"; model: TableModel; before: TableModel };

/**
 * What `npm run migration:new <entity>` would do for one resource now: create its table
 * (no snapshot yet), alter it (the schema changed since the snapshot), or nothing.
 */
export function pendingChange(
  resource: ResourceDefinition,
  resources: readonly ResourceDefinition[],
  dir = SNAPSHOTS_DIR,
): PendingChange {
  const model = tableModelOf(resource.schema, tableResolver(resources));
  const before = readSnapshot(model.table, dir);
  if (!before) return { kind: "create", model };
  return { kind: diffTables(before, model).length ? "alter" : "none", model, before };
}
