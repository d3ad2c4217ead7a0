/**
 * Every entity's migrations are up to date with its schema: its snapshot (the table as the
 * last migration left it) equals the table its schema asks for, so `npm run migration:new`
 * would write nothing. A schema changed without its migration fails here, saying what to run.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../resources/index";
import { pendingChange, SNAPSHOTS_DIR } from "../../server/db/snapshot";
import { alterSql, diffTables } from "../../server/resources/table-diff";

describe.each(RESOURCES.map((r) => [r.name, r] as const))("%s", (name, r) => {
  it("has the migration of its schema (its snapshot matches)", () => {
    const pending = pendingChange(r, RESOURCES);
    const message =
      pending.kind === "create"
        ? `${name} has no migration yet (no server/db/snapshots/${pending.model.table}.json)`
        : `${name}'s schema changed since its last migration:\n${
            pending.kind === "alter" ? alterSql(diffTables(pending.before, pending.model)) : ""
          }\n`;
    expect(
      pending.kind,
      `${message}\nRun \`npm run migration:new ${name}\` and review the file it writes.`,
    ).toBe("none");
  });
});

it("keeps a snapshot only for a table some resource has", () => {
  const tables = RESOURCES.map((r) => r.schema["x-table"]);
  const snapshots = readdirSync(SNAPSHOTS_DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.replace(/\.json$/, ""));
  // A removed entity: its table is dropped by a migration written by hand, and its snapshot goes with it.
  expect(snapshots.filter((t) => !tables.includes(t))).toEqual([]);
});
