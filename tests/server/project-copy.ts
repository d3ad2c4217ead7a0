/**
 * A throwaway copy of the project, as a fresh checkout would have it, for tests that change
 * files and run the project's own commands on them (tests/server/adding-a-resource.test.ts).
 * No git needed: what .gitignore names (node_modules, dist, .tmp, data …), `.git` and the
 * DATA_DIR are left out, and node_modules is linked, package by package, so nothing the copy
 * runs writes into the real one.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";

type Ignored = (relative: string) => boolean;

/** `*` and `?` of a .gitignore pattern as a regular expression. */
const globRegExp = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, "[^/]*")
      .replace(/\?/g, "[^/]")}$`,
  );

/**
 * What .gitignore leaves out of a checkout, for the simple patterns it holds (`name`, `dir/`,
 * `*.log`, `bench/tmp/`). A negation would need more than this: it is refused, not misread.
 */
export function gitIgnored(root: string): Ignored {
  const rules = readFileSync(path.join(root, ".gitignore"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      if (line.startsWith("!")) throw new Error(`.gitignore: negations (${line}) are not read by this copy`);
      const pattern = line.replace(/^\//, "").replace(/\/$/, "");
      // A pattern with a slash is anchored at the root; one without matches a name at any depth.
      return { anchored: pattern.includes("/"), re: globRegExp(pattern) };
    });
  return (relative) =>
    rules.some(({ anchored, re }) => re.test(anchored ? relative : path.posix.basename(relative)));
}

/** Node tools' caches inside node_modules: kept per copy rather than shared. */
const CACHES = new Set([".vite", ".vitest", ".cache"]);

/** Copies the project at `root` into the empty folder `dest`. */
export function copyProject(root: string, dest: string): void {
  const ignored = gitIgnored(root);
  const dataDir = process.env.DATA_DIR ? path.relative(root, path.resolve(root, process.env.DATA_DIR)) : null;
  const skip = (relative: string) => relative === ".git" || relative === dataDir || ignored(relative);
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (skip(rel)) continue;
      const from = path.join(root, rel);
      const to = path.join(dest, rel);
      if (entry.isDirectory()) {
        mkdirSync(to);
        walk(rel);
      } else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
      else if (entry.isFile()) copyFileSync(from, to);
    }
  };
  walk("");
  mkdirSync(path.join(dest, "node_modules"));
  for (const name of readdirSync(path.join(root, "node_modules"))) {
    if (!CACHES.has(name))
      symlinkSync(path.join(root, "node_modules", name), path.join(dest, "node_modules", name));
  }
}

/** Every file under `root` but node_modules, by path, with a hash of its bytes. */
export function fileHashes(root: string): Map<string, string> {
  const hashes = new Map<string, string>();
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (rel === "node_modules") continue;
      if (entry.isDirectory()) walk(rel);
      else {
        const bytes = entry.isSymbolicLink()
          ? readlinkSync(path.join(root, rel))
          : readFileSync(path.join(root, rel));
        hashes.set(rel, createHash("sha1").update(bytes).digest("hex"));
      }
    }
  };
  walk("");
  return hashes;
}

/** What changed between two `fileHashes` of the same folder. */
export function changedFiles(before: Map<string, string>, after: Map<string, string>) {
  return {
    added: [...after.keys()].filter((f) => !before.has(f)).sort(),
    changed: [...after.keys()].filter((f) => before.has(f) && before.get(f) !== after.get(f)).sort(),
    removed: [...before.keys()].filter((f) => !after.has(f)).sort(),
  };
}

export interface RunResult {
  /** What was run, for messages. */
  command: string;
  code: number;
  /** stdout and stderr, interleaved as they came. */
  output: string;
  seconds: number;
}

/** The last `lines` lines of a run's output, to show when it failed. */
export const tail = (result: RunResult, lines = 60) =>
  `$ ${result.command}  (exit ${result.code}, ${result.seconds.toFixed(0)} s)\n${result.output.trimEnd().split("\n").slice(-lines).join("\n")}`;

/**
 * Runs a command in `cwd` and settles with its exit code and output; never rejects, so a run
 * started early can be awaited by the test that checks it.
 */
export function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<RunResult> {
  const started = Date.now();
  const shown = [command, ...args].join(" ");
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.stderr.on("data", (c: Buffer) => chunks.push(c));
    const settle = (code: number, extra = "") =>
      resolve({
        command: shown,
        code,
        output: Buffer.concat(chunks).toString("utf8") + extra,
        seconds: (Date.now() - started) / 1000,
      });
    child.on("error", (error) => settle(127, `\ncould not start: ${error.message}`));
    child.on("close", (code, signal) => settle(code ?? 1, signal ? `\nkilled by ${signal}` : ""));
  });
}

/**
 * The environment for a command run in the copy: this one without the variables vitest set
 * for its own workers (a vitest started under them would think it is one), colours off.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("VITEST") && key !== "NODE_ENV" && key !== "TEST") env[key] = value;
  }
  return { ...env, NO_COLOR: "1", FORCE_COLOR: "0", ...extra };
}

/** Where `npm test`'s typecheck keeps its incremental state (scripts/test-all.mjs, `npm run typecheck`). */
export const TYPECHECK_STATE = ".tmp/tsc.tsbuildinfo";

/**
 * Gives the copy the project's incremental typecheck state, so the copy's `tsc --incremental`
 * checks again only what differs from the project (the new definition files and whatever depends
 * on them) rather than every file: tsc compares each file's contents with the state, so the
 * verdict is the one a full check gives. The state names files relative to itself; those inside
 * the project are renamed into the copy, the rest (node_modules, reached through the copy's
 * links) stay where they are. No state yet (the typecheck has not run): the copy checks in full.
 */
export function seedTypecheckState(root: string, copy: string): boolean {
  let state: { fileNames?: string[] };
  try {
    state = JSON.parse(readFileSync(path.join(root, TYPECHECK_STATE), "utf8"));
  } catch {
    return false;
  }
  if (!Array.isArray(state.fileNames)) return false;
  const from = path.dirname(path.join(root, TYPECHECK_STATE));
  const to = path.dirname(path.join(copy, TYPECHECK_STATE));
  state.fileNames = state.fileNames.map((name) => {
    const file = path.resolve(from, name);
    const inProject =
      file.startsWith(root + path.sep) && !file.includes(`${path.sep}node_modules${path.sep}`);
    const moved = inProject ? path.join(copy, path.relative(root, file)) : file;
    return path.relative(to, moved).split(path.sep).join("/");
  });
  mkdirSync(to, { recursive: true });
  writeFileSync(path.join(copy, TYPECHECK_STATE), JSON.stringify(state));
  return true;
}
