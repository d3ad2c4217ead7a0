/**
 * `npm test`: every suite a change can break, in order, with live output, then the 20 slowest
 * test files (scripts/test-timings.mjs), a table of the suites with each one's time, and, as the
 * very last line, `N passed, N failed`.
 *
 *   npm test                          all suites
 *   npm test -- --only unit,server    just these (also TEST_ONLY=unit,server)
 *   npm test -- --skip e2e            all but these (also TEST_SKIP=e2e)
 *
 * typecheck, lint and build count as one test each; unit, server and e2e are counted from
 * their JSON reports (under .tmp/reports). A runner that fails without a failing test in its
 * report (crash, no tests found, config error) counts as at least one failure. A failed step
 * does not stop the run; the exit code is 1 if anything failed.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { root, runViteBuild, spaBuildReason } from "./spa-build.mjs";
import { formatSeconds, playwrightFileTimes, printSlowestFiles, vitestFileTimes } from "./test-timings.mjs";

const reportDir = path.join(root, ".tmp", "reports");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const report = (name) => path.join(reportDir, `${name}.json`);

/** @typedef {{ passed: number, failed: number, note?: string }} Count */
/** @typedef {{ name: string, title: string, counted: boolean, optIn?: boolean, run: () => Count }} Suite */

/** Runs a command with live output; returns its exit code (127 when it could not start). */
function run(cmd, args, env = {}) {
  console.log(`\n$ ${[path.relative(root, cmd) || cmd, ...args].join(" ")}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (result.error) {
    console.error(`could not run ${cmd}: ${result.error.message}`);
    return 127;
  }
  return result.status ?? 1;
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
  return () => (run(cmd, args) === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 });
}

/** A step whose real result may contradict its exit code: never let a failure go uncounted. */
function settle(code, passed, failed, note) {
  if (code !== 0 && failed === 0) {
    return { passed, failed: 1, note: note ?? `runner exited ${code} without a failing test in its report` };
  }
  return { passed, failed, note };
}

function vitest(project) {
  return () => {
    const file = report(project);
    rmSync(file, { force: true });
    const code = run(bin("vitest"), [
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

function build() {
  const code = runViteBuild();
  buildFailed = code !== 0;
  return buildFailed ? { passed: 0, failed: 1 } : { passed: 1, failed: 0 };
}

function bundle() {
  const script = path.join(root, "bench", "bundle-size.mjs");
  if (!existsSync(script)) return { passed: 0, failed: 0, note: "bench/bundle-size.mjs not written yet" };
  const code = run(process.execPath, [script]);
  return { passed: 0, failed: 0, note: code === 0 ? "figures above" : `exited ${code} (not a test)` };
}

function e2e() {
  if (buildFailed) return { passed: 0, failed: 1, note: "not run: the build failed" };
  if (!selected.has("build")) {
    const reason = spaBuildReason();
    if (reason) {
      console.log(`\nBuilding the SPA for e2e (${reason})`);
      if (runViteBuild() !== 0) return { passed: 0, failed: 1, note: "not run: the build failed" };
    }
  }
  const file = report("e2e");
  rmSync(file, { force: true });
  const code = run(bin("playwright"), ["test"], { E2E_JSON_REPORT: file });
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
    run: single(bin("tsc"), ["-p", "tsconfig.json", "--noEmit"]),
  },
  { name: "lint", title: "biome check", counted: true, run: single(bin("biome"), ["check", "."]) },
  { name: "unit", title: "vitest unit", counted: true, run: vitest("unit") },
  { name: "server", title: "vitest server", counted: true, run: vitest("server") },
  { name: "build", title: "vite build", counted: true, run: build },
  // Figures, not a test (the e2e first-load spec asserts the budgets): only when asked for by
  // name, `npm test -- --only build,bundle`, or with `npm run bench:bundle`.
  { name: "bundle", title: "bundle size", counted: false, optIn: true, run: bundle },
  { name: "e2e", title: "playwright", counted: true, run: e2e },
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
const rows = [];
for (const suite of SUITES) {
  if (!selected.has(suite.name)) continue;
  console.log(`\n━━━ ${suite.name}: ${suite.title} ━━━`);
  const started = Date.now();
  const count = suite.run();
  rows.push({ suite, count, seconds: (Date.now() - started) / 1000 });
}

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
let totalSeconds = 0;
for (const { suite, count, seconds } of rows) {
  const result = !suite.counted ? "info" : count.failed ? "FAIL" : "ok";
  const shown = suite.counted ? [count.passed, count.failed] : ["-", "-"];
  console.log(
    `${pad(suite.name, 11)}${pad(result, 8)}${pad(shown[0], 8)}${pad(shown[1], 8)}${pad(formatSeconds(seconds), 10)}${count.note ?? ""}`,
  );
  totalSeconds += seconds;
  if (suite.counted) {
    passed += count.passed;
    failed += count.failed;
  }
}
console.log(
  `${pad("total", 11)}${pad(failed ? "FAIL" : "ok", 8)}${pad(passed, 8)}${pad(failed, 8)}${formatSeconds(totalSeconds)}`,
);
process.exitCode = failed > 0 ? 1 : 0;
console.log(`${passed} passed, ${failed} failed`);
