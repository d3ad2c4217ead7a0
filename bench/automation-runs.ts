/**
 * Automation runs benchmark (issue 17): 10,000 runs of a published flow started at 200 runs/s
 * for 50 s through the real app, on PostgreSQL and on PGlite: steps per second sustained, how
 * late each delay fired, and runs finished, lost or doubled, beside issue 28's targets
 * (every start accepted; PostgreSQL ≥ 1,000 steps/s while starts come in, delay lateness p99
 * ≤ 1 s; PGlite ≥ 300 steps/s; 0 runs lost or doubled). Figures only; nothing is asserted.
 *
 *   npx tsx bench/automation-runs.ts [--runs 10000] [--rate 200] [--driver pg|pglite|both]
 *   (or: npm run bench:automation -- --runs 500)
 *
 * What holds on a busy machine, beside them: the app's statements per step (all it sent from
 * the first start to the last step, divided by the steps done, and by shape) and CPU per step
 * (this process: the app, its PGlite and the load; PostgreSQL's processes). Profiling:
 * `node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/automation-runs.ts …`, then
 * `node bench/cpuprofile-summary.mjs <profile> --window <the printed span>`. PostgreSQL's own
 * time by statement: BENCH_PG_STATEMENTS=1 (bench/pg-statements.ts).
 *
 * The flow, made and published through the API (`/api/automations`, `PUT …/draft`,
 * `POST …/publish`), manual trigger, five steps each run walks:
 *   condition (client.email contains "@") → yes: delay → add_tag → create_record (a task) →
 *   update_record (the client's company, from the task's id).
 * Five engine steps per run, because the target's 1,000 steps/s is what 200 runs/s of a
 * five-step flow offers; the issue lists four kinds (condition, delay, two record actions), so a
 * third record action makes the fifth.
 *
 * The delay: the product's smallest is 1 minute (`src/lib/delays.ts`: minutes, hours, days,
 * weeks, as the spec asks), so the published delay is 1 minute and the bench brings each
 * waiting step 59 s forward as soon as it is queued — the tests' fast-forward
 * (tests/server/automations.test.ts), on the step's job `run_at` and its `due_at` together in one
 * statement every 100 ms — so each delay is due 1 s after it started. Lateness is the delayed
 * step's `started_at` − `due_at` (run_steps), i.e. how long after its time the queue took it.
 *
 * Runs are started by `POST /api/automations/{id}/run` with a clientId (one seeded client per
 * run): the trigger the bench can pace exactly, whose run is about a client (add_tag needs one),
 * without the cost of the event's own write (a client created) in the figures. The requests come
 * from this process (the app runs in it too, as the other benches start it): on a 2-core machine
 * the load, the app and PostgreSQL share the cores.
 *
 * Doubled: a task made twice for one run (its title names the run's client), a step job done
 * twice (jobs by key), a step whose attempt went past 1 (a retry; reported, not counted as a
 * double: a retried step rolls back).
 */
import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { sql } from "kysely";
import { measureFloor } from "./automation-runs-floor";
import {
  api,
  DELAY_SHIFT_SECONDS,
  DELAYED_STEP,
  STEPS,
  STEPS_PER_RUN,
  sampleActivity,
  sendLoad,
  shiftDelays,
  sleep,
} from "./automation-runs-flow";
import { type Figures, fmt, latenessOf, print, quantile, stepRates } from "./automation-runs-report";
import { type Cleanup, reportFailure, runCleanups } from "./bench-run";
import { printPgStatements, resetPgStatements } from "./pg-statements";
import { captureStatements } from "./resource-engine-capture";
import { postgresCpu } from "./resource-engine-report";
import type { Driver } from "./resource-engine-settings";
import { signIn, startApp } from "./resource-engine-setup";

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const RUNS = Number(flag("runs", "10000"));
const RATE = Number(flag("rate", "200"));
const DRIVER_FLAG = flag("driver", "both");
const DRIVERS: Driver[] =
  DRIVER_FLAG === "pg" || DRIVER_FLAG === "postgres"
    ? ["postgres"]
    : DRIVER_FLAG === "pglite"
      ? ["pglite"]
      : ["postgres", "pglite"];
/** `--floor no`: the app alone, without the floor beside it. */
const FLOOR = flag("floor", "yes") !== "no";
/** How long after the last start the bench waits for the runs to end before counting them lost. */
const DRAIN_SECONDS = Number(flag("drain", "120"));
async function runDriver(driver: Driver): Promise<Figures | null> {
  const cleanups: Cleanup[] = [];
  try {
    const started = await startApp(driver, cleanups);
    if (!started) return null;
    const { url, database, where } = started;
    const db = database.db;
    const token = await signIn(url);
    console.log(`\n=== ${driver}: ${where}`);

    await sql`
      insert into clients (name, email, company, source, tags, custom, created_at, updated_at)
      select 'Bench client ' || g, 'bench-' || g || '@example.com', 'Company ' || g, 'import', '[]'::jsonb,
             '{}'::jsonb, now(), now()
      from generate_series(1, ${RUNS}::int) g`.execute(db);
    const clientIds = (await db.selectFrom("clients").select("id").orderBy("id").execute()).map((c) => c.id);
    if (clientIds.length < RUNS) throw new Error(`seeded ${clientIds.length} clients, wanted ${RUNS}`);

    const automation = await api(url, token, "POST", "/api/automations", { name: `Bench ${driver}` });
    const id = String(automation.id);
    await api(url, token, "PUT", `/api/automations/${id}/draft`, {
      definition: { trigger: { kind: "manual" }, steps: STEPS },
    });
    const published = await api(url, token, "POST", `/api/automations/${id}/publish`);
    console.log(
      `seeded ${RUNS} clients; automation ${id} published as version ${published.version} (manual trigger, ${STEPS_PER_RUN} steps a run)`,
    );

    let shifting = true;
    const shifter = (async () => {
      while (shifting) {
        await shiftDelays(db).catch((e) => console.log(`shift: ${String(e)}`));
        await sleep(100);
      }
    })();
    cleanups.unshift(async () => {
      shifting = false;
      await shifter;
    });

    const sampler =
      process.env.BENCH_SAMPLE && started.databaseUrl ? sampleActivity(started.databaseUrl) : null;
    // What the whole bench costs from the first start to the last step: the app's statements
    // (the bench's own fast-forward and polls are counted apart) and CPU.
    await resetPgStatements(started.databaseUrl);
    const capture = captureStatements();
    const cpu0 = { app: cpuOfProcess(), pg: postgresCpu(started.postmasterPid) };
    // How long the app's thread went without a turn of its event loop (taking connections and
    // requests in): a start that waits for one is a start refused or late.
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const uptime0 = process.uptime();
    const load = await sendLoad(
      url,
      token,
      clientIds
        .slice(0, RUNS)
        .map((clientId) => ({ path: `/api/automations/${id}/run`, body: { clientId } })),
      RATE,
    );
    const { t0, accepted: acceptedIds } = load;
    const accepted = acceptedIds.length;
    const refused = RUNS - accepted;
    for (const sample of load.samples) console.log(sample);
    for (const [reason, n] of load.refusals) console.log(`starts not accepted: ${n} × ${reason}`);
    await sampler?.stop();
    const offeredSeconds = load.offeredMs / 1000;
    process.stderr.write(`  ${driver}: ${accepted} runs started in ${fmt(offeredSeconds, 1)} s; draining\n`);

    // Wait for every run to end (or the drain limit).
    const lastStart = Date.now();
    for (;;) {
      const active = await sql<{ n: number }>`
        select count(*)::int as n from runs where kind = 'automation' and status in ('running', 'waiting')`.execute(
        db,
      );
      const n = active.rows[0].n;
      if (!n || Date.now() - lastStart > DRAIN_SECONDS * 1000) break;
      await sleep(500);
    }
    const drainSeconds = (Date.now() - lastStart) / 1000;
    shifting = false;
    await shifter;
    loopDelay.disable();
    const cpu = {
      app: cpuOfProcess() - cpu0.app,
      pg: postgresCpu(started.postmasterPid) - cpu0.pg,
    };
    const statements = capture.stop();
    await printPgStatements(started.databaseUrl, RUNS * STEPS_PER_RUN, "step", 30);
    // For `node --cpu-prof`: bench/cpuprofile-summary.mjs <profile> --window <this span>.
    console.log(`measured from ${fmt(uptime0, 1)} to ${fmt(process.uptime(), 1)} s of this process's uptime`);

    const statuses = await sql<{ status: string; n: number }>`
      select status, count(*)::int as n from runs where kind = 'automation' group by status`.execute(db);
    const byStatus = Object.fromEntries(statuses.rows.map((r) => [r.status, r.n]));
    const known = new Set(
      (
        await sql<{
          id: string;
        }>`select id::text as id from runs where kind = 'automation' and status = 'finished'`.execute(db)
      ).rows.map((r) => r.id),
    );
    const lost = acceptedIds.filter((r) => !known.has(r)).length;

    const done = await sql<{ ms: number }>`
      select (extract(epoch from s.finished_at) * 1000)::float8 as ms
      from run_steps s join runs r on r.id = s.run_id
      where r.kind = 'automation' and s.status = 'done'`.execute(db);
    const finishedMs = done.rows.map((r) => Number(r.ms)).sort((a, b) => a - b);
    const rates = stepRates(finishedMs, t0, offeredSeconds);

    const late = await sql<{ ms: number }>`
      select (extract(epoch from (s.started_at - s.due_at)) * 1000)::float8 as ms
      from run_steps s join runs r on r.id = s.run_id
      where r.kind = 'automation' and s.step_key = ${DELAYED_STEP} and s.started_at is not null`.execute(db);
    const lateness = late.rows.map((r) => Number(r.ms)).sort((a, b) => a - b);

    const doubledTasks = await sql<{ n: number }>`
      select count(*)::int as n from (select title from crm_tasks where title like 'Bench follow-up %'
        group by title having count(*) > 1) t`.execute(db);
    const doubledJobs = await sql<{ n: number }>`
      select count(*)::int as n from (select key from jobs where name = 'run.automation' and state = 'done'
        group by key having count(*) > 1) j`.execute(db);
    const retried = await sql<{ n: number }>`
      select count(*)::int as n from run_steps s join runs r on r.id = s.run_id
      where r.kind = 'automation' and s.attempt > 1`.execute(db);

    const figures: Omit<Figures, "floor"> = {
      statements: statementShapes(statements),
      cpuMs: { app: cpu.app / 1000, pg: cpu.pg / 1000 },
      driver,
      where,
      accepted,
      refused,
      startP99: quantile(load.latencies, 0.99),
      loopDelayMs: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
      offeredSeconds,
      byStatus,
      stepsDone: finishedMs.length,
      ...rates,
      drainSeconds,
      lateness: latenessOf(lateness),
      lost,
      doubledTasks: doubledTasks.rows[0].n,
      doubledJobs: doubledJobs.rows[0].n,
      retriedSteps: retried.rows[0].n,
    };
    // The floor, under the same load, on the same database (its own PGlite), the app stopped.
    await started.stop();
    const floor = FLOOR ? await measureFloor(driver, started, RUNS, RATE, DRAIN_SECONDS) : null;
    return { ...figures, floor };
  } catch (error) {
    reportFailure(driver, error);
    return null;
  } finally {
    await runCleanups(cleanups);
  }
}

/** This process's CPU (µs): the app, its PGlite, and the bench's own requests. */
function cpuOfProcess(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** The bench's own statements (fast-forward, drain polls) are told apart from the app's. */
const BENCH_STATEMENT = /^(with j as \(|select count\(\*\)::int as n from runs)/;

/** Statements by shape: their text without literals, first 110 characters. */
function statementShapes(statements: string[]): Figures["statements"] {
  const shapes = new Map<string, number>();
  let bench = 0;
  for (const text of statements) {
    if (BENCH_STATEMENT.test(text)) {
      bench++;
      continue;
    }
    const shape = text.replace(/\$\d+/g, "?").slice(0, 110);
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  }
  const top = [...shapes.entries()].sort((a, b) => b[1] - a[1]);
  return { app: statements.length - bench, bench, top };
}

async function main() {
  console.log(
    `Automation runs benchmark — node ${process.version}, ${os.cpus().length} CPUs, ${os.cpus()[0]?.model ?? ""}\n` +
      `${RUNS} runs at ${RATE} runs/s, drivers ${DRIVERS.join(", ")}. The delay is published as 1 minute (the product's ` +
      `smallest unit) and brought forward ${DELAY_SHIFT_SECONDS} s by the bench as soon as queued: a 1-second delay.`,
  );
  for (const driver of DRIVERS) {
    const f = await runDriver(driver);
    if (f) print(f, RUNS, RATE);
  }
  console.log(
    "\nTargets are issue 28's for each driver. Load, app and database share this machine's cores: " +
      "steps/s and lateness are noisy on a busy machine; statements and CPU per step hold.",
  );
}

await main();
