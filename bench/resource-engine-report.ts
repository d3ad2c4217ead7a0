/** The engine bench's figures: CPU accounting, merged phases and the printed table. */
import { readdirSync, readFileSync } from "node:fs";
import type { PhaseResult } from "./resource-engine-load";
import { CONNECTIONS, DURATION, ROUNDS, TARGET, WARMUP } from "./resource-engine-settings";

// ---------------------------------------------------------------------------------------------
// CPU accounting: the engine (this process; its PGlite runs here too), the floor's process
// (with its own PGlite), and the PostgreSQL processes
// ---------------------------------------------------------------------------------------------

export const CLOCK_TICK_US = 10_000; // USER_HZ = 100 on Linux

/**
 * utime + stime (ticks) from a /proc/<pid>/stat line, the parent pid, and cutime + cstime: the
 * children it reaped (a postmaster's backends that ended).
 */
function statOf(pid: string): { ppid: number; ticks: number; reaped: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return {
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]),
      reaped: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return null; // the process went away, or no /proc
  }
}

/** CPU time (µs) of one process; 0 without /proc. */
export function processCpu(pid: number): number {
  return (statOf(String(pid))?.ticks ?? 0) * CLOCK_TICK_US;
}

/**
 * utime + stime (µs) of the postmaster and its children, those that ended included (so a
 * backend that closes between two readings does not take its time with it); 0 without a
 * cluster or /proc.
 */
export function postgresCpu(postmasterPid: number | null): number {
  if (!postmasterPid) return 0;
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(entry);
    if (!stat) continue;
    if (Number(entry) === postmasterPid) ticks += stat.ticks + stat.reaped;
    else if (stat.ppid === postmasterPid) ticks += stat.ticks;
  }
  return ticks * CLOCK_TICK_US;
}

export interface CpuSample {
  engine: number;
  floor: number;
  pg: number;
}

export function cpuNow(floorPid: number, postmasterPid: number | null): CpuSample {
  const u = process.cpuUsage();
  return { engine: u.user + u.system, floor: processCpu(floorPid), pg: postgresCpu(postmasterPid) };
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
  /** CPU per request (µs) in the measured server's process (Node; PGlite too) and in PostgreSQL. */
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
  engine: Measured;
  floor: Measured;
}

export const fmt = (n: number, digits = 0) => n.toFixed(digits);
export const pad = (s: string, n: number) => s.padEnd(n);
export const lpad = (s: string, n: number) => s.padStart(n);

/** Answers other than the `expected` status class ("2": any 2xx; "304"), errors and timeouts. */
export function problems(r: Measured, expected = "2"): string {
  const unexpected = Object.entries(r.statuses).filter(([c]) => !c.startsWith(expected));
  const others = unexpected.reduce((a, [, n]) => a + n, 0);
  if (!others && !r.errors && !r.timeouts) return "";
  const codes = unexpected.map(([c, n]) => `${c}×${n}`).join(" ");
  return ` [!${others} not ${expected === "2" ? "2xx" : expected} ${codes}, ${r.errors} errors, ${r.timeouts} timeouts]`;
}

/** Whether a ratio reaches the target, as printed beside it. */
export const meets = (ratio: number) => (ratio >= TARGET ? "yes" : "NO");

export function printTable(driver: string, rows: Row[]) {
  const header = `${pad("case", 34)}${lpad("engine req/s", 13)}${lpad("p99 ms", 8)}${lpad("floor req/s", 13)}${lpad("p99 ms", 8)}${lpad("ratio", 8)}${lpad(`≥ ${TARGET}×`, 7)}`;
  console.log(
    `\n${driver}: ${CONNECTIONS} connections; per case and side ${WARMUP} s warm-up, then ${DURATION} s measured in ${ROUNDS} slices alternating engine/floor`,
  );
  console.log(header);
  console.log("-".repeat(header.length));
  for (const row of rows) {
    const { engine: e, floor: f } = row;
    const ratio = e.rps / f.rps;
    console.log(
      `${pad(row.label, 34)}${lpad(fmt(e.rps), 13)}${lpad(fmt(e.p99), 8)}${lpad(fmt(f.rps), 13)}${lpad(fmt(f.p99), 8)}${lpad(`${fmt(ratio, 2)}×`, 8)}${lpad(meets(ratio), 7)}${problems(e)}${problems(f)}`,
    );
  }
  const cpu = (m: Measured) => `${lpad(fmt(m.nodeCpu), 7)} +${lpad(fmt(m.pgCpu), 6)}`;
  console.log(
    "\nCPU per request, µs (the server's node process, with its PGlite + the postgres processes; the load generator excluded)",
  );
  console.log(`${pad("case", 34)}${lpad("engine node + pg", 17)}${lpad("floor node + pg", 17)}`);
  for (const row of rows)
    console.log(`${pad(row.label, 34)}${lpad(cpu(row.engine), 17)}${lpad(cpu(row.floor), 17)}`);
}
