/**
 * A test run's mark (issue 30, "Test a flow before publishing it"): the run object a test walks
 * the draft with is marked here with the transaction it works in (always rolled back). Steps
 * that reach outside the database consult it: the HTTP request records what it would send and
 * sends nothing, and reads the run's values in the test's transaction (on PGlite the app's
 * database would wait for that very transaction). Steps that only write rows (a mail in the
 * outbox, an SMS stored, a record) run as they are: their writes go with the rollback.
 */
import type { Transaction } from "kysely";
import type { Database } from "../../db";

const testRuns = new WeakMap<object, Transaction<Database>>();

/** Marks `run` as a test run working in `trx`. */
export function markTestRun(run: object, trx: Transaction<Database>): void {
  testRuns.set(run, trx);
}

/** The test's transaction when `run` is a test run, else undefined (a real run). */
export const testRunTrx = (run: object): Transaction<Database> | undefined => testRuns.get(run);
