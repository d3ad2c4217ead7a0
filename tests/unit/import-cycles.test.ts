/**
 * Every folder reads from the bottom up: no file imports, through any chain, a file that imports
 * it back. A run-time cycle anywhere fails (module evaluation order would then decide whether a
 * binding is defined yet); a cycle through type-only imports fails too, unless it is on the short
 * allow-list below with its reason. scripts/import-cycles.mjs prints the same graph
 * (`node scripts/import-cycles.mjs --types`).
 */
import { describe, expect, it } from "vitest";
import { cycles, edgesOf, edgesWithin, projectCycles } from "../../scripts/import-cycles.mjs";

/** Loops through type-only imports that are left, each with why. Keep it short. */
const ALLOWED_TYPE_CYCLES: { files: string[]; why: string }[] = [
];

const describeCycle = (component: string[], edges: ReturnType<typeof projectCycles>["edges"]) =>
  [
    component.join(" ⇄ "),
    ...edgesWithin(component, edges).map(
      (e) => `  ${e.from}:${e.line} → ${e.to}${e.runtime ? "" : " (type)"}`,
    ),
  ].join("\n");

describe("import cycles", () => {
  const project = projectCycles();
  const key = (files: string[]) => [...files].sort().join("\n");
  const allowed = new Set(ALLOWED_TYPE_CYCLES.map((a) => key(a.files)));

  it("reads the whole project", () => {
    expect(project.files.length).toBeGreaterThan(500);
    expect(project.files).toContain("server/context.ts");
    expect(project.files).toContain("src/pages/automation/automation-api.ts");
  });

  it("has no run-time import cycle", () => {
    const runtimeEdges = project.edges.filter((e) => e.runtime);
    expect(project.runtime.map((c) => describeCycle(c, runtimeEdges))).toEqual([]);
  });

  it("has no cycle through type-only imports beyond the allow-list", () => {
    const unexpected = project.all.filter((c) => !allowed.has(key(c)));
    expect(unexpected.map((c) => describeCycle(c, project.edges))).toEqual([]);
  });

  it("keeps no stale entry on the allow-list", () => {
    const found = new Set(project.all.map(key));
    expect(ALLOWED_TYPE_CYCLES.filter((a) => !found.has(key(a.files))).map((a) => a.files)).toEqual([]);
  });
});

describe("the cycle finder", () => {
  const known = new Set(["a.ts", "b.ts", "c.ts", "d/index.ts"]);

  it("tells run-time imports from erased ones", () => {
    const text = [
      'import type { A } from "./a";',
      'import { type B } from "./b";',
      'import { C, OnlyType } from "./c";',
      'import { D } from "./d";',
      'import "./a";',
      'export { x } from "./b";',
      'export type { y } from "./c";',
      "const c: OnlyType = C;",
      "interface I { d: D }",
    ].join("\n");
    expect(edgesOf("x.ts", text, known).map((e) => [e.to, e.runtime])).toEqual([
      ["a.ts", false],
      ["b.ts", false],
      ["c.ts", true],
      ["d/index.ts", false],
      ["a.ts", true],
      ["b.ts", true],
      ["c.ts", false],
    ]);
  });

  it("counts a class's base as run time and an implemented interface as a type", () => {
    const text =
      'import { Base } from "./a";\nimport { Shape } from "./b";\nclass K extends Base implements Shape {}';
    expect(edgesOf("x.ts", text, known).map((e) => e.runtime)).toEqual([true, false]);
  });

  it("finds each strongly connected component once, largest first", () => {
    const edge = (from: string, to: string) => ({ from, to, runtime: true, line: 1 });
    const files = ["a", "b", "c", "d", "e", "f"];
    const found = cycles(files, [
      edge("a", "b"),
      edge("b", "c"),
      edge("c", "a"),
      edge("c", "d"),
      edge("d", "e"),
      edge("e", "d"),
      edge("f", "f"),
    ]);
    expect(found).toEqual([["a", "b", "c"], ["d", "e"], ["f"]]);
  });
});
