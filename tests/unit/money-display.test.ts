/**
 * Money and percentages are written for people in one way: schemas/money.ts's formatMoney /
 * formatMinorMoney (the currency's symbol, en-IN grouping for INR: ₹1,25,000.00) and
 * formatPercent ("12.5%"). Issue 27 found one page showing "₹", "INR 5000" and
 * "INR 5,000.00", and a 10 % discount as "₹10.00". This check reads the syntax tree of every
 * non-test source file of the SPA (src/, providers/, resources/) and fails, naming file:line,
 * on money or a percentage written by hand:
 * - a currency code or sign glued to a value in a template or a `+` (`INR ${n}`, `"₹" + n`),
 *   or `${x.currency} ${amount}`;
 * - a "%" glued to a value (`${n}%`, `{n}%` in JSX, `n + "%"`), but in CSS (a `style`, a
 *   property such as `left` or `width`), where a percentage is a length;
 * - Intl's own `style: "currency"` / `style: "percent"` outside the money module;
 * - `formatMinor(…)`, the plain-text "INR 1,234.56" of PDFs and mails, on a screen.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { root, sourcesUnder } from "./source-files";

const FOLDERS = ["src", "providers", "resources"];

const CODES = "INR|USD|EUR|GBP|AED|SGD|AUD|CAD|JPY";
/** Text ending with a currency before a value: "INR ", "₹", "Rs. ". */
const CURRENCY_BEFORE = new RegExp(`(?:\\b(?:${CODES}|Rs\\.?)\\s*|[₹$€£¥]\\s*)$`);
/** Text starting with a currency after a value: " INR", " ₹". */
const CURRENCY_AFTER = new RegExp(`^\\s*(?:(?:${CODES})\\b|[₹€£¥])`);
/** Text starting with a percent sign after a value. */
const PERCENT_AFTER = /^\s?%/;

/** Properties whose percentages are CSS lengths or positions, not numbers for people. */
const CSS_PROPERTIES = new Set([
  "left",
  "right",
  "top",
  "bottom",
  "width",
  "height",
  "minWidth",
  "maxWidth",
  "minHeight",
  "maxHeight",
  "flexBasis",
  "backgroundPosition",
  "backgroundSize",
  "objectPosition",
  "transform",
  "transformOrigin",
  "inset",
]);

/** `file:the text` → why it is not a number for people. Kept short, each with its reason. */
const ALLOWED: Readonly<Record<string, string>> = {
  "src/pages/pdfs/hotspot-canvas.tsx:`${v * 100}%`": "a hotspot's CSS box (left, top, width, height)",
};

interface Finding {
  where: string;
  text: string;
  why: string;
}

/** Whether `node` is inside CSS: a `style` attribute or a property named like a CSS one. */
function inCss(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node.parent; at && !ts.isSourceFile(at); at = at.parent) {
    if (ts.isJsxAttribute(at) && at.name.getText() === "style") return true;
    if (
      (ts.isPropertyAssignment(at) || ts.isPropertySignature(at)) &&
      ts.isIdentifier(at.name) &&
      (CSS_PROPERTIES.has(at.name.text) || at.name.text === "style")
    )
      return true;
    if (ts.isBlock(at)) return false;
  }
  return false;
}

/** The words of a name (`row.currency` → row, currency), lower case. */
const wordsOf = (node: ts.Node) =>
  node
    .getText()
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

const isText = (node: ts.Node): node is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral =>
  ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);

/** Hand-made money and percentages in one file. */
function handMadeIn(file: string, code: string): Finding[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: Finding[] = [];
  const report = (node: ts.Node, why: string) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    found.push({ where: `${file}:${line}`, text: node.getText().slice(0, 120), why });
  };
  const visit = (node: ts.Node) => {
    if (ts.isTemplateExpression(node)) {
      // Text before each value, and the text after it.
      const before = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
      node.templateSpans.forEach((span, i) => {
        const after = span.literal.text;
        if (CURRENCY_BEFORE.test(before[i]) || CURRENCY_AFTER.test(after))
          report(node, "money by hand: use formatMoney / formatMinorMoney");
        else if (
          wordsOf(span.expression).at(-1) === "currency" &&
          /^\s+$/.test(after) &&
          node.templateSpans[i + 1]
        )
          report(node, "money by hand (currency, then the amount): use formatMoney");
        else if (PERCENT_AFTER.test(after) && !inCss(node))
          report(node, "a percentage by hand: use formatPercent");
      });
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const { left, right } = node;
      if (
        (isText(left) && CURRENCY_BEFORE.test(left.text)) ||
        (isText(right) && CURRENCY_AFTER.test(right.text))
      )
        report(node, "money by hand: use formatMoney / formatMinorMoney");
      else if (isText(right) && PERCENT_AFTER.test(right.text) && !isText(left) && !inCss(node))
        report(node, "a percentage by hand: use formatPercent");
    }
    if (ts.isJsxText(node)) {
      const parent = node.parent;
      const siblings = ts.isJsxElement(parent) || ts.isJsxFragment(parent) ? [...parent.children] : [];
      const i = siblings.indexOf(node);
      const previous = siblings[i - 1];
      const next = siblings[i + 1];
      if (previous && ts.isJsxExpression(previous) && PERCENT_AFTER.test(node.text))
        report(previous, "a percentage by hand: use formatPercent");
      if (
        (previous && ts.isJsxExpression(previous) && CURRENCY_AFTER.test(node.text)) ||
        (next && ts.isJsxExpression(next) && CURRENCY_BEFORE.test(node.text.trimEnd()))
      )
        report(node, "money by hand: use formatMoney / formatMinorMoney");
    }
    if (
      ts.isPropertyAssignment(node) &&
      node.name.getText() === "style" &&
      isText(node.initializer) &&
      (node.initializer.text === "currency" || node.initializer.text === "percent")
    )
      report(node, `Intl's ${node.initializer.text} style: use formatMoney / formatPercent`);
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "formatMinor"
    )
      report(node, "formatMinor is the plain text of PDFs and mails: on a screen use formatMinorMoney");
    node.forEachChild(visit);
  };
  visit(source);
  return found.filter((f) => !ALLOWED[`${f.where.replace(/:\d+$/, "")}:${f.text}`]);
}

/** Files that cannot hold any of it need no syntax tree (most of them). */
const MAY_HOLD = new RegExp(`%|₹|[$€£¥]\\s*\\$\\{|\\b(?:${CODES})\\b|currency|formatMinor\\(`);

describe("money and percentages are written by schemas/money.ts", { timeout: 60_000 }, () => {
  it("finds no money or percentage written by hand in the SPA", () => {
    const findings = FOLDERS.flatMap(sourcesUnder)
      .map((f) => ({ f, text: readFileSync(path.join(root, f), "utf8") }))
      .filter(({ text }) => MAY_HOLD.test(text))
      .flatMap(({ f, text }) => handMadeIn(f, text));
    expect(findings.map((f) => `${f.where}: ${f.text} (${f.why})`)).toEqual([]);
  });

  it("keeps its allow-list true: every entry is still in its file", () => {
    for (const key of Object.keys(ALLOWED)) {
      const [file, ...text] = key.split(":");
      expect(readFileSync(path.join(root, file), "utf8"), key).toContain(text.join(":"));
    }
  });

  it("catches what issue 27 saw, and leaves CSS, counts and formatted text alone", () => {
    // Samples write a placeholder as #{…}: a "${" in a plain string reads as a slip to the linter.
    const caught = (code: string) => handMadeIn("x.tsx", code.replaceAll("#{", "${")).length > 0;
    expect(caught("const a = `INR #{amount}`;")).toBe(true);
    expect(caught("const a = `#{money.currency} #{l.unit_price}`;")).toBe(true);
    expect(caught('const a = "₹" + total;')).toBe(true);
    expect(caught("const a = `#{price} INR`;")).toBe(true);
    expect(caught("const p = `#{value} %`;")).toBe(true);
    expect(caught("const p = `#{Math.round(zoom * 100)}%`;")).toBe(true);
    expect(caught('const p = n + "%";')).toBe(true);
    expect(caught("const e = <span>{column.probability}%</span>;")).toBe(true);
    expect(caught("const e = <span>INR {total}</span>;")).toBe(true);
    expect(caught('const f = new Intl.NumberFormat("en", { style: "percent" });')).toBe(true);
    expect(caught("const m = formatMinor(total, currency);")).toBe(true);
    expect(caught("const s = { left: `#{x * 100}%`, width: `#{w}%` };")).toBe(false);
    expect(caught('const e = <div style={{ height: "100%", width: `#{p}%` }} />;')).toBe(false);
    expect(caught("const a = `Cart made: #{formatMoney(total, currency)}`;")).toBe(false);
    expect(caught("const a = `#{formatPercent(rate)} of #{count} views`;")).toBe(false);
    expect(
      caught("const a = `priced in #{product.currency}, and this proposal is in #{money.currency}`;"),
    ).toBe(false);
  });
});
