/**
 * The measured cases of the resource engine benchmark (bench/resource-engine.ts), the products'
 * then the module lists' (bench/module-lists.ts): each case is warmed up on both sides, then
 * measured in ROUNDS slices alternating engine and floor (`measureSides`, shared with
 * bench/cms-public.ts).
 */
import { createBody, updateBody } from "./resource-engine-floor";
import type { LoadRunner, LoadSpec, PhaseResult } from "./resource-engine-load";
import { cpuNow, type Measured, merge, type Phase, type Row } from "./resource-engine-report";
import {
  CASES,
  CONNECTIONS,
  type Driver,
  DURATION,
  floorListPath,
  listPath,
  PAGE_SIZE,
  ROUNDS,
  WARMUP,
} from "./resource-engine-settings";
import type { Sides } from "./resource-engine-setup";

/** One side of a measured case: what autocannon sends, and which process answers it. */
export interface MeasuredSide {
  spec: LoadSpec;
  /** "engine": this process (the app); "floor": the floor's process. */
  process: "engine" | "floor";
}

/** The processes whose CPU is counted, and when the floor's was forked (for --cpu-prof windows). */
export interface Processes {
  floorPid: number;
  floorForkedAt: number;
  postmasterPid: number | null;
}

/**
 * Warms each side up (WARMUP s), then measures them in `rounds` slices of DURATION / rounds s
 * each, alternating (ABAB…, or ABCABC…). Per side: the merged figures, when it was
 * measured, in seconds since its process started (for `cpuprofile-summary.mjs --window`), and
 * every autocannon run of it, the warm-up first (what it sent in all, e.g. to count what was stored).
 */
export async function measureSides(
  load: LoadRunner,
  sides: readonly MeasuredSide[],
  processes: Processes,
  rounds = ROUNDS,
): Promise<Array<{ measured: Measured; window: string; runs: PhaseResult[] }>> {
  const { floorPid, floorForkedAt, postmasterPid } = processes;
  const phase = async (side: MeasuredSide, seconds: number, windows: string[]): Promise<Phase> => {
    const before = cpuNow(floorPid, postmasterPid);
    const from = process.uptime() - (side.process === "floor" ? floorForkedAt : 0);
    const r = await load.run(side.spec, seconds);
    windows.push(`${from.toFixed(1)}–${(from + seconds).toFixed(1)}`);
    const after = cpuNow(floorPid, postmasterPid);
    return { ...r, nodeCpu: after[side.process] - before[side.process], pgCpu: after.pg - before.pg };
  };
  const warmups: PhaseResult[] = [];
  for (const side of sides) warmups.push(await load.run(side.spec, WARMUP));
  const phases = sides.map(() => [] as Phase[]);
  const windows = sides.map(() => [] as string[]);
  for (let round = 0; round < rounds; round++) {
    for (const [i, side] of sides.entries()) phases[i].push(await phase(side, DURATION / rounds, windows[i]));
  }
  return sides.map((_, i) => ({
    measured: merge(phases[i]),
    window: windows[i].join(","),
    runs: [warmups[i], ...phases[i]],
  }));
}

/** Runs every selected case against both sides; one row per case. */
export async function runCases(driver: Driver, sides: Sides, load: LoadRunner, t0: number): Promise<Row[]> {
  const { engineUrl, token, floor, floorUrl, floorForkedAt, postmasterPid, data } = sides;
  const base = { connections: CONNECTIONS };
  const engineSpec = (s: Partial<LoadSpec>): LoadSpec => ({
    ...base,
    url: engineUrl,
    token,
    kind: "fixed",
    ...s,
  });
  const floorSpec = (s: Partial<LoadSpec>): LoadSpec => ({ ...base, url: floorUrl, kind: "fixed", ...s });
  const rows: Row[] = [];
  /** Warm-up each side, then ROUNDS slices alternating engine and floor. */
  const measure = async (label: string, engine: LoadSpec, floorS: LoadSpec) => {
    const [e, f] = await measureSides(
      load,
      [
        { spec: engine, process: "engine" },
        { spec: floorS, process: "floor" },
      ],
      { floorPid: floor.pid, floorForkedAt, postmasterPid },
    );
    rows.push({ label, engine: e.measured, floor: f.measured });
    process.stderr.write(
      `  ${driver} ${label}: done (${((Date.now() - t0) / 1000).toFixed(0)} s; measured at s ${e.window} of the engine's process, ${f.window} of the floor's)\n`,
    );
  };

  if (CASES.has("list")) {
    await measure(
      `list p1 ×${PAGE_SIZE}, filter+sort, total`,
      engineSpec({ path: listPath(1) }),
      floorSpec({ path: floorListPath(1) }),
    );
  }
  if (CASES.has("get")) {
    await measure(
      "get one (100 ids rotating)",
      engineSpec({ kind: "get", prefix: "/api/products", ids: data.ids }),
      floorSpec({ kind: "get", prefix: "/floor/products", ids: floor.ready.ids }),
    );
  }
  if (CASES.has("create")) {
    await measure(
      "create (unique sku)",
      engineSpec({
        kind: "create",
        path: "/api/products",
        body: createBody(data.categoryId),
        skuPrefix: "BENCH-E",
      }),
      floorSpec({
        kind: "create",
        path: "/floor/products",
        body: createBody(floor.ready.categoryId),
        skuPrefix: "BENCH-F",
      }),
    );
  }
  if (CASES.has("update")) {
    await measure(
      "update name+price (100 ids)",
      engineSpec({
        kind: "update",
        prefix: "/api/products",
        ids: data.ids,
        body: updateBody,
        skuPrefix: "E",
      }),
      floorSpec({
        kind: "update",
        prefix: "/floor/products",
        ids: floor.ready.ids,
        body: updateBody,
        skuPrefix: "F",
      }),
    );
  }
  if (sides.modules) {
    const { cases, ids } = sides.modules;
    for (const c of cases)
      await measure(c.label, engineSpec({ path: c.enginePath(ids) }), floorSpec({ path: c.floorPath(ids) }));
  }
  return rows;
}
