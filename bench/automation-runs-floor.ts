/**
 * The automation runs bench's floor (bench/automation-runs.ts): the least a durable runner of
 * the bench's flow must do, written by hand on the same database, beside which the app's run
 * engine is measured. It is not a product: no definitions, no step records, no retries, no
 * exits, no live updates; only what keeps each run's work exactly once across a crash.
 *
 * - A start is a bare Fastify route (no auth, no hooks) that sends ONE statement: the run,
 *   due now, inserted only if its client exists.
 * - Workers claim due runs in batches (`for update skip locked`, a lease), as the app's queue does.
 * - The condition and the delay are one statement: the condition evaluated in SQL on the
 *   client's row, the run moved to the delayed step due 1 s later, the lease given back.
 * - The three record actions are a transaction: the run's row guarded and finished first (a
 *   run claimed twice does its actions once), then the same three writes the app's actions send
 *   (the client's tag, the task, the client's company from the task's id), then commit.
 * So a run is 1 + 1 + 6 statements, plus its share of the claims: 5 steps in about 8.
 *
 * PostgreSQL: a `pg` Pool (max 10, as the app's) on the app's database, the app stopped
 * first. PGlite: a PGlite of its own in this process, migrated, with the same clients seeded.
 */
import type net from "node:net";
import type { Transaction as PGliteTransaction } from "@electric-sql/pglite";
import Fastify from "fastify";
import { sql } from "kysely";
import pg from "pg";
import { sendLoad, sleep } from "./automation-runs-flow";
import { type FloorFigures, latenessOf, quantile, stepRates } from "./automation-runs-report";
import { type Cleanup, runCleanups } from "./bench-run";
import { openFloorDatabase } from "./resource-engine-floor";
import { postgresCpu } from "./resource-engine-report";
import type { Driver } from "./resource-engine-settings";

type Rows = { rows: Record<string, unknown>[] };
type Send = (text: string, params?: unknown[]) => Promise<Rows>;

/** The floor's database: statements straight to the driver, and a transaction. */
interface FloorDb {
  query: Send;
  transaction<T>(work: (send: Send) => Promise<T>): Promise<T>;
  where: string;
  close(): Promise<void>;
}

async function openDb(driver: Driver, databaseUrl: string | null, runs: number): Promise<FloorDb> {
  if (driver === "postgres" && databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    pool.on("error", () => {});
    return {
      query: (text, params) => pool.query(text, params),
      async transaction(work) {
        const client = await pool.connect();
        try {
          await client.query("begin");
          const result = await work((text, params) => client.query(text, params));
          await client.query("commit");
          return result;
        } catch (error) {
          await client.query("rollback").catch(() => {});
          throw error;
        } finally {
          client.release();
        }
      },
      where: "own pg.Pool (max 10) on the app's database, the app stopped",
      close: () => pool.end(),
    };
  }
  // A PGlite of its own, migrated, with clients seeded as the app's were.
  const floor = await openFloorDatabase({ databaseUrl: null, inMemory: false });
  const { pgliteDb: db, pglite } = floor;
  if (!db || !pglite) throw new Error("the floor's PGlite was not opened");
  await sql`
    insert into clients (name, email, company, source, tags, custom, created_at, updated_at)
    select 'Bench client ' || g, 'bench-' || g || '@example.com', 'Company ' || g, 'import', '[]'::jsonb,
           '{}'::jsonb, now(), now()
    from generate_series(1, ${runs}::int) g`.execute(db);
  return {
    query: (text, params) => floor.query(text, params ?? []),
    transaction: (work) =>
      pglite.transaction((tx: PGliteTransaction) =>
        work((text, params) => tx.query<Record<string, unknown>>(text, params ?? [])),
      ),
    where: floor.where,
    async close() {
      for (const c of floor.closers) await c();
    },
  };
}

const SCHEMA = `
  create table if not exists floor_runs (
    id uuid primary key default gen_random_uuid(),
    client_id uuid not null,
    status text not null default 'running',
    cursor text,
    due_at timestamptz not null default now(),
    claimed_until timestamptz not null default '-infinity',
    outputs jsonb not null default '{}',
    finished_at timestamptz
  );
  create index if not exists floor_runs_due on floor_runs (due_at) where status = 'running'`;

const START = `
  insert into floor_runs (client_id, cursor) select id, 'check' from clients where id = $1 returning id`;
const CLAIM = `
  update floor_runs set claimed_until = now() + interval '30 seconds'
  where id in (select id from floor_runs where status = 'running' and due_at <= now() and claimed_until < now()
               order by due_at limit $1 for update skip locked)
  returning id, client_id, cursor, due_at`;
/** The condition (client.email contains "@") and the 1-second delay, in one statement. */
const CHECK_AND_DELAY = `
  update floor_runs r
  set cursor = case when position('@' in c.email) > 0 then 'tag' end,
      status = case when position('@' in c.email) > 0 then 'running' else 'finished' end,
      due_at = now() + interval '1 second', claimed_until = '-infinity',
      outputs = jsonb_build_object('check', position('@' in c.email) > 0)
  from clients c where r.id = $1 and r.cursor = 'check' and c.id = r.client_id`;
const FINISH = `
  update floor_runs set status = 'finished', cursor = null, finished_at = now(),
    outputs = outputs || jsonb_build_object('task', $2::text)
  where id = $1 and cursor = 'tag' and status = 'running' returning id`;
const TAG = `update clients set tags = tags || '["bench"]'::jsonb, updated_at = now() where id = $1`;
const TASK = `insert into crm_tasks (client_id, title, done) values ($1, $2, false) returning id`;
const TOUCH = `update clients set company = $2, updated_at = now() where id = $1`;

/** Workers taking due runs, as the app's job queue's concurrency and claim batch. */
const WORKERS = 10;
const CLAIM_BATCH = 10;

export interface FloorResult {
  where: string;
  /** When each step finished (ms since the epoch). */
  stepsFinishedAt: number[];
  /** How late each delayed step was taken (ms). */
  lateness: number[];
  statements: number;
  url: string;
  /** The clients the starts are about, one per run. */
  clientIds: string[];
  /** Runs not finished when the bench stopped waiting. */
  unfinished(): Promise<number>;
  /** Tasks made twice for one run. */
  doubled(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Opens the floor's database and server and starts its workers; the bench sends the starts
 * (`POST {url}/floor/run` with `{ clientId }`) and reads the result once they drain.
 */
export async function startFloor(
  driver: Driver,
  databaseUrl: string | null,
  runs: number,
): Promise<FloorResult> {
  const cleanups: Cleanup[] = [];
  const floorDb = await openDb(driver, databaseUrl, runs);
  cleanups.push(() => floorDb.close());
  let statements = 0;
  const query: Send = (text, params) => {
    statements++;
    return floorDb.query(text, params);
  };
  for (const statement of SCHEMA.split(";")) await floorDb.query(statement);
  const stepsFinishedAt: number[] = [];
  const lateness: number[] = [];

  let wake: (() => void) | null = null;
  const server = Fastify({ logger: false });
  server.post<{ Body: { clientId: string } }>("/floor/run", async (request, reply) => {
    const { rows } = await query(START, [request.body.clientId]);
    if (!rows.length) return reply.status(404).send({ message: "Client not found" });
    wake?.();
    return reply.status(201).send({ id: rows[0].id });
  });
  cleanups.unshift(() => server.close());
  await server.listen({ port: 0, host: "127.0.0.1" });
  const url = `http://127.0.0.1:${(server.server.address() as net.AddressInfo).port}`;

  async function runSegment(run: Record<string, unknown>) {
    const id = String(run.id);
    if (run.cursor === "check") {
      await query(CHECK_AND_DELAY, [id]);
      const at = Date.now();
      stepsFinishedAt.push(at, at);
      return;
    }
    lateness.push(Date.now() - new Date(run.due_at as string).getTime());
    const done = await floorDb.transaction(async (send) => {
      const counted: Send = (text, params) => {
        statements++;
        return send(text, params);
      };
      statements += 2; // begin, commit
      const clientId = String(run.client_id);
      const guard = await counted(FINISH, [id, "pending"]);
      if (!guard.rows.length) return false;
      await counted(TAG, [clientId]);
      const task = await counted(TASK, [clientId, `Floor follow-up ${clientId}`]);
      await counted(TOUCH, [clientId, `Task ${String(task.rows[0].id)}`]);
      return true;
    });
    if (done) {
      const at = Date.now();
      stepsFinishedAt.push(at, at, at);
    }
  }

  let running = true;
  const worker = async () => {
    while (running) {
      const { rows } = await query(CLAIM, [CLAIM_BATCH]);
      for (const run of rows) await runSegment(run);
      if (rows.length) continue;
      // Nothing due: until a start comes in, or the next delay may be due.
      await Promise.race([new Promise<void>((r) => (wake = r)), sleep(20)]);
    }
  };
  const workers = Array.from({ length: WORKERS }, worker);
  cleanups.unshift(async () => {
    running = false;
    wake?.();
    await Promise.allSettled(workers);
  });

  return {
    where: floorDb.where,
    stepsFinishedAt,
    lateness,
    get statements() {
      return statements;
    },
    url,
    clientIds: (await floorDb.query("select id from clients order by id limit $1", [runs])).rows.map((r) =>
      String(r.id),
    ),
    async unfinished() {
      const { rows } = await floorDb.query(
        "select count(*)::int as n from floor_runs where status = 'running'",
      );
      return Number(rows[0].n);
    },
    async doubled() {
      const { rows } = await floorDb.query(
        `select count(*)::int as n from (select title from crm_tasks where title like 'Floor follow-up %'
           group by title having count(*) > 1) t`,
      );
      return Number(rows[0].n);
    },
    stop: () => runCleanups(cleanups),
  };
}

const cpuOfProcess = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/**
 * The floor under the bench's load (the same rate and count, from the same worker), after the
 * app's run on the same database: its figures to print beside the app's.
 */
export async function measureFloor(
  driver: Driver,
  app: { databaseUrl: string | null; postmasterPid: number | null },
  runs: number,
  rate: number,
  drainSeconds: number,
): Promise<FloorFigures> {
  const floor = await startFloor(driver, app.databaseUrl, runs);
  try {
    process.stderr.write(`  ${driver}: the floor (${floor.where})\n`);
    const cpu0 = { app: cpuOfProcess(), pg: postgresCpu(app.postmasterPid) };
    const statements0 = floor.statements;
    const load = await sendLoad(
      floor.url,
      null,
      floor.clientIds.map((clientId) => ({ path: "/floor/run", body: { clientId } })),
      rate,
    );
    for (const [reason, n] of load.refusals) console.log(`floor: starts not accepted: ${n} × ${reason}`);
    const lastStart = Date.now();
    let unfinished = await floor.unfinished();
    while (unfinished && Date.now() - lastStart < drainSeconds * 1000) {
      await sleep(200);
      unfinished = await floor.unfinished();
    }
    const drained = (Date.now() - lastStart) / 1000;
    const cpu = { app: cpuOfProcess() - cpu0.app, pg: postgresCpu(app.postmasterPid) - cpu0.pg };
    const offeredSeconds = load.offeredMs / 1000;
    const finishedMs = [...floor.stepsFinishedAt].sort((a, b) => a - b);
    return {
      where: floor.where,
      accepted: load.accepted.length,
      startP99: quantile(load.latencies, 0.99),
      offeredSeconds,
      stepsDone: finishedMs.length,
      ...stepRates(finishedMs, load.t0, offeredSeconds),
      drainSeconds: drained,
      lateness: latenessOf([...floor.lateness].sort((a, b) => a - b)),
      lost: unfinished,
      doubled: await floor.doubled(),
      statements: floor.statements - statements0,
      cpuMs: { app: cpu.app / 1000, pg: cpu.pg / 1000 },
    };
  } finally {
    await floor.stop();
  }
}
