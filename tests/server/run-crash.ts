/**
 * What the kill -9 tests of the run engine share (a sequence's wait, an automation's delay):
 * a server's throwaway database on either driver, an admin's token, and the clock moved on for
 * a waiting step while the server is down (its step row and its job made due now).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, inject } from "vitest";
import { openDatabase } from "../../server/db";
import type { ChildServer } from "./child-server";
import { ADMIN, DEVICE, type Driver, migratedDataDir } from "./harness";
import { createTestDatabase } from "./pg";

export interface CrashDatabase {
  /** The child server's environment (DATA_DIR, and DATABASE_URL on PostgreSQL). */
  env: Record<string, string>;
  databaseUrl: string | null;
  dataDir: string;
}

/** A fresh database for child servers on `driver`; its removal is pushed onto `cleanups`. */
export async function crashDatabase(
  driver: Driver,
  prefix: string,
  cleanups: Array<() => Promise<void> | void>,
): Promise<CrashDatabase> {
  const env: Record<string, string> = {};
  let databaseUrl: string | null = null;
  if (driver === "postgres") {
    const db = await createTestDatabase(String(inject("pgUrl")));
    databaseUrl = db.url;
    env.DATABASE_URL = db.url;
    cleanups.push(() => db.drop());
  }
  // On PGlite the folder holds the migrated database already: the first boot is only a boot.
  const dataDir = databaseUrl
    ? mkdtempSync(path.join(os.tmpdir(), `atelier-${prefix}-`))
    : await migratedDataDir(prefix);
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  env.DATA_DIR = dataDir;
  return { env, databaseUrl, dataDir };
}

/** The admin's access token on a child server. */
export async function signInAdmin(server: ChildServer): Promise<string> {
  const answer = await server.api("POST", "/api/auth/signin", { body: { ...ADMIN, deviceInfo: DEVICE } });
  expect(answer.status).toBe(200);
  return answer.body.accessToken as string;
}

/** The wait before step `stepKey` of run `runId` passes while no server runs: due now. */
export async function makeStepDue(database: CrashDatabase, runId: string, stepKey: string): Promise<void> {
  const down = await openDatabase({ databaseUrl: database.databaseUrl, pgliteDir: database.dataDir });
  try {
    const past = new Date(Date.now() - 1000);
    const moved = await down.db
      .updateTable("run_steps")
      .set({ due_at: past })
      .where("run_id", "=", runId)
      .where("step_key", "=", stepKey)
      .where("status", "=", "scheduled")
      .executeTakeFirst();
    expect(Number(moved.numUpdatedRows)).toBe(1);
    await down.db
      .updateTable("jobs")
      .set({ run_at: past })
      .where("key", "=", `run:${runId}:${stepKey}`)
      .where("state", "=", "queued")
      .execute();
  } finally {
    await down.close();
  }
}

/** What a crashed-and-restarted run left, read once its servers have stopped. */
export async function readAfterCrash(
  database: CrashDatabase,
  runId: string,
  mailTo: string,
  more?: (db: Awaited<ReturnType<typeof openDatabase>>["db"]) => Promise<void>,
): Promise<{ subjects: string[]; steps: Array<{ step_key: string; status: string; attempt: number }> }> {
  const after = await openDatabase({ databaseUrl: database.databaseUrl, pgliteDir: database.dataDir });
  try {
    const mails = await after.db
      .selectFrom("mail_outbox")
      .select("subject")
      .where("to_address", "=", mailTo)
      .orderBy("created_at")
      .execute();
    const steps = await after.db
      .selectFrom("run_steps")
      .select(["step_key", "status", "attempt"])
      .where("run_id", "=", runId)
      .orderBy("seq")
      .execute();
    await more?.(after.db);
    return { subjects: mails.map((m) => m.subject), steps };
  } finally {
    await after.close();
  }
}
