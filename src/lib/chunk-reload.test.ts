import { describe, expect, it, vi } from "vitest";
import {
  CHUNK_RELOAD_GUARD_MS,
  isScriptLoadError,
  reloadForNewBuild,
  ScriptLoadTimeoutError,
  withScriptTimeout,
} from "./chunk-reload";
import { SCRIPT_LOAD_TIMEOUT_MS } from "./constants";
import { MemoryStorage } from "./memory-storage";

describe("reloadForNewBuild", () => {
  it("reloads once, then not again within the guard window", () => {
    const storage = new MemoryStorage();
    const reload = vi.fn();
    expect(reloadForNewBuild(storage, reload, 1_000_000)).toBe(true);
    expect(reloadForNewBuild(storage, reload, 1_000_000 + CHUNK_RELOAD_GUARD_MS - 1)).toBe(false);
    expect(reloadForNewBuild(storage, reload, 1_000_000 + CHUNK_RELOAD_GUARD_MS)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});

describe("withScriptTimeout", () => {
  it("gives the loaded module when it arrives in time", async () => {
    vi.useFakeTimers();
    try {
      const loaded = withScriptTimeout(() => Promise.resolve({ default: "page" }), 1000);
      await expect(loaded).resolves.toEqual({ default: "page" });
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("rejects with ScriptLoadTimeoutError when the code does not arrive in time", async () => {
    vi.useFakeTimers();
    try {
      const loaded = withScriptTimeout(() => new Promise(() => {}), SCRIPT_LOAD_TIMEOUT_MS);
      const outcome = expect(loaded).rejects.toBeInstanceOf(ScriptLoadTimeoutError);
      vi.advanceTimersByTime(SCRIPT_LOAD_TIMEOUT_MS - 1);
      await Promise.resolve();
      vi.advanceTimersByTime(1);
      await outcome;
      await expect(loaded).rejects.toThrow("did not load within 120 seconds");
    } finally {
      vi.useRealTimers();
    }
  });

  it("passes a failed import's error on", async () => {
    const failure = new TypeError("Failed to fetch dynamically imported module: /assets/x.js");
    await expect(withScriptTimeout(() => Promise.reject(failure), 1000)).rejects.toBe(failure);
  });
});

describe("isScriptLoadError", () => {
  it("recognises timeouts and the browsers' failed-import errors, not other errors", () => {
    expect(isScriptLoadError(new ScriptLoadTimeoutError(5))).toBe(true);
    expect(isScriptLoadError(new TypeError("Failed to fetch dynamically imported module: x"))).toBe(true);
    expect(isScriptLoadError(new TypeError("Importing a module script failed."))).toBe(true);
    expect(isScriptLoadError(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isScriptLoadError("nope")).toBe(false);
  });
});
