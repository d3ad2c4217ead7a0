/**
 * The statements that turn one table model into another: what `npm run migration:new` writes
 * when an entity's schema changed since its last migration (the snapshot). Constraints and
 * indexes are matched by name; one whose definition changed is dropped and added again.
 * A renamed field reads as a dropped and an added column: the review notes say so.
 */
import { checkSql, columnSql, foreignKeySql, indexSql, uniqueSql } from "./ddl";
import type { ColumnModel, TableModel } from "./table-model";

export interface AlterStep {
  /** One statement (or a comment line when nothing is to be run). */
  sql: string;
  /** Why a person must look at this step before it runs (written as `-- review:`). */
  review?: string;
}

/** JSON with sorted keys: two entries are the same when their definitions are. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

interface Named {
  name: string;
}

/** Entries of `before` that are gone or changed, and of `after` that are new or changed. */
function changed<T extends Named>(before: readonly T[], after: readonly T[]): { dropped: T[]; added: T[] } {
  const old = new Map(before.map((e) => [e.name, e]));
  const now = new Map(after.map((e) => [e.name, e]));
  return {
    dropped: before.filter((e) => !now.has(e.name) || !same(e, now.get(e.name))),
    added: after.filter((e) => !old.has(e.name) || !same(e, old.get(e.name))),
  };
}

function columnChanges(table: string, was: ColumnModel, now: ColumnModel): AlterStep[] {
  const alter = (what: string) => `alter table ${table} alter column ${now.name} ${what};`;
  const steps: AlterStep[] = [];
  const typeChanged = was.type !== now.type;
  const defaultChanged = was.default !== now.default;
  // The old default may not convert to the new type: it goes first, the new one comes after.
  const dropFirst =
    was.default !== undefined && (typeChanged || (defaultChanged && now.default === undefined));
  if (dropFirst) steps.push({ sql: alter("drop default") });
  if (typeChanged) {
    steps.push({
      sql: alter(`type ${now.type} using ${now.name}::${now.type}`),
      review: `${now.name} changes type from ${was.type} to ${now.type}: a value that does not convert stops the migration; check the using clause`,
    });
  }
  if (now.default !== undefined && (defaultChanged || dropFirst)) {
    steps.push({ sql: alter(`set default ${now.default}`) });
  }
  if (was.notNull && !now.notNull) steps.push({ sql: alter("drop not null") });
  if (!was.notNull && now.notNull) {
    steps.push({
      sql: alter("set not null"),
      review: `${now.name} becomes required: a row holding null stops the migration; fill them first (update ${table} set ${now.name} = … where ${now.name} is null)`,
    });
  }
  return steps;
}

/**
 * Statements from `before` (the snapshot) to `after` (the schema now), in an order that
 * works: what goes away first (keys, checks, uniques, indexes, then columns), then new and
 * changed columns, then what comes (checks, uniques, indexes, keys).
 */
export function diffTables(before: TableModel, after: TableModel): AlterStep[] {
  const table = after.table;
  const alter = (what: string) => `alter table ${table} ${what};`;
  const steps: AlterStep[] = [];

  const keys = changed(before.foreignKeys, after.foreignKeys);
  const checks = changed(before.checks, after.checks);
  const uniques = changed(before.uniques, after.uniques);
  const indexes = changed(before.indexes, after.indexes);

  for (const k of keys.dropped) steps.push({ sql: alter(`drop constraint ${k.name}`) });
  for (const c of checks.dropped) steps.push({ sql: alter(`drop constraint ${c.name}`) });
  for (const u of uniques.dropped) steps.push({ sql: alter(`drop constraint ${u.name}`) });
  for (const i of indexes.dropped) {
    if (i.table === table) steps.push({ sql: `drop index ${i.name};` });
    // Created with `if not exists`: another entity's key may rely on it.
    else steps.push({ sql: `-- ${i.name} on ${i.table} is kept: another key may use it` });
  }

  const nowColumns = new Map(after.columns.map((c) => [c.name, c]));
  const wasColumns = new Map(before.columns.map((c) => [c.name, c]));
  for (const c of before.columns) {
    if (nowColumns.has(c.name)) continue;
    steps.push({
      sql: alter(`drop column ${c.name}`),
      review: `drops ${c.name} and every value in it (a renamed field? then rename the column instead: alter table ${table} rename column ${c.name} to …)`,
    });
  }
  for (const c of after.columns) {
    const was = wasColumns.get(c.name);
    if (!was) {
      steps.push({
        sql: alter(`add column ${columnSql(c)}`),
        review:
          c.notNull && c.default === undefined
            ? `${c.name} is required and has no default: this fails on a table with rows; add it nullable, fill it, then set not null`
            : undefined,
      });
    } else steps.push(...columnChanges(table, was, c));
  }

  let noted = false;
  const note = () => {
    if (noted) return undefined;
    noted = true;
    return "existing rows must satisfy the new constraints, or the migration stops (and changes nothing)";
  };
  for (const c of checks.added) steps.push({ sql: alter(`add ${checkSql(c)}`), review: note() });
  for (const u of uniques.added) steps.push({ sql: alter(`add ${uniqueSql(u)}`), review: note() });
  // Target indexes before the keys that reference them.
  for (const i of indexes.added) steps.push({ sql: indexSql(i, table) });
  for (const k of keys.added) steps.push({ sql: alter(`add ${foreignKeySql(k)}`), review: note() });
  return steps.map((s) => (s.review === undefined ? { sql: s.sql } : s));
}

/** The steps as SQL for a migration, each review note on the line before its statement. */
export function alterSql(steps: readonly AlterStep[]): string {
  return steps.flatMap((s) => (s.review ? [`-- review: ${s.review}`, s.sql] : [s.sql])).join("\n");
}
