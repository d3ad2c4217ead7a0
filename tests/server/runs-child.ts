/**
 * The real app as a process, with the test kind of run registered (runs-fixtures.ts), for
 * runs-crash.test.ts: configured from the environment like server/main.ts, it starts
 * RUNS_START runs of "slow write → wait → write" (a wait of at least RUNS_WAIT_MS), then reports
 * on stdout what its steps do. It listens on no port: the test watches its output and, once it is
 * gone, reads the database.
 *
 * Lines: `active <n>` (runs in flight when it started), `ready <iso time>` (its kind is taking
 * steps), `wait <ms>` (the runs' wait), `effect <run> <step>` (a step's effect written, not yet committed), `ended <run> <status>`.
 */
import { sql } from "kysely";
import { buildApp } from "../../server/app";
import { loadConfig } from "../../server/config";
import { openDatabase } from "../../server/db";
import { lockDataDirOrExit } from "../../server/lock";
import { EFFECTS_SQL, newProbe, registerTestKind, type TestStep } from "./runs-fixtures";

const say = (line: string) => process.stdout.write(`${line}\n`);

const config = loadConfig();
const release = config.databaseUrl ? () => {} : lockDataDirOrExit(config.dataDir);
const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.dataDir });
await sql.raw(EFFECTS_SQL).execute(database.db);
const { app, ctx } = await buildApp({ config, database, logger: { level: "warn" } });

const { active } = await database.db
  .selectFrom("runs")
  .select((eb) => eb.fn.countAll<string>().as("active"))
  .where("status", "in", ["running", "waiting"])
  .executeTakeFirstOrThrow();
say(`active ${active}`);

const probe = newProbe();
probe.onEffect = (runId, key) => say(`effect ${runId} ${key}`);
probe.onEnded = (run) => say(`ended ${run.id} ${run.status}`);
registerTestKind(ctx.runs, probe);
say(`ready ${new Date().toISOString()}`);

// The wait outlasts a restart (this boot, timed, and half as much again): its steps then fall
// due after the next process is up, spread out as they were started, so their lateness is the
// engine's and not a backlog of steps that came due while no process ran.
const waitMs = Math.max(Number(process.env.RUNS_WAIT_MS ?? 3000), Math.round(process.uptime() * 1500));
say(`wait ${waitMs}`);
const steps: TestStep[] = [
  // Holds its transaction open a while: a kill often lands between the effect and the commit.
  { key: "a", type: "slow", ms: 150 },
  { key: "pause", type: "wait", ms: waitMs },
  { key: "b", type: "write" },
];
for (let i = 0; i < Number(process.env.RUNS_START ?? 0); i++) {
  await ctx.runs.start(database.db, {
    kind: "test",
    ownerKey: "crash",
    definition: { steps },
    subject: { type: "client", id: `client-${i}` },
  });
}
say("started");

process.on("SIGTERM", async () => {
  await app.close();
  await database.close();
  release();
  process.exit(0);
});
