/**
 * Where `npm test`'s time goes: the slowest test files, read from the JSON reports the runners
 * leave under .tmp/reports (vitest's for unit and server, Playwright's for e2e). Printed by
 * scripts/test-all.mjs at the end of a run, before the summary, so the file to split or speed up
 * next is named by the run itself.
 *
 * A vitest file's time is its wall time (end − start: hooks and server starts included, which a
 * sum of test durations misses). Playwright reports per-test durations only, so an e2e file's
 * time is the sum of its tests' attempts (one worker runs the files one after another).
 */
import { readFileSync } from "node:fs";
import path from "node:path";

/** @typedef {{ stage: string, file: string, seconds: number, tests: number }} FileTime */

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/** Files of a vitest JSON report with their wall times. */
export function vitestFileTimes(stage, reportFile, root) {
  const json = readJson(reportFile);
  if (!json) return [];
  return (json.testResults ?? []).map((f) => ({
    stage,
    file: path.relative(root, f.name ?? ""),
    seconds: Math.max(0, (f.endTime ?? 0) - (f.startTime ?? 0)) / 1000,
    tests: (f.assertionResults ?? []).length,
  }));
}

/** Files of a Playwright JSON report with the summed durations of their tests' attempts. */
export function playwrightFileTimes(stage, reportFile, root) {
  const json = readJson(reportFile);
  if (!json) return [];
  const testDir = json.config?.rootDir ?? path.join(root, "tests", "e2e");
  /** Sums a suite's (a file's or a describe's) test attempts and counts its tests. */
  const walk = (suite) => {
    let ms = 0;
    let tests = 0;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        tests += 1;
        for (const result of test.results ?? []) ms += result.duration ?? 0;
      }
    }
    for (const child of suite.suites ?? []) {
      const inner = walk(child);
      ms += inner.ms;
      tests += inner.tests;
    }
    return { ms, tests };
  };
  return (json.suites ?? []).map((suite) => {
    const { ms, tests } = walk(suite);
    return {
      stage,
      file: path.relative(root, path.join(testDir, suite.file ?? suite.title)),
      seconds: ms / 1000,
      tests,
    };
  });
}

/** "42.0s" under a minute, "3m 07s" above: a table of stages spans both. */
export function formatSeconds(seconds) {
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds - m * 60);
  return `${m}m ${String(s).padStart(2, "0")}s`;
}

/** Prints the `count` slowest of `files` as a table (nothing when no report was read). */
export function printSlowestFiles(files, count = 20) {
  if (files.length === 0) return;
  const slowest = [...files].sort((a, b) => b.seconds - a.seconds).slice(0, count);
  const width = Math.max(4, ...slowest.map((f) => f.file.length)) + 2;
  console.log(`\n━━━ ${slowest.length} slowest test files ━━━`);
  console.log(`${"time".padStart(8)}  ${"suite".padEnd(8)}${"file".padEnd(width)}tests`);
  for (const f of slowest) {
    console.log(
      `${formatSeconds(f.seconds).padStart(8)}  ${f.stage.padEnd(8)}${f.file.padEnd(width)}${f.tests}`,
    );
  }
}
