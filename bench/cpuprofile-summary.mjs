/**
 * Sums a V8 .cpuprofile (from `node --cpu-prof`) by self time: the top functions, and the
 * top files (node_modules packages folded into one line each), as shares of the samples.
 *
 *   node bench/cpuprofile-summary.mjs /tmp/prof/CPU.*.cpuprofile [--top 30] [--window 20-24,28-32] [--inclusive server/]
 *
 * `--window` keeps the samples of these spans (seconds since the profile began), e.g. the
 * measured slices of one bench case as bench/resource-engine.ts prints them.
 * `--inclusive <text>` adds the total time (self + callees) of the functions whose file
 * contains the text, e.g. `server/` for each of our hooks and handlers.
 */
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [value] = args.splice(at, 2).slice(1);
  return Number(value);
};
const top = option("--top", 30);
const inclusiveAt = args.indexOf("--inclusive");
const inclusive = inclusiveAt >= 0 ? args.splice(inclusiveAt, 2)[1] : null;
const windowAt = args.indexOf("--window");
const windows =
  windowAt >= 0
    ? args
        .splice(windowAt, 2)[1]
        .split(",")
        .map((w) => w.split(/[-–]/).map((x) => Number(x) * 1e6))
    : [[0, Number.POSITIVE_INFINITY]];

for (const file of args) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  let t = profile.startTime;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    const at = t - profile.startTime;
    if (!windows.some(([from, to]) => at >= from && at <= to)) return;
    selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
    total += dt;
  });

  const fileOf = (url) => {
    if (!url) return "(native / vm)";
    const path = url.replace(/^file:\/\//, "");
    const nm = path.lastIndexOf("node_modules/");
    if (nm >= 0) {
      const rest = path.slice(nm + "node_modules/".length).split("/");
      return `npm:${rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]}`;
    }
    return path.replace(/^.*\/work\/[^/]+\//, "");
  };
  const functions = new Map();
  const files = new Map();
  for (const [id, us] of selfUs) {
    const { callFrame } = byId.get(id);
    const where = fileOf(callFrame.url);
    const name = `${callFrame.functionName || "(anonymous)"}  ${where}:${callFrame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
    files.set(where, (files.get(where) ?? 0) + us);
  }
  // Inclusive: each sample counts once for every distinct function on its stack.
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusiveUs = new Map();
  if (inclusive !== null) {
    for (const [id, us] of selfUs) {
      const names = new Set();
      for (let at = id; at !== undefined; at = parent.get(at)) {
        const { callFrame } = byId.get(at);
        const where = fileOf(callFrame.url);
        if (where.includes(inclusive))
          names.add(`${callFrame.functionName || "(anonymous)"}  ${where}:${callFrame.lineNumber + 1}`);
      }
      for (const name of names) inclusiveUs.set(name, (inclusiveUs.get(name) ?? 0) + us);
    }
  }
  const print = (title, map) => {
    console.log(`\n${title}`);
    for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(
        `${((100 * us) / total).toFixed(1).padStart(6)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`,
      );
    }
  };
  const idle = [...selfUs].reduce(
    (a, [id, us]) => (byId.get(id).callFrame.functionName === "(idle)" ? a + us : a),
    0,
  );
  console.log(
    `${file}: ${(total / 1e6).toFixed(1)} s sampled, ${((100 * (total - idle)) / total).toFixed(0)}% busy`,
  );
  print("self time by function", functions);
  print("self time by file / package", files);
  if (inclusive !== null)
    print(`total time (self + callees) of functions in files matching "${inclusive}"`, inclusiveUs);
}
