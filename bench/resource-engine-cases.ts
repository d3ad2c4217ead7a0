/**
 * The measured cases of the resource engine benchmark (bench/resource-engine.ts): each case is
 * warmed up on both sides, then measured in ROUNDS slices alternating engine and floor.
 */
import { createBody, updateBody } from "./resource-engine-floor";
import type { LoadRunner, LoadSpec } from "./resource-engine-load";
import { cpuNow, merge, type Phase, type Row } from "./resource-engine-report";
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
  /** When each side was measured, in seconds since its process started (for --cpu-prof windows). */
  const windows = { engine: [] as string[], floor: [] as string[] };
  const phase = async (spec: LoadSpec, seconds: number, side: "engine" | "floor"): Promise<Phase> => {
    const before = cpuNow(floor.pid, postmasterPid);
    const from = process.uptime() - (side === "floor" ? floorForkedAt : 0);
    const r = await load.run(spec, seconds);
    windows[side].push(`${from.toFixed(1)}–${(from + seconds).toFixed(1)}`);
    const after = cpuNow(floor.pid, postmasterPid);
    return { ...r, nodeCpu: after[side] - before[side], pgCpu: after.pg - before.pg };
  };
  /** Warm-up each side, then ROUNDS slices alternating engine and floor. */
  const measure = async (label: string, engine: LoadSpec, floorS: LoadSpec) => {
    await load.run(engine, WARMUP);
    await load.run(floorS, WARMUP);
    const e: Phase[] = [];
    const f: Phase[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      e.push(await phase(engine, DURATION / ROUNDS, "engine"));
      f.push(await phase(floorS, DURATION / ROUNDS, "floor"));
    }
    rows.push({ label, engine: merge(e), floor: merge(f) });
    process.stderr.write(
      `  ${driver} ${label}: done (${((Date.now() - t0) / 1000).toFixed(0)} s; measured at s ${windows.engine.join(", ")} of the engine's process, ${windows.floor.join(", ")} of the floor's)\n`,
    );
    windows.engine = [];
    windows.floor = [];
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
  return rows;
}
