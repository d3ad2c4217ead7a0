/**
 * The server test files share one module graph per worker (`isolate: false` in
 * vitest.config.ts): a module mock, a stubbed global or environment variable, a spy or fake
 * timers left by one file would reach every file after it in that worker. None may use them;
 * a test that needs another clock or setting gives it to the app it builds.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "./source-files";

const SHARED_STATE = /\bvi\.(mock|doMock|hoisted|stubGlobal|stubEnv|spyOn|useFakeTimers|setSystemTime)\s*\(/g;

/** The server project's test files and the helpers beside them. */
function serverTestFiles(): string[] {
  const under = (folder: string, keep: (f: string) => boolean) =>
    readdirSync(path.join(root, folder), { recursive: true, withFileTypes: false })
      .map((f) => path.join(folder, String(f)).split(path.sep).join("/"))
      .filter(keep);
  return [
    ...under("tests/server", (f) => f.endsWith(".ts")),
    ...under("server", (f) => f.endsWith(".test.ts")),
  ];
}

describe("server test files, which share modules between files", () => {
  it("are found", () => {
    expect(serverTestFiles().length).toBeGreaterThan(50);
  });

  it("stub no module, global, environment variable or clock", () => {
    const found = serverTestFiles().flatMap((file) =>
      [...readFileSync(path.join(root, file), "utf8").matchAll(SHARED_STATE)].map(
        (m) => `${file}: vi.${m[1]}() would outlive the file (isolate: false)`,
      ),
    );
    expect(found).toEqual([]);
  });
});
