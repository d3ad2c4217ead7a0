/**
 * The run engine's test setup, shared by runs.test.ts and runs-failures.test.ts: a database per
 * driver (PGlite in memory; a throwaway PostgreSQL database), the job queue and the engine on it,
 * the throwaway kind of runs-fixtures.ts, and the helpers the tests read runs with.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, inject } from "vitest";
import type { DatabaseHandle } from "../../server/db";
import { createJobQueue, type JobQueue } from "../../server/jobs";
import { createRunEngine, type RunEngine, type RunStatus, type StartInput } from "../../server/runs";
import { until } from "./jobs-helpers";
import { type DriverDatabase, openDriverDatabase } from "./pg";
import {
  EFFECTS_SQL,
  newProbe,
  type Probe,
  registerTestKind,
  type TestDefinition,
  type TestStep,
} from "./runs-fixtures";

const pgUrl = inject("pgUrl");
export const DRIVERS: ("pglite" | "postgres")[] = pgUrl ? ["pglite", "postgres"] : ["pglite"];
const silent = { info() {}, warn() {}, error() {} };

/** Registers the suite's hooks in the calling `describe`; what the tests use, set before they run. */
export function runEngineSuite(driver: "pglite" | "postgres") {
  let opened: DriverDatabase;
  let database: DatabaseHandle;
  const t = {} as { jobs: JobQueue; runs: RunEngine; probe: Probe };
  let n = 0;

  beforeAll(async () => {
    opened = await openDriverDatabase(driver, pgUrl);
    database = opened.database;
    await sql.raw(EFFECTS_SQL).execute(database.db);
    t.jobs = createJobQueue({ db: database.db, log: silent, pollMs: 20, leaseMs: 3000, stopTimeoutMs: 500 });
    t.runs = createRunEngine({ db: database.db, jobs: t.jobs, log: silent });
    t.probe = newProbe();
    registerTestKind(t.runs, t.probe);
    await t.jobs.start();
  });

  afterAll(async () => {
    await t.jobs?.stop();
    await opened?.close();
  });

  const db = () => database.db;

  function start(steps: TestStep[], extra: Partial<StartInput<TestDefinition>> = {}) {
    n++;
    return t.runs.start(db(), {
      kind: "test",
      ownerKey: extra.ownerKey ?? `owner-${n}`,
      definition: { steps },
      subject: { type: "client", id: `client-${n}` },
      ...extra,
    });
  }

  async function settled(id: string, status: RunStatus, timeoutMs = 10_000) {
    return until(
      async () => {
        const run = await t.runs.get(id);
        return run?.status === status ? run : undefined;
      },
      `run ${id} to be ${status}`,
      timeoutMs,
    );
  }

  /** How many times each step of a run wrote its effect. */
  async function effects(runId: string): Promise<Record<string, number>> {
    const { rows } = await sql<{ step_key: string; n: string }>`
      select step_key, count(*) as n from run_effects where run_id = ${runId} group by step_key`.execute(
      db(),
    );
    return Object.fromEntries(rows.map((r) => [r.step_key, Number(r.n)]));
  }

  /** Jobs of a run's step by state. */
  async function stepJobs(runId: string, key: string) {
    const rows = await db()
      .selectFrom("jobs")
      .select(["state", "run_at"])
      .where("name", "=", "run.test")
      .where(sql<boolean>`payload ->> 'runId' = ${runId} and payload ->> 'key' = ${key}`)
      .execute();
    return rows;
  }

  return Object.assign(t, { db, start, settled, effects, stepJobs });
}
