import { describe, expect, it, vi } from "vitest";
import { type ConsoleLike, disableConsoleInProduction } from "./logger";

function fakeConsole() {
  const calls: string[] = [];
  const target: ConsoleLike = {
    log: vi.fn(() => calls.push("log")),
    info: vi.fn(() => calls.push("info")),
    debug: vi.fn(() => calls.push("debug")),
    warn: vi.fn(() => calls.push("warn")),
    error: vi.fn(() => calls.push("error")),
  };
  const logAll = () => {
    target.log("x");
    target.info("x");
    target.debug("x");
    target.warn("x");
    target.error("x");
  };
  return { target, calls, logAll };
}

describe("disableConsoleInProduction", () => {
  it("silences log, info, debug, warn and error in production", () => {
    const { target, calls, logAll } = fakeConsole();
    disableConsoleInProduction(true, target);
    logAll();
    expect(calls).toEqual([]);
  });

  it("leaves the console alone outside production", () => {
    const { target, calls, logAll } = fakeConsole();
    disableConsoleInProduction(false, target);
    logAll();
    expect(calls).toEqual(["log", "info", "debug", "warn", "error"]);
  });

  it("returns a function that restores the console", () => {
    const { target, calls, logAll } = fakeConsole();
    const restore = disableConsoleInProduction(true, target);
    restore();
    logAll();
    expect(calls).toHaveLength(5);
  });
});
