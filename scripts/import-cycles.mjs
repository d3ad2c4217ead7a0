#!/usr/bin/env node
/**
 * Import cycles of the project's own TypeScript: `node scripts/import-cycles.mjs [--types]`.
 *
 * Reads the relative `import … from` and `export … from` statements of server/, schemas/, src/,
 * providers/ and resources/ (.ts and .tsx) with TypeScript's parser and prints the strongly
 * connected components (Tarjan) of two graphs:
 * - run time: edges that survive compilation. `import type`, `export type`, specifiers all marked
 *   `type`, and plain imports whose bindings are only ever used as types are erased by the
 *   compiler (verbatimModuleSyntax is off), so they are not run-time edges. A side-effect import
 *   (`import "./x"`) and `export * from` always are.
 * - every import: the run-time edges plus the type-only ones, for reading a folder bottom-up.
 * Dynamic `import()` is left out of both: it runs after every module has loaded.
 * With --folders it also prints the cycles between folders (an import from one folder to another
 * counted as the folders' edge): a coarser reading, not held by the test yet.
 *
 * Exits 1 when a run-time cycle exists (with --types: any cycle). tests/unit/import-cycles.test.ts
 * uses the same functions and fails on any cycle, type-only ones included.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const FOLDERS = ["server", "schemas", "src", "providers", "resources"];

/** Every .ts/.tsx file under the folders, as paths relative to the root with forward slashes. */
export function sourceFiles(root = ROOT, folders = FOLDERS) {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name === "node_modules" || name.startsWith(".")) continue;
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) files.push(full);
    }
  };
  for (const folder of folders) if (existsSync(path.join(root, folder))) walk(path.join(root, folder));
  return files.map((f) => path.relative(root, f).split(path.sep).join("/")).sort();
}

/** The file a relative specifier names, or undefined when it is not one of ours. */
function resolve(fromFile, specifier, known) {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  const stripped = base.replace(/\.(m?js|tsx?)$/, "");
  for (const candidate of [
    base,
    `${stripped}.ts`,
    `${stripped}.tsx`,
    `${stripped}/index.ts`,
    `${stripped}/index.tsx`,
  ]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

/** True when `id` stands where only a type can (annotation, `implements`, type alias, …). */
function inTypePosition(id) {
  for (let node = id.parent; node && !ts.isSourceFile(node); node = node.parent) {
    // `class A extends B` is a value use of B; `implements B` and an interface's `extends` are not.
    if (ts.isHeritageClause(node)) {
      return node.token === ts.SyntaxKind.ImplementsKeyword || ts.isInterfaceDeclaration(node.parent);
    }
    if (ts.isExpressionWithTypeArguments(node) && ts.isHeritageClause(node.parent)) continue;
    if (ts.isTypeNode(node) || ts.isTypeAliasDeclaration(node)) return true;
    if (ts.isInterfaceDeclaration(node) || ts.isTypeParameterDeclaration(node)) return true;
    if (ts.isStatement(node) || ts.isBlock(node)) return false;
  }
  return false;
}

/** Names used as values anywhere in the file outside its import declarations. */
function valueNames(source) {
  const used = new Set();
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) return;
    if (ts.isIdentifier(node)) {
      const parent = node.parent;
      const isMemberName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        (ts.isPropertyAssignment(parent) && parent.name === node) ||
        (ts.isQualifiedName(parent) && parent.right === node);
      if (!isMemberName && !inTypePosition(node)) used.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return used;
}

/**
 * The edges of one file: `{ from, to, runtime, line }` for each relative import or re-export that
 * lands on a known file.
 */
export function edgesOf(file, text, known) {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  let used;
  const values = () => {
    used ??= valueNames(source);
    return used;
  };
  const edges = [];
  for (const statement of source.statements) {
    const spec = statement.moduleSpecifier;
    if (!spec || !ts.isStringLiteral(spec)) continue;
    const to = resolve(file, spec.text, known);
    if (!to) continue;
    let runtime;
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (!clause)
        runtime = true; // import "./side-effect"
      else if (clause.isTypeOnly) runtime = false;
      else {
        const names = [];
        if (clause.name) names.push(clause.name.text);
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) names.push(bindings.name.text);
        if (bindings && ts.isNamedImports(bindings)) {
          for (const el of bindings.elements) if (!el.isTypeOnly) names.push(el.name.text);
        }
        runtime = names.some((n) => values().has(n));
      }
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly) runtime = false;
      else if (!statement.exportClause || ts.isNamespaceExport(statement.exportClause)) runtime = true;
      else runtime = statement.exportClause.elements.some((el) => !el.isTypeOnly);
    } else continue;
    const line = source.getLineAndCharacterOfPosition(statement.getStart()).line + 1;
    edges.push({ from: file, to, runtime, line });
  }
  return edges;
}

/** Every edge among the project's files. */
export function importGraph(root = ROOT, folders = FOLDERS) {
  const files = sourceFiles(root, folders);
  const known = new Set(files);
  const edges = [];
  for (const file of files) {
    edges.push(...edgesOf(file, readFileSync(path.join(root, file), "utf8"), known));
  }
  return { files, edges };
}

/** Tarjan's strongly connected components with more than one file (or a file importing itself). */
export function cycles(files, edges) {
  const next = new Map(files.map((f) => [f, []]));
  for (const e of edges) next.get(e.from)?.push(e.to);
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  let counter = 0;
  // Iterative, so a deep import chain cannot overflow the call stack.
  for (const start of files) {
    if (index.has(start)) continue;
    const work = [{ node: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = next.get(frame.node);
      if (frame.i < targets.length) {
        const to = targets[frame.i++];
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(to)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent), low.get(frame.node)));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = component.length === 1 && targets.includes(frame.node);
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  }
  return components.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));
}

/** The run-time and the all-imports cycles of the project. */
export function projectCycles(root = ROOT, folders = FOLDERS) {
  const { files, edges } = importGraph(root, folders);
  return {
    files,
    edges,
    runtime: cycles(
      files,
      edges.filter((e) => e.runtime),
    ),
    all: cycles(files, edges),
  };
}

/** The same graph between folders: each file's folder, and an edge per import that leaves it. */
export function folderGraph(files, edges) {
  const folderOf = (f) => f.slice(0, f.lastIndexOf("/"));
  return {
    files: [...new Set(files.map(folderOf))].sort(),
    edges: edges
      .filter((e) => folderOf(e.from) !== folderOf(e.to))
      .map((e) => ({ ...e, from: folderOf(e.from), to: folderOf(e.to) })),
  };
}

/** The edges inside one component, for printing how the loop closes. */
export function edgesWithin(component, edges) {
  const members = new Set(component);
  return edges.filter((e) => members.has(e.from) && members.has(e.to));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const withTypes = process.argv.includes("--types");
  const { files, edges, runtime, all } = projectCycles();
  const print = (title, components, onlyRuntime) => {
    console.log(`${title}: ${components.length} cycle(s)`);
    for (const component of components) {
      console.log(`\n  ${component.length} files:`);
      for (const e of edgesWithin(component, onlyRuntime ? edges.filter((x) => x.runtime) : edges)) {
        console.log(`    ${e.from}:${e.line} -> ${e.to}${e.runtime ? "" : "  (type)"}`);
      }
    }
    console.log("");
  };
  console.log(
    `${files.length} files, ${edges.length} relative imports (${edges.filter((e) => !e.runtime).length} type-only)\n`,
  );
  print("Run-time cycles", runtime, true);
  if (withTypes) print("Cycles counting type-only imports", all, false);
  else console.log(`Counting type-only imports: ${all.length} cycle(s) (--types to list them)`);
  if (process.argv.includes("--folders")) {
    const folders = folderGraph(files, edges);
    for (const [title, list] of [
      ["Run-time cycles between folders", folders.edges.filter((e) => e.runtime)],
      ["Cycles between folders counting type-only imports", folders.edges],
    ]) {
      const found = cycles(folders.files, list);
      console.log(`\n${title}: ${found.length}`);
      for (const component of found) console.log(`  ${component.length} folders: ${component.join(" ")}`);
    }
  }
  process.exitCode = runtime.length > 0 || (withTypes && all.length > 0) ? 1 : 0;
}
