/**
 * Issue 11: each job runs once across instances. Two real app instances on one PostgreSQL
 * database, each with the job worker the app starts; a test job kind is registered on both
 * (through the harness's beforeListen, as a module registers its own), and every run is
 * written to a table, so a job run twice — by two instances or twice by one — shows there.
 * The queue's own crash cases (kill -9 of a worker process, lease takeover) are in
 * jobs.test.ts.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../server/app";
import { DRIVERS, sleep, startInstances, type TestServer } from "./harness";

const JOB = "test.cluster-count";
const JOBS = 200;

describe.runIf(DRIVERS.includes("postgres"))("jobs over two instances on one database", () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    let started = 0;
    const register = (built: App) => {
      const instance = `instance-${started++}`;
      built.ctx.jobs.register<{ n: number }>(
        JOB,
        async ({ id, attempt }) => {
          await sql`insert into cluster_job_runs (job_id, attempt, instance) values (${id}, ${attempt}, ${instance})`.execute(
            built.ctx.db,
          );
          await sleep(2); // a little work, so both workers are busy at once
        },
        { concurrency: 4 },
      );
    };
    [a, b] = await startInstances(
      2,
      {},
      {
        setupSql:
          "create table if not exists cluster_job_runs (job_id uuid not null, attempt int not null, instance text not null)",
        beforeListen: register,
      },
    );
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it(`runs each of ${JOBS} jobs exactly once over both instances`, async () => {
    const ids: string[] = [];
    // Enqueued through both instances, interleaved, as requests spread over a balancer.
    for (let i = 0; i < JOBS / 2; i++) {
      ids.push(await a.ctx.jobs.enqueue(JOB, { n: 2 * i }), await b.ctx.jobs.enqueue(JOB, { n: 2 * i + 1 }));
    }
    expect(new Set(ids).size).toBe(JOBS);
    const db = a.database.db;
    const deadline = Date.now() + 120_000;
    for (;;) {
      const { done } = await db
        .selectFrom("jobs")
        .select((eb) => eb.fn.countAll<string>().as("done"))
        .where("name", "=", JOB)
        .where("state", "=", "done")
        .executeTakeFirstOrThrow();
      if (Number(done) === JOBS) break;
      if (Date.now() > deadline) throw new Error(`only ${done} of ${JOBS} jobs done`);
      await sleep(50);
    }
    const runs = await sql<{ job_id: string; runs: string; attempts: number[] }>`
      select job_id, count(*) as runs, array_agg(attempt) as attempts from cluster_job_runs group by job_id`.execute(
      db,
    );
    expect(runs.rows).toHaveLength(JOBS);
    expect(runs.rows.filter((r) => Number(r.runs) !== 1)).toEqual([]);
    expect(new Set(runs.rows.map((r) => r.job_id))).toEqual(new Set(ids));
    expect(runs.rows.every((r) => r.attempts[0] === 1)).toBe(true);
    // Both workers took part: the count is over instances, not one worker doing all.
    const byInstance = await sql<{ instance: string; runs: string }>`
      select instance, count(*) as runs from cluster_job_runs group by instance order by instance`.execute(
      db,
    );
    expect(byInstance.rows.map((r) => r.instance)).toEqual(["instance-0", "instance-1"]);
    expect(byInstance.rows.reduce((sum, r) => sum + Number(r.runs), 0)).toBe(JOBS);
  });
});
