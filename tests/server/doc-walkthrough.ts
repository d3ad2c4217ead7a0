/**
 * Reads the walkthrough of docs/adding-a-resource.md as steps a test can follow
 * (tests/server/adding-a-resource.test.ts). The doc's conventions, in its code blocks:
 *
 * - a block whose first line is `// <path>` creates that file (the line names it; it is not
 *   written);
 * - `// <path>, as written by npm run migration:new`: what the command wrote, to compare;
 * - a `diff` block whose first line is `// <path>`: an edit of that file (` ` context, `-`
 *   removed, `+` added lines);
 * - in `sh` blocks, each `npm run migration:new …` line is run.
 *
 * Only the walkthrough is read: the reference section after it shows fragments.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export type DocStep =
  | { kind: "file"; line: number; path: string; text: string }
  | { kind: "generated"; line: number; path: string; text: string }
  | { kind: "diff"; line: number; path: string; before: string; after: string }
  | { kind: "command"; line: number; command: string };

/** Where the walkthrough ends. */
const REFERENCE = /^## Reference\b/;
const FENCE = /^```([\w-]*)\s*$/;
const PATH_LINE = /^\/\/ ([\w./-]+)(, as written by npm run migration:new)?$/;
const SHELLS = new Set(["sh", "bash", "shell", "console"]);

function safePath(file: string, line: number): string {
  const normal = path.posix.normalize(file);
  if (normal.startsWith("../") || path.posix.isAbsolute(normal) || normal !== file) {
    throw new Error(`docs line ${line}: ${file} is not a plain path inside the project`);
  }
  return file;
}

/** A diff block's lines as the text they replace and the text they leave. */
function diffOf(lines: string[], line: number): { before: string; after: string } {
  const before: string[] = [];
  const after: string[] = [];
  lines.forEach((text, i) => {
    // An empty line is an empty context line (editors strip the trailing space).
    const mark = text[0] ?? " ";
    if (!" -+".includes(mark)) {
      throw new Error(`docs line ${line + 1 + i}: a diff line starts with " ", "-" or "+", got "${text}"`);
    }
    const rest = text.slice(1);
    if (mark !== "+") before.push(rest);
    if (mark !== "-") after.push(rest);
  });
  return { before: before.join("\n"), after: after.join("\n") };
}

/**
 * The steps of the walkthrough, in the doc's order, each with the doc line of its block.
 *
 * @example
 * walkthroughSteps("```ts\n// schemas/a.ts\nexport {};\n```\n");
 * // [{ kind: "file", line: 1, path: "schemas/a.ts", text: "export {};\n" }]
 */
export function walkthroughSteps(markdown: string): DocStep[] {
  const lines = markdown.split("\n");
  const steps: DocStep[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (REFERENCE.test(lines[i])) break;
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const start = i + 1; // 1-based number of the fence line
    const lang = open[1];
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    if (i >= lines.length) throw new Error(`docs line ${start}: this code block is never closed`);
    if (SHELLS.has(lang)) {
      body.forEach((text, k) => {
        const command = text.replace(/^\$\s+/, "").trim();
        if (command.startsWith("npm run migration:new")) {
          steps.push({ kind: "command", line: start + 1 + k, command });
        }
      });
      continue;
    }
    const named = PATH_LINE.exec(body[0] ?? "");
    if (!named) continue;
    const file = safePath(named[1], start + 1);
    if (lang === "diff")
      steps.push({ kind: "diff", line: start, path: file, ...diffOf(body.slice(1), start + 1) });
    else {
      const text = `${body.slice(1).join("\n")}\n`;
      steps.push({ kind: named[2] ? "generated" : "file", line: start, path: file, text });
    }
  }
  return steps;
}

/** Applies a diff step to its file in `root`; a diff that does not fit says where. */
export function applyDiff(root: string, step: Extract<DocStep, { kind: "diff" }>): void {
  const file = path.join(root, step.path);
  const text = readFileSync(file, "utf8");
  const at = text.indexOf(step.before);
  if (at < 0 || text.indexOf(step.before, at + 1) >= 0) {
    throw new Error(
      `docs line ${step.line}: the diff's context and removed lines must appear exactly once in ${step.path}; ` +
        `they appear ${at < 0 ? "nowhere" : "more than once"}:\n${step.before}`,
    );
  }
  writeFileSync(file, text.slice(0, at) + step.after + text.slice(at + step.before.length));
}

/** The entities a `npm run migration:new` line names (its words that are not options). */
export function entitiesOf(command: string): string[] {
  const words = command
    .replace(/^npm run migration:new\s*/, "")
    .split(/\s+/)
    .filter(Boolean);
  return words.filter((w, i) => !w.startsWith("-") && words[i - 1] !== "--name");
}

/** `0011-venues.ts` and `0012-venues.ts` name the same migration but for its number (the next free one). */
export const withoutNumber = (file: string) => file.replace(/(^|\/)\d{4}-/, "$1NNNN-");
