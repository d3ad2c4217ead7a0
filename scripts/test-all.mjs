/**
 * `npm test`: every suite a change can break, with live output, then the 20 slowest test files
 * (scripts/test-timings.mjs), a table of the suites with each one's time, and, as the very last
 * line, `N passed, N failed`.
 *
 *   npm test                          all suites
 *   npm test -- --only unit,server    just these (also TEST_ONLY=unit,server)
 *   npm test -- --skip e2e            all but these (also TEST_SKIP=e2e)
 *   TEST_LANES=1 npm test             one suite after another (default: two lanes)
 *
 * Two lanes run side by side, each line of output prefixed with its suite's name: the checks
 * (typecheck, lint, unit) then the server files, beside the build then the end-to-end specs.
 * Server files and e2e specs spend most of their time waiting (on a server, a browser, a
 * timer), so on two cores the lanes overlap rather than queue: a quiet run takes about as long
 * as its longer lane, not the sum (the closing table gives both).
 *
 * typecheck, lint and build count as one test each; unit, server and e2e are counted from
 * their JSON reports (under .tmp/reports). A runner that fails without a failing test in its
 * report (crash, no tests found, config error) counts as at least one failure. A failed step
 * does not stop the run; the exit code is 1 if anything failed.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { root, spaBuildReason } from "./spa-build.mjs";
import { formatSeconds, playwrightFileTimes, printSlowestFiles, vitestFileTimes } from "./test-timings.mjs";

const reportDir = path.join(root, ".tmp", "reports");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const report = (name) => path.join(reportDir, `${name}.json`);
const lanes = process.env.TEST_LANES === "1" ? 1 : 2;

/** @typedef {{ passed: number, failed: number, note?: string }} Count */
/** @typedef {{ name: string, title: string, counted: boolean, lane: number, optIn?: boolean, run: (tag: string) => Promise<Count> }} Suite */

/** Writes a child's stream line by line, each line behind its suite's tag when lanes overlap. */
function relay(stream, out, tag) {
  let rest = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) out.write(`${tag}${line}\n`);
  });
  stream.on("end", () => {
    if (rest) out.write(`${tag}${rest}\n`);
  });
}

/** Runs a command with live output; resolves to its exit code (127 when it could not start). */
function run(tag, cmd, args, env = {}) {
  console.log(`${tag}$ ${[path.relative(root, cmd) || cmd, ...args].join(" ")}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    relay(child.stdout, process.stdout, tag);
    relay(child.stderr, process.stderr, tag);
    child.on("error", (error) => {
      console.error(`${tag}could not run ${cmd}: ${error.message} (did you run npm install?)`);
      resolve(127);
    });
    child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * The machine's CPU time so far (Linux's /proc/stat, in clock ticks): busy and all, or null
 * elsewhere. Read at the start and the end, it says whether a run was short of CPU (a busy
 * share near 100 %: only less work shortens it) or of something else (waits, one lane).
 */
function machineCpu() {
  try {
    const [, ...ticks] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = ticks;
    const all = user + nice + system + idle + iowait + irq + softirq + steal;
    return { busy: all - idle - iowait, all };
  } catch {
    return null;
  }
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/** A step that is one test: passed when the command exits 0. */
function single(cmd, args) {
  return async (tag) =>
    (await run(tag, cmd, args)) === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
}

/** A step whose real result may contradict its exit code: never let a failure go uncounted. */
function settle(code, passed, failed, note) {
  if (code !== 0 && failed === 0) {
    return { passed, failed: 1, note: note ?? `runner exited ${code} without a failing test in its report` };
  }
  return { passed, failed, note };
}

function vitest(project) {
  return async (tag) => {
    const file = report(project);
    rmSync(file, { force: true });
    const code = await run(tag, bin("vitest"), [
      "run",
      "--project",
      project,
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${file}`,
    ]);
    const json = readJson(file);
    if (!json) return settle(code || 1, 0, 0, "no JSON report (runner crashed?)");
    // A file that fails to load has no failing test but is a failure all the same.
    const brokenFiles = (json.testResults ?? []).filter(
      (f) => f.status === "failed" && !(f.assertionResults ?? []).some((a) => a.status === "failed"),
    ).length;
    const note =
      json.numTotalTests === 0
        ? "no tests found"
        : brokenFiles
          ? `${brokenFiles} file(s) failed to run`
          : undefined;
    return settle(code, json.numPassedTests ?? 0, (json.numFailedTests ?? 0) + brokenFiles, note);
  };
}

let buildFailed = false;
const viteBuild = (tag) => run(tag, bin("vite"), ["build"]);

async function build(tag) {
  const code = await viteBuild(tag);
  buildFailed = code !== 0;
  return buildFailed ? { passed: 0, failed: 1 } : { passed: 1, failed: 0 };
}

async function bundle(tag) {
  const script = path.join(root, "bench", "bundle-size.mjs");
  if (!existsSync(script)) return { passed: 0, failed: 0, note: "bench/bundle-size.mjs not written yet" };
  const code = await run(tag, process.execPath, [script]);
  return { passed: 0, failed: 0, note: code === 0 ? "figures above" : `exited ${code} (not a test)` };
}

async function e2e(tag) {
  if (buildFailed) return { passed: 0, failed: 1, note: "not run: the build failed" };
  if (!selected.has("build")) {
    const reason = spaBuildReason();
    if (reason) {
      console.log(`${tag}Building the SPA for e2e (${reason})`);
      if ((await viteBuild(tag)) !== 0) return { passed: 0, failed: 1, note: "not run: the build failed" };
    }
  }
  const file = report("e2e");
  rmSync(file, { force: true });
  const code = await run(tag, bin("playwright"), ["test"], { E2E_JSON_REPORT: file });
  const json = readJson(file);
  if (!json) return settle(code || 1, 0, 0, "no JSON report (config or browser error?)");
  const stats = json.stats ?? {};
  const passed = (stats.expected ?? 0) + (stats.flaky ?? 0);
  const errors = (json.errors ?? []).length;
  const failed = (stats.unexpected ?? 0) + (errors && !stats.unexpected ? 1 : 0);
  const notes = [];
  if (stats.flaky) notes.push(`${stats.flaky} flaky`);
  if (stats.skipped) notes.push(`${stats.skipped} skipped`);
  if (errors) notes.push(`${errors} error(s) outside tests`);
  if (passed + failed === 0) notes.push("no tests ran");
  return settle(code, passed, failed, notes.join(", ") || undefined);
}

/** @type {Suite[]} */
const SUITES = [
  {
    name: "typecheck",
    title: "tsc --noEmit",
    counted: true,
    lane: 0,
    // Incremental: a run after a small change checks little again, and the project copy of
    // tests/server/adding-a-resource.test.ts starts from this state rather than from nothing.
    run: single(bin("tsc"), [
      "-p",
      "tsconfig.json",
      "--noEmit",
      "--incremental",
      "--tsBuildInfoFile",
      path.join(".tmp", "tsc.tsbuildinfo"),
    ]),
  },
  { name: "lint", title: "biome check", counted: true, lane: 0, run: single(bin("biome"), ["check", "."]) },
  { name: "unit", title: "vitest unit", counted: true, lane: 0, run: vitest("unit") },
  { name: "server", title: "vitest server", counted: true, lane: 0, run: vitest("server") },
  // The second lane: e2e waits for the build, and starts as soon as it is done.
  { name: "build", title: "vite build", counted: true, lane: 1, run: build },
  // Figures, not a test (the e2e first-load spec asserts the budgets): only when asked for by
  // name, `npm test -- --only build,bundle`, or with `npm run bench:bundle`.
  { name: "bundle", title: "bundle size", counted: false, lane: 1, optIn: true, run: bundle },
  { name: "e2e", title: "playwright", counted: true, lane: 1, run: e2e },
];

/** Names from `--only a,b` / `--only=a,b` (or the env var), validated. */
function listArg(flag, envName) {
  const argv = process.argv.slice(2);
  let raw = process.env[envName] ?? "";
  argv.forEach((arg, i) => {
    if (arg === flag) raw = argv[i + 1] ?? "";
    else if (arg.startsWith(`${flag}=`)) raw = arg.slice(flag.length + 1);
  });
  const names = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !SUITES.some((s) => s.name === n));
  if (unknown.length) {
    console.error(`Unknown suite(s) ${unknown.join(", ")}; known: ${SUITES.map((s) => s.name).join(", ")}`);
    process.exit(2);
  }
  return names;
}

const only = listArg("--only", "TEST_ONLY");
const skip = listArg("--skip", "TEST_SKIP");
const selected = new Set(
  SUITES.filter((s) => (only.length === 0 ? !s.optIn : only.includes(s.name)) && !skip.includes(s.name)).map(
    (s) => s.name,
  ),
);

mkdirSync(reportDir, { recursive: true });
const chosen = SUITES.filter((s) => selected.has(s.name));
// Tags only when two suites may print at once; a lane with nothing chosen is no lane.
const laneOf = (suite) => (lanes === 1 ? 0 : suite.lane);
const laneCount = new Set(chosen.map(laneOf)).size;
const width = Math.max(...chosen.map((s) => s.name.length));
/** @type {Map<string, { suite: Suite, count: Count, seconds: number }>} */
const results = new Map();
const runStarted = Date.now();
const cpuAtStart = machineCpu();

async function runLane(suites) {
  for (const suite of suites) {
    const tag = laneCount > 1 ? `${suite.name.padEnd(width)} │ ` : "";
    console.log(`\n${tag}━━━ ${suite.name}: ${suite.title} ━━━`);
    const started = Date.now();
    const count = await suite.run(tag);
    const seconds = (Date.now() - started) / 1000;
    results.set(suite.name, { suite, count, seconds });
    console.log(
      `${tag}━━━ ${suite.name} done in ${formatSeconds(seconds)}: ${count.passed} passed, ${count.failed} failed ━━━`,
    );
  }
}

const byLane = new Map();
for (const suite of chosen) byLane.set(laneOf(suite), [...(byLane.get(laneOf(suite)) ?? []), suite]);
await Promise.all([...byLane.values()].map(runLane));
const wallSeconds = (Date.now() - runStarted) / 1000;
const rows = chosen.map((s) => results.get(s.name)).filter(Boolean);

// Only the reports this run wrote: each runner deletes its report before it starts.
const ran = new Set(rows.map((r) => r.suite.name));
printSlowestFiles([
  ...(ran.has("unit") ? vitestFileTimes("unit", report("unit"), root) : []),
  ...(ran.has("server") ? vitestFileTimes("server", report("server"), root) : []),
  ...(ran.has("e2e") ? playwrightFileTimes("e2e", report("e2e"), root) : []),
]);

const pad = (value, width) => String(value).padEnd(width);
console.log("\n━━━ summary ━━━");
console.log(
  `${pad("suite", 11)}${pad("result", 8)}${pad("passed", 8)}${pad("failed", 8)}${pad("time", 10)}note`,
);
let passed = 0;
let failed = 0;
let summedSeconds = 0;
for (const { suite, count, seconds } of rows) {
  const result = !suite.counted ? "info" : count.failed ? "FAIL" : "ok";
  const shown = suite.counted ? [count.passed, count.failed] : ["-", "-"];
  console.log(
    `${pad(suite.name, 11)}${pad(result, 8)}${pad(shown[0], 8)}${pad(shown[1], 8)}${pad(formatSeconds(seconds), 10)}${count.note ?? ""}`,
  );
  summedSeconds += seconds;
  if (suite.counted) {
    passed += count.passed;
    failed += count.failed;
  }
}
const overlap =
  laneCount > 1
    ? `wall clock; the stages' times add up to ${formatSeconds(summedSeconds)} (${laneCount} lanes)`
    : "";
console.log(
  `${pad("total", 11)}${pad(failed ? "FAIL" : "ok", 8)}${pad(passed, 8)}${pad(failed, 8)}${pad(formatSeconds(wallSeconds), 10)}${overlap}`,
);
const cpuAtEnd = machineCpu();
if (cpuAtStart && cpuAtEnd && cpuAtEnd.all > cpuAtStart.all) {
  const share = (cpuAtEnd.busy - cpuAtStart.busy) / (cpuAtEnd.all - cpuAtStart.all);
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  console.log(
    `CPU: the machine's ${cores} core(s) were busy ${Math.round(share * 100)} % of the run (every process on it counted)`,
  );
}
process.exitCode = failed > 0 ? 1 : 0;
console.log(`${passed} passed, ${failed} failed`);
