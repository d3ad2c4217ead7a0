/**
 * docs/adding-a-resource.md, followed to the letter in a copy of the project: its files
 * written, its `npm run migration:new` lines run, and then the copy's typecheck, lint and the
 * generic tests, which must pass and must have seen the new entity. This is the proof that an
 * entity is its definition files plus a generated migration, with no edit anywhere else, and
 * that the doc says exactly how. Slow (a typecheck and two vitest runs): the checks run
 * side by side, started once the copy is ready.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { applyDiff, type DocStep, entitiesOf, walkthroughSteps, withoutNumber } from "./doc-walkthrough";
import {
  changedFiles,
  childEnv,
  copyProject,
  fileHashes,
  type RunResult,
  run,
  seedTypecheckState,
  TYPECHECK_STATE,
  tail,
} from "./project-copy";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DOC = "docs/adding-a-resource.md";
const bin = (copy: string, name: string) => path.join(copy, "node_modules", ".bin", name);

/** The generic server tests: every route, every table (both loop over the discovered definitions). */
const SERVER_TESTS = ["tests/server/resource-contract.test.ts", "tests/server/routes.test.ts"];

/**
 * The generic unit tests: all of tests/unit, and every unit test that reads the discovered
 * lists (`RESOURCES`, `MODULES`), so a new generic test is picked up by itself.
 */
function genericUnitTests(copy: string): string[] {
  const found: string[] = [];
  for (const dir of ["src", "providers", "schemas", "resources", "tests/unit"]) {
    for (const name of readdirSync(path.join(copy, dir), { recursive: true }) as string[]) {
      if (!name.endsWith(".test.ts")) continue;
      const file = `${dir}/${name.split(path.sep).join("/")}`;
      const source = readFileSync(path.join(copy, file), "utf8");
      if (dir === "tests/unit" || /\b(RESOURCES|MODULES)\b/.test(source)) found.push(file);
    }
  }
  return found.sort();
}

interface VitestReport {
  numTotalTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

interface VitestRun {
  result: RunResult;
  report: VitestReport | null;
}

/** A vitest project run in the copy, with its JSON report. */
async function vitest(copy: string, project: string, files: string[], env: Record<string, string> = {}) {
  const reportFile = path.join(copy, ".tmp", `doc-${project}.json`);
  const result = await run(
    bin(copy, "vitest"),
    [
      "run",
      "--project",
      project,
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${reportFile}`,
      ...files,
    ],
    copy,
    childEnv(env),
  );
  let report: VitestReport | null = null;
  try {
    report = JSON.parse(readFileSync(reportFile, "utf8"));
  } catch {
    // No report: the run crashed before writing one; its output tail says why.
  }
  return { result, report } satisfies VitestRun;
}

/** Failed files and tests of a report, with their first message: what to read first. */
function failures({ result, report }: VitestRun): string {
  if (!report) return `no JSON report\n${tail(result)}`;
  const lines: string[] = [];
  for (const file of report.testResults) {
    const failed = file.assertionResults.filter((a) => a.status === "failed");
    if (file.status === "failed" && !failed.length) lines.push(`${file.name}: ${file.message ?? "failed"}`);
    for (const a of failed) {
      // The message and where it failed, without the runner's own stack frames.
      const message = (a.failureMessages[0] ?? "")
        .split("\n")
        .filter((l) => !/^\s+at .*node_modules/.test(l));
      lines.push(`${a.fullName}\n  ${message.slice(0, 8).join("\n  ")}`);
    }
  }
  return `${lines.join("\n")}\n\n${tail(result, 40)}`;
}

/** Names of the passing tests of a report that name `word` (as a whole word). */
const passingNames = (report: VitestReport | null, word: string) =>
  (report?.testResults ?? [])
    .flatMap((f) => f.assertionResults)
    .filter((a) => a.status === "passed" && new RegExp(`(^|[^\\w-])${word}([^\\w-]|$)`).test(a.fullName))
    .map((a) => a.fullName);

describe("docs/adding-a-resource.md, followed in a copy of the project", { timeout: 600_000 }, () => {
  const pgUrl = inject("pgUrl");
  let copy = "";
  const steps: DocStep[] = walkthroughSteps(readFileSync(path.join(ROOT, DOC), "utf8"));
  const written = new Set<string>();
  const generated: string[] = [];
  /** Blocks that show a migration the command did not write. */
  const mismatches: string[] = [];
  let changes: ReturnType<typeof changedFiles>;
  let checks: {
    typecheck: Promise<RunResult>;
    lint: Promise<RunResult>;
    unit: Promise<VitestRun>;
    server: Promise<VitestRun>;
  };

  beforeAll(async () => {
    copy = mkdtempSync(path.join(os.tmpdir(), "atelier-doc-"));
    copyProject(ROOT, copy);
    mkdirSync(path.join(copy, ".tmp"));
    const before = fileHashes(copy);
    let lastWritten: string[] = [];
    for (const step of steps) {
      if (step.kind === "file") {
        writeFileSync(path.join(copy, step.path), step.text, { flag: "wx" });
        written.add(step.path);
      } else if (step.kind === "diff") {
        applyDiff(copy, step);
        written.add(step.path);
      } else if (step.kind === "command") {
        const migrations = () => new Set(readdirSync(path.join(copy, "server/db/migrations")));
        const had = migrations();
        const result = await run("sh", ["-c", step.command], copy, childEnv());
        if (result.code !== 0) throw new Error(`docs line ${step.line}: the command failed\n${tail(result)}`);
        lastWritten = [...migrations()].filter((f) => !had.has(f)).map((f) => `server/db/migrations/${f}`);
        generated.push(...lastWritten);
      } else {
        // What the doc shows must be what the last command wrote, but for its number.
        const file = lastWritten.find((f) => withoutNumber(f) === withoutNumber(step.path));
        const actual = file ? readFileSync(path.join(copy, file), "utf8") : null;
        if (actual !== step.text) {
          mismatches.push(
            `docs line ${step.line} shows ${step.path}, but the command before it wrote ` +
              (actual === null ? `${lastWritten.join(", ") || "no migration"}` : `${file}:\n${actual}`),
          );
        }
      }
    }
    changes = changedFiles(before, fileHashes(copy));

    // The checks of `npm test`, on the copy, side by side. The typecheck starts from the
    // project's own (npm test runs it first), so it checks again what the doc changed, not all.
    const newSources = [...written, ...generated].filter((f) => f.endsWith(".ts"));
    seedTypecheckState(ROOT, copy);
    checks = {
      typecheck: run(
        bin(copy, "tsc"),
        ["-p", "tsconfig.json", "--noEmit", "--incremental", "--tsBuildInfoFile", TYPECHECK_STATE],
        copy,
        childEnv(),
      ),
      lint: run(bin(copy, "biome"), ["check", ...newSources], copy, childEnv()),
      unit: vitest(copy, "unit", genericUnitTests(copy)),
      // The same PostgreSQL server as this run, if it has one: the copy's tests make their own databases on it.
      server: vitest(copy, "server", SERVER_TESTS, pgUrl ? { TEST_DATABASE_URL: pgUrl } : {}),
    };
  }, 120_000);

  afterAll(async () => {
    // Let every check finish before its folder goes.
    if (checks) await Promise.all(Object.values(checks));
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  const entities = () => steps.flatMap((s) => (s.kind === "command" ? entitiesOf(s.command) : []));
  const moduleKeys = () =>
    steps.flatMap((s) =>
      s.kind === "file" ? (/^resources\/([\w-]+)\.module\.ts$/.exec(s.path)?.[1] ?? []) : [],
    );

  it("walks a new module and entity: definition files, migration:new, and the migration it writes", () => {
    const files = steps.filter((s) => s.kind === "file").map((s) => s.path);
    expect(files.filter((f) => f.endsWith(".module.ts")).length, "a module file").toBeGreaterThan(0);
    expect(files.filter((f) => f.startsWith("schemas/")).length, "a schema file").toBeGreaterThan(0);
    expect(
      files.filter((f) => /^resources\/[\w-]+(?<!\.module)\.ts$/.test(f)).length,
      "a resource file",
    ).toBeGreaterThan(0);
    expect(entities().length, "an npm run migration:new line").toBeGreaterThan(0);
    expect(
      steps.some((s) => s.kind === "generated"),
      "the migration it writes, shown",
    ).toBe(true);
    // Definitions only: the doc never asks for a file outside resources/ and schemas/.
    expect([...written].filter((f) => !/^(resources|schemas)\/[\w.-]+\.ts$/.test(f))).toEqual([]);
    expect(mismatches.join("\n\n")).toBe("");
  });

  it("changes no file but its definitions and the generated migrations and snapshots", () => {
    expect(changes.removed).toEqual([]);
    expect(changes.changed).toEqual([]);
    const expected = (f: string) =>
      written.has(f) || generated.includes(f) || /^server\/db\/snapshots\/[a-z0-9_]+\.json$/.test(f);
    expect(changes.added.filter((f) => !expected(f))).toEqual([]);
    expect(generated.length, "one migration per migration:new line").toBe(
      steps.filter((s) => s.kind === "command").length,
    );
  });

  it("passes the typecheck and the lint", async () => {
    const typecheck = await checks.typecheck;
    expect(typecheck.code, tail(typecheck)).toBe(0);
    const lint = await checks.lint;
    expect(lint.code, tail(lint)).toBe(0);
  });

  it("passes the generic unit tests, which check the new module and entity", async () => {
    const unit = await checks.unit;
    expect(unit.result.code === 0 && unit.report?.numFailedTests === 0, failures(unit)).toBe(true);
    for (const name of [...entities(), ...moduleKeys()]) {
      expect(passingNames(unit.report, name).length, `a passing unit test names ${name}`).toBeGreaterThan(0);
    }
  });

  it("passes the generic server tests on every database, on the new entity's table too", async () => {
    const server = await checks.server;
    expect(server.result.code === 0 && server.report?.numFailedTests === 0, failures(server)).toBe(true);
    for (const driver of pgUrl ? ["pglite", "postgres"] : ["pglite"]) {
      for (const name of entities()) {
        const names = passingNames(server.report, name).filter((n) => n.includes(` on ${driver} `));
        expect(names.length, `a passing server test on ${driver} names ${name}`).toBeGreaterThan(0);
      }
    }
  });
});
