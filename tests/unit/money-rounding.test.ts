/**
 * Money is rounded in one place: schemas/money.ts, on integers, half up. This check reads the
 * syntax tree of every non-test source file of the server and the SPA and fails, naming
 * file:line, where a floating-point rounding (`Math.round/floor/ceil/trunc(…)`, `.toFixed(…)`,
 * `.toPrecision(…)`, `parseFloat(…)`) touches money: where a name in the call, or the name of
 * what it is assigned to, says price, amount, minor, cent, paise, money, discount, weighted,
 * subtotal, cost or currency; or says total or value (words that count other things too) with
 * no word of counting something else (bytes, pages, rows, progress: loaded, done) in the call,
 * its target or the function it is in.
 *
 * Names are split into words (camelCase, snake_case), so `percentage` is not `cent`. What is
 * not money but uses such a word stays allowed below, each with its reason.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { root, sourcesUnder } from "./source-files";

const FOLDERS = ["server", "src", "providers", "schemas", "resources"];

/** The money module: the one place money is rounded. */
const MONEY_MODULE = "schemas/money.ts";

/** Words that make a rounding one of money. */
const MONEY_WORDS = new Set([
  "price",
  "prices",
  "amount",
  "amounts",
  "minor",
  "cent",
  "cents",
  "paise",
  "money",
  "discount",
  "discounts",
  "weighted",
  "subtotal",
  "cost",
  "costs",
  "currency",
]);

/** Words of money that also name counts: money unless a word of COUNTING is there too. */
const AMBIGUOUS_WORDS = new Set(["total", "totals", "value", "values"]);

/** Words of counting something that is not money: sizes, pages, rows, progress, time, pixels. */
const COUNTING_WORDS = new Set([
  "bytes",
  "size",
  "page",
  "pages",
  "rows",
  "count",
  "loaded",
  "done",
  "progress",
  "seconds",
  "minutes",
  "ms",
  "width",
  "height",
  "zoom",
]);

/**
 * Roundings that name such a word and are not money: `file:the call's text` → why. Kept short:
 * a new one should rather be written with names that say what it counts.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  "src/resources/list/total-label.ts:total.toPrecision(3)":
    "a list's row count past the exact-count cap (the planner's estimate), shown to 3 digits",
};

const ROUNDING_MATH = new Set(["round", "floor", "ceil", "trunc"]);
const ROUNDING_METHODS = new Set(["toFixed", "toPrecision"]);

/** A name's words, lower case: `totalMinor` → total, minor; `unit_price` → unit, price. */
const wordsOf = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Whether `node` is a floating-point rounding call. */
function isRounding(node: ts.Node): node is ts.CallExpression {
  if (!ts.isCallExpression(node)) return false;
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text === "parseFloat";
  if (!ts.isPropertyAccessExpression(callee)) return false;
  const method = callee.name.text;
  if (ROUNDING_METHODS.has(method)) return true;
  const owner = callee.expression;
  if (!ts.isIdentifier(owner)) return false;
  return (
    (owner.text === "Math" && ROUNDING_MATH.has(method)) ||
    (owner.text === "Number" && method === "parseFloat")
  );
}

/** Every name under `node`: identifiers, and the keys of element accesses (`plan["Plan Rows"]`). */
function identifiersIn(node: ts.Node, into: string[] = []): string[] {
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) into.push(node.text);
  if (ts.isStringLiteral(node) && ts.isElementAccessExpression(node.parent)) into.push(node.text);
  node.forEachChild((child) => void identifiersIn(child, into));
  return into;
}

/** The name the call's result is given: the variable, property or function it is in. */
function targetNameOf(node: ts.Node): string | undefined {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isBlock(at) || ts.isSourceFile(at)) return undefined;
    if (
      (ts.isVariableDeclaration(at) ||
        ts.isPropertyAssignment(at) ||
        ts.isPropertyDeclaration(at) ||
        ts.isFunctionDeclaration(at) ||
        ts.isMethodDeclaration(at)) &&
      at.name &&
      ts.isIdentifier(at.name)
    )
      return at.name.text;
    if (ts.isBinaryExpression(at) && at.operatorToken.kind === ts.SyntaxKind.EqualsToken)
      return identifiersIn(at.left).at(-1);
  }
  return undefined;
}

/** The name of the function the call is in (`formatBytes`), if it has one. */
function functionNameOf(node: ts.Node): string | undefined {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent)
    if ((ts.isFunctionDeclaration(at) || ts.isMethodDeclaration(at)) && at.name && ts.isIdentifier(at.name))
      return at.name.text;
  return undefined;
}

interface Finding {
  where: string;
  call: string;
  words: string[];
}

/** The money roundings of one file. */
function moneyRoundingsIn(file: string, text: string): Finding[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Finding[] = [];
  const visit = (node: ts.Node) => {
    if (isRounding(node)) {
      const names = [...identifiersIn(node), targetNameOf(node) ?? "", functionNameOf(node) ?? ""];
      const all = new Set(names.flatMap(wordsOf));
      const counting = [...all].some((w) => COUNTING_WORDS.has(w));
      const words = [...all].filter((w) => MONEY_WORDS.has(w) || (AMBIGUOUS_WORDS.has(w) && !counting));
      if (words.length) {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push({ where: `${file}:${line}`, call: node.getText(), words });
      }
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

/** Files without any rounding call need no syntax tree (most of them): the check stays quick. */
const MAY_ROUND = /Math\.(round|floor|ceil|trunc)\(|\.toFixed\(|\.toPrecision\(|parseFloat\(/;

// Reading a thousand files is a few seconds on a busy machine: a generous deadline.
describe("money is rounded only in the money module", { timeout: 60_000 }, () => {
  it("finds no floating-point rounding of money outside schemas/money.ts", () => {
    const findings = FOLDERS.flatMap(sourcesUnder)
      .filter((f) => f !== MONEY_MODULE)
      .map((f) => ({ f, text: readFileSync(path.join(root, f), "utf8") }))
      .filter(({ text }) => MAY_ROUND.test(text))
      .flatMap(({ f, text }) => moneyRoundingsIn(f, text))
      .filter((f) => !ALLOWED[`${f.where.replace(/:\d+$/, "")}:${f.call}`]);
    const report = findings.map((f) => `${f.where}: ${f.call} (${f.words.join(", ")}): use schemas/money.ts`);
    expect(report).toEqual([]);
  });

  it("keeps its allow-list true: every entry is still in its file", () => {
    for (const key of Object.keys(ALLOWED)) {
      const [file, ...call] = key.split(":");
      expect(readFileSync(path.join(root, file), "utf8"), key).toContain(call.join(":"));
    }
  });

  it("catches the roundings it is for, and leaves pixels, percentages and minutes alone", () => {
    const caught = (code: string) => moneyRoundingsIn("x.ts", code).length > 0;
    expect(caught("const cents = (n: number) => Math.round(n * 100) / 100;")).toBe(true);
    expect(caught("weighted: Math.round(t.value * p) / 100,")).toBe(true);
    expect(caught("const x = (amount * 100).toFixed(0);")).toBe(true);
    expect(caught("row.unit_price = parseFloat(cell);")).toBe(true);
    expect(caught("const minor = Number.parseFloat(text);")).toBe(true);
    expect(caught("const w = Math.round(viewport.width);")).toBe(false);
    expect(caught("const percentage = Math.round(done * 100);")).toBe(false);
    expect(caught("const minutes = Math.round(seconds / 60);")).toBe(false);
    expect(caught("total.value = Math.round(total.value * 100) / 100;")).toBe(true);
    expect(caught("const sent = Math.round((event.loaded / event.total) * 100);")).toBe(false);
    expect(
      caught("function formatBytes(b: number) { const value = b / 1024; return value.toFixed(1); }"),
    ).toBe(false);
  });
});
