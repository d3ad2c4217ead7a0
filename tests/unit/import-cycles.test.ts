/**
 * Every folder reads from the bottom up: no file imports, through any chain, a file that imports
 * it back. A run-time cycle would let module evaluation order decide whether a binding is
 * defined yet; a cycle through type-only imports costs nothing at run time but still leaves two
 * files that cannot be read one before the other, so it fails too. To untie one: move the shared
 * types to a file of their own, or hand the service in (server/core-context.ts).
 * `node scripts/import-cycles.mjs --types` prints the same graph.
 */
import { describe, expect, it } from "vitest";
import { cycles, edgesOf, edgesWithin, projectCycles } from "../../scripts/import-cycles.mjs";

const describeCycle = (component: string[], edges: ReturnType<typeof projectCycles>["edges"]) =>
  [
    component.join(" ⇄ "),
    ...edgesWithin(component, edges).map(
      (e) => `  ${e.from}:${e.line} → ${e.to}${e.runtime ? "" : " (type)"}`,
    ),
  ].join("\n");

describe("import cycles", () => {
  const project = projectCycles();

  it("reads the whole project", () => {
    expect(project.files.length).toBeGreaterThan(500);
    expect(project.files).toContain("server/context.ts");
    expect(project.files).toContain("src/pages/automation/automation-api.ts");
  });

  it("has no run-time import cycle", () => {
    const runtimeEdges = project.edges.filter((e) => e.runtime);
    expect(project.runtime.map((c) => describeCycle(c, runtimeEdges))).toEqual([]);
  });

  it("has no cycle through type-only imports either", () => {
    expect(project.all.map((c) => describeCycle(c, project.edges))).toEqual([]);
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
