/**
 * `src/lib` is imported by the server and by providers/ as well as by the screens, so it stays
 * pure: no React or UI library, no DOM, no browser-only global. A function that needs the
 * browser takes what it needs as a parameter (`watchNetworkStatus(window, …)`) or lives in
 * src/browser/; a React hook lives in src/hooks/.
 *
 * The check reads each file's syntax tree, so comments and strings may name `window` freely,
 * and a guarded `typeof window !== "undefined"` is allowed.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const LIB = path.join(root, "src", "lib");

/** Packages a pure module may not import: UI, routing, DOM and browser-only clients. */
const BANNED_PACKAGES = [
  /^react(-dom)?(\/|$)/,
  /^react-router/,
  /^antd(\/|$)/,
  /^@ant-design\//,
  /^@refinedev\//,
  /^@rjsf\//,
  /^@tanstack\/react-query/,
  /^socket\.io-client/,
  /^js-cookie/,
  /^pdfjs-dist/,
];

/** Where a relative import may lead: this folder, or the pure data of schemas/ and resources/. */
const PURE_FOLDERS = [LIB, path.join(root, "schemas"), path.join(root, "resources")];

interface Impurity {
  line: number;
  what: string;
}

/** The module specifiers of `file`'s imports, re-exports and dynamic imports. */
function specifiers(source: ts.SourceFile): { name: string; node: ts.Node }[] {
  const found: { name: string; node: ts.Node }[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ name: node.moduleSpecifier.text, node });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ name: node.arguments[0].text, node });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** True when `id` stands in a type (`el: HTMLElement`, `implements Storage`): no run-time cost. */
function inTypePosition(id: ts.Identifier): boolean {
  for (let node: ts.Node = id.parent; node && !ts.isSourceFile(node); node = node.parent) {
    if (ts.isTypeNode(node) || ts.isHeritageClause(node)) return true;
    if (ts.isStatement(node) || ts.isBlock(node)) return false;
  }
  return false;
}

/** True when `symbol` is a global that only the DOM's type library declares (Node's types do not). */
function browserOnlyGlobal(symbol: ts.Symbol): boolean {
  const declarations = symbol.declarations ?? [];
  return (
    declarations.length > 0 &&
    declarations.every((d) => {
      const inDomLib = /[\\/]typescript[\\/]lib[\\/]lib\.dom/.test(d.getSourceFile().fileName);
      // A top-level `declare var window` or `declare function fetch`, not a member of an interface.
      const topLevel =
        (ts.isVariableDeclaration(d) && ts.isSourceFile(d.parent.parent.parent)) ||
        (ts.isFunctionDeclaration(d) && ts.isSourceFile(d.parent));
      return inDomLib && topLevel;
    })
  );
}

/**
 * A program over `files` that knows both the DOM's globals and Node's, so each name used can be
 * traced to where it is declared.
 */
function libProgram(files: readonly string[], virtual: ReadonlyMap<string, string> = new Map()): ts.Program {
  const host = ts.createCompilerHost({});
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  host.readFile = (name) => virtual.get(name) ?? readFile(name);
  host.getSourceFile = (name, version, ...rest) => {
    const text = virtual.get(name);
    return text === undefined
      ? getSourceFile(name, version, ...rest)
      : ts.createSourceFile(name, text, version, true);
  };
  return ts.createProgram({
    rootNames: [...files, ...virtual.keys()],
    options: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
      types: ["node"],
      typeRoots: [path.join(root, "node_modules", "@types")],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
    },
    host,
  });
}

/** What makes `file` (part of `program`) impure: each banned import and browser-only global. */
function impuritiesOf(program: ts.Program, file: string): Impurity[] {
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`${file} is not in the program`);
  const checker = program.getTypeChecker();
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const found: Impurity[] = [];
  for (const { name, node } of specifiers(source)) {
    if (BANNED_PACKAGES.some((re) => re.test(name))) {
      found.push({ line: lineOf(node), what: `imports ${name}` });
    } else if (name.startsWith(".")) {
      const target = path.resolve(path.dirname(file), name);
      if (!PURE_FOLDERS.some((dir) => target === dir || target.startsWith(`${dir}${path.sep}`))) {
        found.push({ line: lineOf(node), what: `imports ${name}, outside src/lib, schemas/ and resources/` });
      }
    }
  }
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && !inTypePosition(node) && !ts.isTypeOfExpression(node.parent)) {
      const symbol = checker.getSymbolAtLocation(node);
      if (symbol && browserOnlyGlobal(symbol)) {
        found.push({ line: lineOf(node), what: `uses the browser-only ${node.text}` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const sources = readdirSync(LIB)
  .filter((name) => !name.endsWith(".test.ts"))
  .sort();
const modules = sources.filter((name) => name.endsWith(".ts")).map((name) => path.join(LIB, name));

/** Modules written to show what the check finds and what it lets pass (checked as src/lib files). */
const EXAMPLES = {
  imports:
    'import { useState } from "react";\nimport { Button } from "antd";\nimport { x } from "../components/x";',
  globals: [
    "// window and document are mentioned here",
    'const key = "localStorage";',
    "export function f(el: HTMLElement, s: Storage) { return { window: 1, key, el, v: s.getItem(key) }; }",
    "export const g = () => window.location.href;",
    "export const h = () => navigator.onLine;",
    "export const i = () => screen.width;",
  ].join("\n"),
  allowed: [
    'export const inBrowser = typeof window !== "undefined";',
    "export function watch(window: { addEventListener(n: string, f: () => void): void }) {",
    '  window.addEventListener("online", () => {});',
    "}",
    'export const load = () => fetch(new URL("/x", "http://localhost"));',
    "export const later = () => setTimeout(() => console.log(crypto.randomUUID()), 1);",
  ].join("\n"),
};
const exampleFile = (name: string) => path.join(LIB, `purity-example-${name}.ts`);

// One program for every file: loading the DOM's and Node's type libraries is the slow part.
let program: ts.Program;
beforeAll(() => {
  const virtual = new Map(Object.entries(EXAMPLES).map(([name, text]) => [exampleFile(name), text]));
  program = libProgram(modules, virtual);
  program.getTypeChecker();
}, 120_000);

describe("src/lib is pure", () => {
  it("holds only .ts modules (a .tsx file is a component)", () => {
    expect(sources.filter((name) => !name.endsWith(".ts"))).toEqual([]);
  });

  it.each(modules.map((file) => [path.basename(file), file]))("%s", (name, file) => {
    const problems = impuritiesOf(program, file).map((p) => `${name}:${p.line} ${p.what}`);
    expect(problems).toEqual([]);
  });
});

describe("the purity check itself", () => {
  const check = (name: keyof typeof EXAMPLES) => impuritiesOf(program, exampleFile(name)).map((p) => p.what);

  it("finds React, antd and imports from the screens", () => {
    expect(check("imports")).toEqual([
      "imports react",
      "imports antd",
      "imports ../components/x, outside src/lib, schemas/ and resources/",
    ]);
  });

  it("finds browser-only globals, not names in comments, strings, properties or types", () => {
    expect(check("globals")).toEqual([
      "uses the browser-only window",
      "uses the browser-only navigator",
      "uses the browser-only screen",
    ]);
  });

  it("allows a typeof guard, a parameter named like a global, and what Node has too", () => {
    expect(check("allowed")).toEqual([]);
  });
});
