import { describe, expect, it, vi } from "vitest";
import { BUILD_DATE_KEY, checkBuildVersion, parseBuildDate, shouldHardReload } from "./build-version";
import { MemoryStorage } from "./memory-storage";

const OLD = "2024-06-01T10:00:00.000Z";
const NEW = "2024-06-02T10:00:00.000Z";

describe("shouldHardReload", () => {
  it("is true when the published date is later than the stored one", () => {
    expect(shouldHardReload(NEW, OLD)).toBe(true);
  });

  it("is false when it is the same or earlier", () => {
    expect(shouldHardReload(OLD, OLD)).toBe(false);
    expect(shouldHardReload(OLD, NEW)).toBe(false);
  });

  it("is false unless both are dates", () => {
    expect(shouldHardReload(NEW, null)).toBe(false);
    expect(shouldHardReload(NEW, undefined)).toBe(false);
    expect(shouldHardReload(NEW, "")).toBe(false);
    expect(shouldHardReload("garbage", OLD)).toBe(false);
    expect(shouldHardReload(null, OLD)).toBe(false);
  });

  it("reads epoch milliseconds too", () => {
    expect(shouldHardReload(String(Date.parse(NEW)), OLD)).toBe(true);
    expect(parseBuildDate("1717236000000")).toBe(1717236000000);
  });
});

describe("checkBuildVersion", () => {
  const run = (storage: Storage, published: string | Promise<never>) => {
    const reload = vi.fn();
    const fetchMeta = vi.fn(() =>
      typeof published === "string" ? Promise.resolve({ buildDateTime: published }) : published,
    );
    return { reload, fetchMeta, result: checkBuildVersion({ fetchMeta, storage, reload }) };
  };

  it("stores the date on a first visit without reloading", async () => {
    const storage = new MemoryStorage();
    const { reload, result } = run(storage, NEW);
    expect(await result).toBe(false);
    expect(reload).not.toHaveBeenCalled();
    expect(storage.getItem(BUILD_DATE_KEY)).toBe(NEW);
  });

  it("reloads once when a later build is published, and not again after the reload", async () => {
    const storage = new MemoryStorage();
    storage.setItem(BUILD_DATE_KEY, OLD);
    const first = run(storage, NEW);
    expect(await first.result).toBe(true);
    expect(first.reload).toHaveBeenCalledTimes(1);
    expect(storage.getItem(BUILD_DATE_KEY)).toBe(NEW);

    const afterReload = run(storage, NEW);
    expect(await afterReload.result).toBe(false);
    expect(afterReload.reload).not.toHaveBeenCalled();
  });

  it("does not reload for the same or an older build", async () => {
    const storage = new MemoryStorage();
    storage.setItem(BUILD_DATE_KEY, NEW);
    const { reload, result } = run(storage, OLD);
    expect(await result).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });

  it("ignores a failed or malformed metadata read and keeps the stored date", async () => {
    const storage = new MemoryStorage();
    storage.setItem(BUILD_DATE_KEY, OLD);
    const failed = run(storage, Promise.reject(new Error("offline")));
    expect(await failed.result).toBe(false);
    const malformed = run(storage, "not a date");
    expect(await malformed.result).toBe(false);
    expect(storage.getItem(BUILD_DATE_KEY)).toBe(OLD);
    expect(failed.reload).not.toHaveBeenCalled();
    expect(malformed.reload).not.toHaveBeenCalled();
  });
});
