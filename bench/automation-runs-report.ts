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

export interface Figures {
  driver: Driver;
  where: string;
  accepted: number;
  refused: number;
  startP99: number;
  offeredSeconds: number;
  byStatus: Record<string, number>;
  stepsDone: number;
  steadySteps: { mean: number; min: number; window: string };
  overallStepsPerSecond: number;
  drainSeconds: number;
  lateness: { count: number; p50: number; p99: number; max: number };
  lost: number;
  doubledTasks: number;
  doubledJobs: number;
  retriedSteps: number;
  /** The app's statements from the first start to the last step, and the bench's own. */
  statements: { app: number; bench: number; top: Array<[string, number]> };
  /** CPU from the first start to the last step: this process (app, PGlite, load), PostgreSQL's. */
  cpuMs: { app: number; pg: number };
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
  console.log(`statements per step by shape (bench's own: ${f.statements.bench}, not counted):`);
  for (const [shape, n] of f.statements.top.slice(0, Number(process.env.BENCH_SHAPES || 14)))
    console.log(`  ${perStep(n).padStart(6)}  ${shape}`);
}
