/** The engine bench's figures: CPU accounting, merged phases and the printed table. */
import { readdirSync, readFileSync } from "node:fs";
import type { PhaseResult } from "./resource-engine-load";
import { CONNECTIONS, DURATION, ROUNDS, WARMUP } from "./resource-engine-settings";

// ---------------------------------------------------------------------------------------------
// CPU accounting: this process (servers; PGlite runs here too) and the PostgreSQL processes
// ---------------------------------------------------------------------------------------------

export const CLOCK_TICK_US = 10_000; // USER_HZ = 100 on Linux

/** utime + stime (µs) of the postmaster and its children; 0 without a cluster or /proc. */
export function postgresCpu(postmasterPid: number | null): number {
  if (!postmasterPid) return 0;
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const pid = Number(entry);
      if (pid !== postmasterPid && Number(fields[1]) !== postmasterPid) continue;
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process went away
    }
  }
  return ticks * CLOCK_TICK_US;
}

export interface CpuSample {
  node: number;
  pg: number;
}

export function cpuNow(postmasterPid: number | null): CpuSample {
  const u = process.cpuUsage();
  return { node: u.user + u.system, pg: postgresCpu(postmasterPid) };
}

// ---------------------------------------------------------------------------------------------
// Running one driver
// ---------------------------------------------------------------------------------------------

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
  /** CPU per request (µs) in this process (Node; PGlite too) and in PostgreSQL. */
  nodeCpu: number;
  pgCpu: number;
}

export interface Phase extends PhaseResult {
  nodeCpu: number;
  pgCpu: number;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function merge(phases: Phase[]): Measured {
  const sum = (f: (p: Phase) => number) => phases.reduce((a, p) => a + f(p), 0);
  const latencies = phases.flatMap((p) => p.latencies).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const p of phases)
    for (const [c, n] of Object.entries(p.statuses)) statuses[c] = (statuses[c] ?? 0) + n;
  const requests = sum((p) => p.requests);
  return {
    rps: requests / sum((p) => p.seconds),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests,
    non2xx: sum((p) => p.non2xx),
    errors: sum((p) => p.errors),
    timeouts: sum((p) => p.timeouts),
    statuses,
    nodeCpu: sum((p) => p.nodeCpu) / Math.max(requests, 1),
    pgCpu: sum((p) => p.pgCpu) / Math.max(requests, 1),
  };
}

export interface Row {
  label: string;
  engine?: Measured;
  floor: Measured;
  /** Counts toward the 0.6× target. */
  target: boolean;
}

export const fmt = (n: number, digits = 0) => n.toFixed(digits);
export const pad = (s: string, n: number) => s.padEnd(n);
export const lpad = (s: string, n: number) => s.padStart(n);

export function problems(r: Measured): string {
  const bad = r.non2xx + r.errors + r.timeouts;
  if (!bad) return "";
  const codes = Object.entries(r.statuses)
    .filter(([c]) => !c.startsWith("2"))
    .map(([c, n]) => `${c}×${n}`)
    .join(" ");
  return ` [!${r.non2xx} non-2xx ${codes}, ${r.errors} errors, ${r.timeouts} timeouts]`;
}

export function printTable(driver: string, rows: Row[], engineRef: Map<string, Measured>) {
  const header = `${pad("case", 44)}${lpad("engine req/s", 13)}${lpad("p99 ms", 8)}${lpad("floor req/s", 13)}${lpad("p99 ms", 8)}${lpad("ratio", 8)}`;
  console.log(
    `\n${driver}: ${CONNECTIONS} connections; per case and side ${WARMUP} s warm-up, then ${DURATION} s measured in ${ROUNDS} slices alternating engine/floor`,
  );
  console.log(header);
  console.log("-".repeat(header.length));
  for (const row of rows) {
    const engine = row.engine ?? engineRef.get(row.label);
    const e = row.engine;
    const ratio = engine ? engine.rps / row.floor.rps : Number.NaN;
    console.log(
      `${pad(row.label, 44)}${lpad(e ? fmt(e.rps) : "(row above)", 13)}${lpad(e ? fmt(e.p99) : "", 8)}${lpad(fmt(row.floor.rps), 13)}${lpad(fmt(row.floor.p99), 8)}${lpad(`${fmt(ratio, 2)}×`, 8)}${e ? problems(e) : ""}${problems(row.floor)}`,
    );
  }
  const cpu = (m: Measured) => `${lpad(fmt(m.nodeCpu), 7)} +${lpad(fmt(m.pgCpu), 6)}`;
  console.log(`
CPU per request, µs (node process incl. PGlite + postgres processes; the load generator excluded)`);
  console.log(`${pad("case", 44)}${lpad("engine node + pg", 17)}${lpad("floor node + pg", 17)}`);
  for (const row of rows) {
    console.log(
      `${pad(row.label, 44)}${lpad(row.engine ? cpu(row.engine) : "(above)", 17)}${lpad(cpu(row.floor), 17)}`,
    );
  }
}
