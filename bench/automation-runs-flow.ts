/**
 * The automation runs bench's flow and its plumbing (bench/automation-runs.ts): the published
 * steps, the API calls, the fast-forward that makes the 1-minute delay a 1-second one, and a
 * sampler of what PostgreSQL's connections wait on.
 */
import { Worker } from "node:worker_threads";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import type { Database } from "../server/db";

export const STEPS_PER_RUN = 5;
export const DELAY_SHIFT_SECONDS = 59;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const STEPS = [
  {
    id: "check",
    kind: "condition",
    condition: { operator: "and", value: [{ field: "client.email", operator: "contains", value: "@" }] },
    branches: {
      yes: [
        { id: "pause", kind: "delay", mode: "for", amount: 1, unit: "minutes" },
        { id: "tag", kind: "action", type: "add_tag", inputs: { tag: "bench" } },
        {
          id: "task",
          kind: "action",
          type: "create_record",
          inputs: {
            resource: "task",
            fields: { title: "Bench follow-up {{client.id}}", client_id: "{{client.id}}" },
          },
        },
        {
          id: "touch",
          kind: "action",
          type: "update_record",
          inputs: {
            resource: "client",
            recordId: "{{client.id}}",
            fields: { company: "Task {{steps.task.id}}" },
          },
        },
      ],
      no: [],
    },
  },
];
/** The step the delay holds back: its lateness is the delay's. */
export const DELAYED_STEP = "tag";

export async function api(url: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

/** What the load's worker answers once every start has (bench/automation-runs-load.mjs). */
export interface LoadResult {
  /** When the first start was sent (ms since the epoch). */
  t0: number;
  /** From the first start sent to the last answered. */
  offeredMs: number;
  /** The ids of the runs started (201). */
  accepted: string[];
  /** Each start's answer time (ms). */
  latencies: number[];
  /** Starts not accepted, by reason (status, or the fetch error's cause). */
  refusals: Array<[string, number]>;
  /** The first few refusals, as printed. */
  samples: string[];
}

/** Sends the starts at `rate` per second from a worker thread; their answers once all are in. */
export function sendLoad(
  url: string,
  token: string | null,
  starts: Array<{ path: string; body: unknown }>,
  rate: number,
): Promise<LoadResult> {
  const worker = new Worker(new URL("./automation-runs-load.mjs", import.meta.url), {
    workerData: { url, token, rate, paths: starts.map((s) => s.path), bodies: starts.map((s) => s.body) },
  });
  return new Promise((resolve, reject) => {
    worker.once("message", (result: LoadResult) => {
      result.latencies.sort((a, b) => a - b);
      resolve(result);
    });
    worker.once("error", reject);
    worker.once("exit", (code) => code && reject(new Error(`the load's worker exited with ${code}`)));
  });
}

/** Brings every delayed step job of the automation kind forward, job and step row together. */
export async function shiftDelays(db: Kysely<Database>): Promise<void> {
  await sql`
    with j as (
      update jobs set run_at = run_at - make_interval(secs => ${DELAY_SHIFT_SECONDS})
      where name = 'run.automation' and state = 'queued' and run_at > now() + interval '10 seconds'
      returning payload)
    update run_steps s set due_at = s.due_at - make_interval(secs => ${DELAY_SHIFT_SECONDS})
    from j where s.run_id = (j.payload ->> 'runId')::uuid and s.step_key = j.payload ->> 'key'
      and s.status = 'scheduled'`.execute(db);
}

/** Debugging aid (BENCH_SAMPLE=1, PostgreSQL): what the app's connections wait on, every 500 ms. */
export function sampleActivity(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  let on = true;
  const counts = new Map<string, number>();
  const loop = (async () => {
    await client.connect();
    while (on) {
      const r = await client.query(
        `select coalesce(wait_event_type || ':' || wait_event, state) as w, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) as q
         from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()`,
      );
      for (const row of r.rows) {
        const k = `${row.w} | ${row.q}`;
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      await sleep(500);
    }
    await client.end();
  })();
  return {
    async stop() {
      on = false;
      await loop;
      for (const [k, n] of [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15))
        console.log(`  ${n}  ${k}`);
    },
  };
}
