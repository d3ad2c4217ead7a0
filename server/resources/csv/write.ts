/**
 * Writing one chunk of checked import rows inside the import's transaction, as the engine's
 * write path does: the resource's rules first (before each write, with the stored record),
 * then the write with the audit fields. New records go in one insert; updates one by one
 * (each row sets its own fields).
 *
 * A constraint only the database knows (a second unique key, a scoped relation) fails the
 * chunk's statement without saying which row broke it: the chunk is rolled back to its
 * savepoint and written again row by row, each under a savepoint of its own, so the good rows
 * stay written (the transaction goes on to find further errors) and each bad row gets the
 * engine's own words for its error.
 */

import { sql } from "kysely";
import type { ResourceDefinition } from "../../../resources/contract";
import type { AppContext } from "../../context";
import { type HistoryWriter, withoutBefore } from "../history/writer";
import { type Row, toColumns, updateColumns } from "../records";
import type { AnyDb, ResourceRules } from "../rules";
import { type RowError, rowErrorsOf } from "./row-errors";

/** A checked row, ready to write. */
export interface Write {
  row: number;
  /** The stored record it updates; null for a new record. */
  existing: Row | null;
  body: Row;
  /** Columns the rules set (WriteContext.set). */
  set?: Row;
}

export interface WriteOptions {
  /** The app's services, handed to afterWrite rules. */
  app: AppContext;
  def: ResourceDefinition;
  rules: ResourceRules;
  translate: (error: unknown) => unknown;
  /** Writes each statement's history in it (history/writer.ts), as the engine's writes do. */
  history: HistoryWriter;
  actorId: string;
}

export interface Written {
  createdIds: string[];
  updatedIds: string[];
  errors: RowError[];
}

/** Inserts new records in one statement, updates the others; returns the ids by kind. */
async function writeAll(trx: AnyDb, writes: Write[], options: WriteOptions) {
  const { def, actorId, app, history } = options;
  const who = { actorId, actor: "import" };
  const creates = writes.filter((w) => !w.existing);
  const createdIds: string[] = [];
  const updatedIds: string[] = [];
  const { afterWrite } = options.rules;
  if (creates.length) {
    // The rows and their history in one statement; the rows come back in the order of the
    // VALUES list (PostgreSQL's INSERT … RETURNING, through the CTE).
    const rows: Row[] = await history
      .insert(
        trx,
        creates.map((w) => ({
          ...toColumns(def.schema, w.body),
          ...w.set,
          created_by: actorId,
          updated_by: actorId,
        })),
        who,
      )
      .execute();
    createdIds.push(...rows.map((r) => String(r.id)));
    if (afterWrite) for (const row of rows) await afterWrite({ db: trx, existing: null, row, actorId, app });
  }
  for (const w of writes) {
    if (!w.existing) continue;
    const id = String(w.existing.id);
    const set = {
      ...updateColumns(def.schema, w.body),
      ...w.set,
      updated_at: new Date(),
      updated_by: actorId,
    };
    const row = (await history.update(trx, id, set, who).executeTakeFirstOrThrow()) as Row;
    if (afterWrite)
      await afterWrite({ db: trx, existing: w.existing, row: withoutBefore(row), actorId, app });
    updatedIds.push(id);
  }
  return { createdIds, updatedIds };
}

/** Runs the rules and writes a chunk; rows the rules or the database refuse become errors. */
export async function writeChunk(trx: AnyDb, writes: Write[], options: WriteOptions): Promise<Written> {
  const { def, rules, translate } = options;
  const errors: RowError[] = [];
  const ready: Write[] = [];
  for (const w of writes) {
    try {
      w.set = {};
      await rules.beforeWrite?.({ db: trx, existing: w.existing, values: w.body, set: w.set });
      ready.push(w);
    } catch (error) {
      errors.push(...rowErrorsOf(w.row, error, def.schema));
    }
  }
  if (!ready.length) return { createdIds: [], updatedIds: [], errors };

  await sql`savepoint csv_chunk`.execute(trx);
  try {
    const ids = await writeAll(trx, ready, options);
    await sql`release savepoint csv_chunk`.execute(trx);
    return { ...ids, errors };
  } catch (error) {
    rowErrorsOf(0, translate(error), def.schema); // rethrows what no row caused
    await sql`rollback to savepoint csv_chunk`.execute(trx);
  }

  const out: Written = { createdIds: [], updatedIds: [], errors };
  for (const w of ready) {
    await sql`savepoint csv_row`.execute(trx);
    try {
      const ids = await writeAll(trx, [w], options);
      await sql`release savepoint csv_row`.execute(trx);
      out.createdIds.push(...ids.createdIds);
      out.updatedIds.push(...ids.updatedIds);
    } catch (error) {
      const found = rowErrorsOf(w.row, translate(error), def.schema);
      await sql`rollback to savepoint csv_row`.execute(trx);
      errors.push(...found);
    }
  }
  return out;
}
