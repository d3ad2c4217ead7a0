/**
 * A throwaway kind of run for the engine's tests (runs.test.ts, and the child process of
 * runs-crash.test.ts): its steps write rows to `run_effects` in the step's transaction, so a
 * step that ran twice shows as two rows.
 */
import { sql } from "kysely";
import type {
  Db,
  LinearStep,
  Run,
  RunEngine,
  RunKind,
  RunStep,
  RunSubject,
  RunsMoved,
} from "../../server/runs";
import { linearFlow, PermanentStepError } from "../../server/runs";

export type TestStep = LinearStep &
  (
    | { type: "write" }
    | { type: "slow"; ms: number }
    | { type: "wait"; ms: number }
    | { type: "flaky"; failTimes: number }
    | { type: "fatal" }
    | { type: "call" }
    | { type: "leave"; reason: string }
    | { type: "exitAll"; reason: string }
    | { type: "await"; event: string; timeoutMs: number; onEvent?: string; onTimeout?: string }
  );

export interface TestDefinition {
  steps: TestStep[];
}

export const EFFECTS_SQL = `
  create table if not exists run_effects (
    id bigserial primary key,
    run_id uuid not null,
    step_key text not null,
    attempt integer not null,
    at timestamptz not null default clock_timestamp()
  );
  create table if not exists run_failures (run_id uuid not null, step_key text not null, error text);
  create table if not exists run_optouts (subject_id text primary key);
`;

/** What the test kind's executors saw, for assertions on things outside the database. */
export interface Probe {
  /** `runId:key` → the start time of each attempt of a flaky step. */
  attempts: Map<string, number[]>;
  /** Runs whose flaky steps succeed from now on. */
  healthy: Set<string>;
  /** Outside calls made by 'call' steps' prepare, with their idempotency keys. */
  calls: { key: string; attempt: number }[];
  failed: { run: Run; step: RunStep }[];
  ended: Run[];
  /** What the change feed told (onRunsChanged), in order. */
  moved: RunsMoved[];
  /** Called as each step's effect is written (before its commit). */
  onEffect?: (runId: string, key: string) => void;
  onEnded?: (run: Run) => void;
  /** The engine the kind is registered on (for steps that call it). */
  engine?: RunEngine;
}

export const newProbe = (): Probe => ({
  attempts: new Map(),
  healthy: new Set(),
  calls: [],
  failed: [],
  ended: [],
  moved: [],
});

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function effect(trx: Db, run: Run, key: string, attempt: number, probe: Probe) {
  await sql`insert into run_effects (run_id, step_key, attempt) values (${run.id}, ${key}, ${attempt})`.execute(
    trx,
  );
  probe.onEffect?.(run.id, key);
}

/** Linear, except that an 'await' step may name the step to go to on its event or its timeout. */
const testFlow: RunKind<TestDefinition, TestStep>["flow"] = {
  first: (d) => linearFlow.first(d),
  step: (d, key) => d.steps.find((s) => s.key === key),
  next(d, key, output) {
    const step = d.steps.find((s) => s.key === key);
    if (step?.type === "await") {
      const target = (output as { resumedBy: string }).resumedBy === "event" ? step.onEvent : step.onTimeout;
      if (target !== undefined) return target;
    }
    return linearFlow.next(d, key, output);
  },
};

export function testKind(probe: Probe, overrides: Partial<RunKind<TestDefinition, TestStep>> = {}) {
  const kind: RunKind<TestDefinition, TestStep> = {
    flow: testFlow,
    executors: {
      write: async ({ trx, run, key, attempt }) => {
        await effect(trx, run, key, attempt, probe);
        return { output: { wrote: key }, input: { table: "run_effects" } };
      },
      slow: async ({ trx, run, key, attempt, step }) => {
        await effect(trx, run, key, attempt, probe);
        // Holds the transaction open: a process killed now has written but not committed.
        if (step.type === "slow") await sleep(step.ms);
        return { output: { wrote: key } };
      },
      wait: ({ step }) => ({ nextAt: new Date(Date.now() + (step.type === "wait" ? step.ms : 0)) }),
      flaky: async ({ trx, run, key, attempt, step }) => {
        const id = `${run.id}:${key}`;
        probe.attempts.set(id, [...(probe.attempts.get(id) ?? []), Date.now()]);
        // The effect is written first: a failure must roll it back.
        await effect(trx, run, key, attempt, probe);
        if (step.type === "flaky" && attempt <= step.failTimes && !probe.healthy.has(run.id)) {
          throw new Error(`Flaky step failed on attempt ${attempt}`);
        }
        return { output: { attempt } };
      },
      fatal: () => {
        throw new PermanentStepError("The client cannot be reached");
      },
      call: {
        async prepare({ idempotencyKey, attempt }) {
          probe.calls.push({ key: idempotencyKey, attempt });
          return { status: 202, calls: probe.calls.length };
        },
        async run({ trx, run, key, attempt, prepared }) {
          await effect(trx, run, key, attempt, probe);
          return { output: prepared };
        },
      },
      // Exits every run of its subject, its own included, as a module's code might in a step.
      exitAll: async ({ trx, run, key, attempt, step }) => {
        await effect(trx, run, key, attempt, probe);
        const reason = step.type === "exitAll" ? step.reason : "exit";
        await probe.engine?.exit(trx, { subject: run.subject as RunSubject, reason });
        return { output: { exited: true } };
      },
      leave: ({ step }) => ({ exit: step.type === "leave" ? step.reason : "left", output: { left: true } }),
      await: ({ step }) =>
        step.type === "await"
          ? { awaitEvent: { event: step.event, timeoutAt: new Date(Date.now() + step.timeoutMs) } }
          : undefined,
    },
    async exitCheck(trx, run) {
      if (!run.subject) return null;
      const { rows } = await sql`select 1 from run_optouts where subject_id = ${run.subject.id}`.execute(trx);
      return rows.length ? "opted-out" : null;
    },
    async onRunFailed(trx, run, step) {
      await sql`insert into run_failures (run_id, step_key, error) values (${run.id}, ${step.key}, ${step.error})`.execute(
        trx,
      );
      probe.failed.push({ run, step });
    },
    async onRunEnded(_trx, run) {
      probe.ended.push(run);
      probe.onEnded?.(run);
    },
    async onRunsChanged(_db, moved) {
      probe.moved.push(...moved);
    },
    retry: { attempts: 3, delayMs: (n) => 150 * 2 ** (n - 1) },
    concurrency: 4,
    ...overrides,
  };
  return kind;
}

/** Registers the test kind as 'test' on `engine`. */
export function registerTestKind(
  engine: RunEngine,
  probe: Probe,
  overrides?: Partial<RunKind<TestDefinition, TestStep>>,
) {
  probe.engine = engine;
  engine.registerKind("test", testKind(probe, overrides));
}
