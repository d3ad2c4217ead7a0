/**
 * The automation runs bench's figures and how they are printed beside the targets
 * (bench/automation-runs.ts).
 */

import { STEPS_PER_RUN } from "./automation-runs-flow";
import type { Driver } from "./resource-engine-settings";

/**
 * Issue 28's targets on a 2-core machine: every start accepted; PostgreSQL ≥ 1,000 steps/s while
 * starts come in with delay lateness p99 ≤ 1 s, PGlite ≥ 300 steps/s (no lateness target).
 */
export const TARGETS: Record<Driver, { stepsPerSecond: number; latenessP99Ms: number | null }> = {
  postgres: { stepsPerSecond: 1000, latenessP99Ms: 1000 },
  pglite: { stepsPerSecond: 300, latenessP99Ms: null },
};

export const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "–");
const pad = (s: string, n: number) => s.padEnd(n);

export function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** Steps done per second since the first start (finished times in ms since the epoch, sorted). */
export function stepRates(finishedMs: number[], t0: number, offeredSeconds: number) {
  // The steady window is while starts were offered, after the first delays came due (2 s in):
  // the delayed steps then add to the starts' own steps, the full 5 steps × rate.
  const buckets = new Map<number, number>();
  for (const ms of finishedMs) {
    const b = Math.floor((ms - t0) / 1000);
    buckets.set(b, (buckets.get(b) ?? 0) + 1);
  }
  const from = 2;
  const to = Math.max(from + 1, Math.floor(offeredSeconds));
  const steady: number[] = [];
  for (let b = from; b < to; b++) steady.push(buckets.get(b) ?? 0);
  if (process.env.BENCH_BUCKETS)
    console.log(
      [...buckets.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([b, n]) => `${b}:${n}`)
        .join(" "),
    );
  const lastMs = finishedMs[finishedMs.length - 1] ?? t0;
  return {
    steadySteps: {
      mean: steady.reduce((a, b) => a + b, 0) / steady.length,
      min: Math.min(...steady),
      window: `${from}–${to} s`,
    },
    overallStepsPerSecond: finishedMs.length / ((lastMs - t0) / 1000),
  };
}

/** Quantiles of delay lateness (ms, sorted). */
export const latenessOf = (sorted: number[]) => ({
  count: sorted.length,
  p50: quantile(sorted, 0.5),
  p99: quantile(sorted, 0.99),
  max: sorted[sorted.length - 1] ?? Number.NaN,
});

/** What the app's run and the floor's both measure. */
interface Measured {
  where: string;
  accepted: number;
  startP99: number;
  offeredSeconds: number;
  stepsDone: number;
  steadySteps: { mean: number; min: number; window: string };
  overallStepsPerSecond: number;
  drainSeconds: number;
  lateness: { count: number; p50: number; p99: number; max: number };
  lost: number;
}

/** The floor's figures (bench/automation-runs-floor.ts), under the same load. */
export interface FloorFigures extends Measured {
  doubled: number;
  statements: number;
  cpuMs: { app: number; pg: number };
}

export interface Figures extends Measured {
  driver: Driver;
  /** The app thread's event loop delay while the bench ran (ms). */
  loopDelayMs: { p99: number; max: number };
  refused: number;
  byStatus: Record<string, number>;
  doubledTasks: number;
  doubledJobs: number;
  retriedSteps: number;
  /** The app's statements from the first start to the last step, and the bench's own. */
  statements: { app: number; bench: number; top: Array<[string, number]> };
  /** CPU from the first start to the last step: this process (app, PGlite, load), PostgreSQL's. */
  cpuMs: { app: number; pg: number };
  /** The floor under the same load, when it ran. */
  floor: FloorFigures | null;
}

/** One driver's figures as a table: figure, value, target, met or missed. */
export function print(f: Figures, runs: number, rate: number) {
  const mark = (ok: boolean) => (ok ? "met" : "MISSED");
  const TARGET = TARGETS[f.driver];
  const lateness = TARGET.latenessP99Ms;
  const rows: Array<[string, string, string, string]> = [
    [
      "runs started (201)",
      `${f.accepted} of ${runs} (${f.refused} refused or failed)`,
      `${runs}`,
      mark(f.accepted === runs),
    ],
    ["  start request p99", `${fmt(f.startP99)} ms`, "", ""],
    [
      "  app thread's event loop delay p99 / max",
      `${fmt(f.loopDelayMs.p99)} / ${fmt(f.loopDelayMs.max)} ms`,
      "",
      "",
    ],
    [
      "  starts offered over",
      `${fmt(f.offeredSeconds, 1)} s (${fmt(f.accepted / f.offeredSeconds)} runs/s)`,
      "",
      "",
    ],
    ["runs by status", JSON.stringify(f.byStatus), "", ""],
    ["steps done", `${f.stepsDone} of ${f.accepted * STEPS_PER_RUN}`, "", ""],
    [
      `steps/s sustained (mean, ${f.steadySteps.window})`,
      fmt(f.steadySteps.mean),
      `≥ ${TARGET.stepsPerSecond}`,
      mark(f.steadySteps.mean >= TARGET.stepsPerSecond),
    ],
    ["  slowest second in that window", fmt(f.steadySteps.min), "", ""],
    ["  steps/s, first start to last step", fmt(f.overallStepsPerSecond), "", ""],
    ["  drain after the last start", `${fmt(f.drainSeconds, 1)} s`, "", ""],
    ["delay lateness p50", `${fmt(f.lateness.p50)} ms`, "", ""],
    [
      "delay lateness p99",
      `${fmt(f.lateness.p99)} ms`,
      lateness === null ? "" : `≤ ${lateness} ms`,
      lateness === null ? "" : mark(f.lateness.p99 <= lateness),
    ],
    ["  delay lateness max", `${fmt(f.lateness.max)} ms (${f.lateness.count} delays)`, "", ""],
    ["runs lost (started, not finished)", String(f.lost), "0", mark(f.lost === 0)],
    [
      "runs doubled (task twice / job done twice)",
      `${f.doubledTasks} / ${f.doubledJobs}`,
      "0",
      mark(f.doubledTasks === 0 && f.doubledJobs === 0),
    ],
    ["  steps retried (attempt > 1)", String(f.retriedSteps), "", ""],
  ];
  const perStep = (n: number) => fmt(n / Math.max(1, f.stepsDone), 2);
  rows.push(
    ["statements per step (app's, all of it)", perStep(f.statements.app), "", ""],
    ["  per run started", fmt(f.statements.app / Math.max(1, f.accepted), 1), "", ""],
    ["CPU per step, this process (app + load)", `${perStep(f.cpuMs.app)} ms`, "", ""],
    ["CPU per step, PostgreSQL", `${perStep(f.cpuMs.pg)} ms`, "", ""],
  );
  console.log(`\n${f.driver}: ${runs} runs at ${rate}/s`);
  console.log(`${pad("figure", 44)}${pad("value", 40)}${pad("target", 12)}`);
  for (const [label, value, target, ok] of rows)
    console.log(`${pad(label, 44)}${pad(value, 40)}${pad(target, 12)}${ok}`);
  if (f.floor) printFloor(f, f.floor);
  console.log(`statements per step by shape (bench's own: ${f.statements.bench}, not counted):`);
  for (const [shape, n] of f.statements.top.slice(0, Number(process.env.BENCH_SHAPES || 14)))
    console.log(`  ${perStep(n).padStart(6)}  ${shape}`);
}

/** The app beside its floor under the same load: each figure, the floor's, and app ÷ floor. */
function printFloor(f: Figures, floor: FloorFigures) {
  const per = (n: number, steps: number) => n / Math.max(1, steps);
  const rows: Array<[string, number, number, number]> = [
    ["runs started (201)", f.accepted, floor.accepted, 0],
    ["steps/s sustained while starts come in", f.steadySteps.mean, floor.steadySteps.mean, 0],
    ["steps/s, first start to last step", f.overallStepsPerSecond, floor.overallStepsPerSecond, 0],
    ["delay lateness p99 (ms)", f.lateness.p99, floor.lateness.p99, 0],
    ["start request p99 (ms)", f.startP99, floor.startP99, 0],
    [
      "statements per run started",
      per(f.statements.app, f.accepted),
      per(floor.statements, floor.accepted),
      1,
    ],
    [
      "CPU per step, this process (ms)",
      per(f.cpuMs.app, f.stepsDone),
      per(floor.cpuMs.app, floor.stepsDone),
      2,
    ],
    ["CPU per step, PostgreSQL (ms)", per(f.cpuMs.pg, f.stepsDone), per(floor.cpuMs.pg, floor.stepsDone), 2],
  ];
  console.log(`\nbeside its floor (${floor.where}; lost ${floor.lost}, doubled ${floor.doubled}):`);
  console.log(`${pad("figure", 44)}${pad("app", 12)}${pad("floor", 12)}app ÷ floor`);
  for (const [label, app, base, digits] of rows)
    console.log(
      `${pad(label, 44)}${pad(fmt(app, digits), 12)}${pad(fmt(base, digits), 12)}${fmt(app / base, 2)}`,
    );
}
