/**
 * The order test files start in. Vitest runs the longest first when its cache knows how long
 * each file took (a run on this machine before), but a fresh clone or CI has no cache, and then
 * it runs the largest files first — and the longest server files are small ones that spawn
 * processes (a project copy's typecheck and test runs, killed children, a cluster). Started last,
 * one of them is a tail of minutes the whole run waits for, with the other core idle.
 *
 * So the files below, the longest of the server project (from the slowest-files table
 * `npm test` prints), always start first, longest first; every other file keeps vitest's order.
 * Keep the list short and in order of time: a file that stops being long can leave it, a file
 * that tops the table can join it.
 */
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Measured on the 2-core machine under load (10 of these files, two at a time, vitest's JSON
 * report): adding-a-resource over 600 s, runs-crash 428 s, process 301 s, automations-crash
 * 267 s, crm-sequences-crash 263 s, automations 122 s; a typical file takes 10–40 s. Under the
 * default order the four crash and process files, all small, started last.
 */
export const LONG_FILES: readonly string[] = [
  // A copy of the project's typecheck and two vitest runs, side by side.
  "tests/server/adding-a-resource.test.ts",
  // The real app as a child process, killed and started again, with waits that fall due.
  "tests/server/runs-crash.test.ts",
  "tests/server/process.test.ts",
  "tests/server/automations-crash.test.ts",
  "tests/server/crm-sequences-crash.test.ts",
  // The largest file, both engines.
  "tests/server/automations.test.ts",
];

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification) => {
      const index = LONG_FILES.indexOf(path.relative(root, spec.moduleId).split(path.sep).join("/"));
      return index === -1 ? LONG_FILES.length : index;
    };
    // Projects run one after another (vitest groups them): within each, long files first in
    // the list's order, the others as vitest sorted them.
    const projectAt = new Map<string, number>();
    sorted.forEach((spec, position) => {
      if (!projectAt.has(spec.project.name)) projectAt.set(spec.project.name, position);
    });
    return sorted
      .map((spec, position) => ({ spec, position, project: projectAt.get(spec.project.name) ?? 0 }))
      .sort((a, b) => a.project - b.project || rank(a.spec) - rank(b.spec) || a.position - b.position)
      .map(({ spec }) => spec);
  }
}
