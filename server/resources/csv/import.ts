/**
 * CSV import of a resource: every row checked and written in ONE transaction, all or nothing,
 * with a report of what happened, row by row.
 *
 * - A row updates the record whose key it holds (header.ts `keyFieldOf`: the first
 *   single-field unique key, else the ID) and creates one otherwise. A resource without a
 *   generic create route (`routes.create: false`) is only updated: a row matching no record
 *   is an error. A key may appear once per file.
 * - Cells become values by the field's type (cells.ts); relations are matched by label or ID
 *   (relations.ts). An empty cell is "no value": a new record takes the field's default; on an
 *   existing record it clears the field, or resets it to its default if it has one, and is an
 *   error for a required field.
 * - Each body is checked by the one validator (the create or update body schema of the
 *   engine's routes: check-rows.ts); then the resource's rules run and the row is written
 *   (write.ts).
 * - Any error, or a dry run: the transaction is rolled back and nothing is written.
 */

import type { ResourceDefinition } from "../../../resources/contract";
import { plural } from "../../../src/lib/text";
import type { AppContext } from "../../context";
import type { HistoryWriter } from "../history/writer";
import type { AnyDb, ResourceRules } from "../rules";
import { RowChecker } from "./check-rows";
import { matchHeader } from "./header";
import { parseCsv } from "./parse";
import type { RowError } from "./row-errors";
import { writeChunk } from "./write";

export type { RowError } from "./row-errors";

/** Errors listed in a report at most; the import stops checking once it has found this many. */
export const MAX_REPORTED_ERRORS = 200;
/** Rows checked and written together: one lookup per relation and one insert per chunk. */
export const IMPORT_CHUNK_ROWS = 500;

export interface ImportReport {
  /** The outcome in a sentence. */
  message: string;
  /** Records created (in a dry run: that would be). */
  created: number;
  /** Records updated (in a dry run: that would be). */
  updated: number;
  /** Per-row errors, `field` being the column's title; at most MAX_REPORTED_ERRORS. */
  errors: RowError[];
}

export interface ImportResult {
  report: ImportReport;
  /** Ids written (none after a dry run or an error), for live events. */
  createdIds: string[];
  updatedIds: string[];
}

export interface ImportOptions {
  /** The app's services, handed to afterWrite rules. */
  app: AppContext;
  db: AnyDb;
  def: ResourceDefinition;
  resolve: (name: string) => ResourceDefinition | undefined;
  rules: ResourceRules;
  /** The engine's translation of a database error into an answer (ResourceService). */
  translate: (error: unknown) => unknown;
  /** The resource's history writer (its service's): each chunk's rows keep their history. */
  history: HistoryWriter;
  actorId: string;
  dryRun: boolean;
}

/** Thrown inside the transaction to roll it back (a dry run, or errors found). */
class RollBack extends Error {}

const count = (n: number) => n.toLocaleString("en");
const records = (def: ResourceDefinition, n: number) =>
  plural(n, def.singular.toLowerCase(), def.label.toLowerCase());

function messageOf(
  def: ResourceDefinition,
  r: Omit<ImportReport, "message">,
  dryRun: boolean,
  capped: boolean,
) {
  const n = r.errors.length;
  if (n) {
    const errors = capped ? `${n} or more errors (the first ${n} are listed)` : plural(n, "error");
    return dryRun
      ? `The file has ${errors}; correct them before importing it`
      : `Nothing was imported: the file has ${errors}`;
  }
  return dryRun
    ? `Ready to import: ${records(def, r.created)} to create, ${count(r.updated)} to update`
    : `Imported: ${records(def, r.created)} created, ${count(r.updated)} updated`;
}

/** Imports the text of a CSV file. An unreadable file or header throws a 400 (HttpError). */
export async function importCsv(options: ImportOptions, text: string): Promise<ImportResult> {
  const { db, def, dryRun } = options;
  const file = parseCsv(text);
  const plan = new RowChecker(options, matchHeader(def, file.header));
  const errors: RowError[] = [];
  const ids = { createdIds: [] as string[], updatedIds: [] as string[] };

  try {
    await db.transaction().execute(async (trx) => {
      for (
        let at = 0;
        at < file.rows.length && errors.length < MAX_REPORTED_ERRORS;
        at += IMPORT_CHUNK_ROWS
      ) {
        const checked = await plan.check(trx, file.rows.slice(at, at + IMPORT_CHUNK_ROWS));
        errors.push(...checked.errors);
        const written = await writeChunk(trx, checked.writes, options);
        errors.push(...written.errors);
        ids.createdIds.push(...written.createdIds);
        ids.updatedIds.push(...written.updatedIds);
      }
      if (errors.length || dryRun) throw new RollBack();
    });
  } catch (error) {
    if (!(error instanceof RollBack)) throw error;
  }

  const capped = errors.length >= MAX_REPORTED_ERRORS;
  const shown = errors.sort((a, b) => a.row - b.row).slice(0, MAX_REPORTED_ERRORS);
  // A refused import wrote nothing, and its counts say so; a dry run says what it would write.
  const failed = shown.length > 0 && !dryRun;
  const report = {
    created: failed ? 0 : ids.createdIds.length,
    updated: failed ? 0 : ids.updatedIds.length,
    errors: shown,
  };
  const committed = !dryRun && !shown.length;
  return {
    report: { message: messageOf(def, report, dryRun, capped), ...report },
    createdIds: committed ? ids.createdIds : [],
    updatedIds: committed ? ids.updatedIds : [],
  };
}
