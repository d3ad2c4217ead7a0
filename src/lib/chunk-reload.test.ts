import { describe, expect, it, vi } from "vitest";
import { CHUNK_RELOAD_GUARD_MS, reloadForNewBuild } from "./chunk-reload";
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
