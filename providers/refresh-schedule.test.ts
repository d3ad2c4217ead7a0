import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_TIMER_DELAY_MS, REFRESH_LEAD_MS, refreshDelayMs, scheduleRefresh } from "./refresh-schedule";

const NOW = 1_700_000_000_000;
const MINUTE = 60_000;

describe("refreshDelayMs", () => {
  it("refreshes 1 minute before expiry", () => {
    expect(REFRESH_LEAD_MS).toBe(MINUTE);
    expect(refreshDelayMs(NOW + 15 * MINUTE, NOW)).toBe(14 * MINUTE);
    expect(refreshDelayMs(NOW + 15 * MINUTE, NOW, 15 * MINUTE)).toBe(14 * MINUTE);
  });

  it("refreshes immediately when that moment has passed", () => {
    expect(refreshDelayMs(NOW + 30_000, NOW)).toBe(0);
    expect(refreshDelayMs(NOW + MINUTE, NOW)).toBe(0);
  });

  it("refreshes immediately when the token has expired", () => {
    expect(refreshDelayMs(NOW - 1, NOW)).toBe(0);
    expect(refreshDelayMs(NOW, NOW)).toBe(0);
    expect(refreshDelayMs(NOW - 1, NOW, 5_000)).toBe(0);
  });

  it("halves the remaining time for tokens not longer-lived than the lead", () => {
    expect(refreshDelayMs(NOW + 5_000, NOW, 5_000)).toBe(2_500);
    expect(refreshDelayMs(NOW + 1_001, NOW, 5_000)).toBe(500);
    expect(refreshDelayMs(NOW + MINUTE, NOW, MINUTE)).toBe(30_000);
  });

  it("a token of lead + 1 ms follows the spec rule", () => {
    expect(refreshDelayMs(NOW + MINUTE + 1, NOW, MINUTE + 1)).toBe(1);
  });

  it("gives 0 for an unreadable expiry", () => {
    expect(refreshDelayMs(Number.NaN, NOW)).toBe(0);
  });
});

describe("scheduleRefresh", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("calls refresh once, 1 minute before expiry", async () => {
    const refresh = vi.fn(() => Promise.resolve());
    scheduleRefresh(NOW + 10 * MINUTE, refresh);
    await vi.advanceTimersByTimeAsync(9 * MINUTE - 1);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it("calls refresh at once for an expired token", async () => {
    const refresh = vi.fn(() => Promise.resolve());
    scheduleRefresh(NOW - MINUTE, refresh);
    await vi.advanceTimersByTimeAsync(0);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it("does not call refresh once cancelled", async () => {
    const refresh = vi.fn(() => Promise.resolve());
    const cancel = scheduleRefresh(NOW + 2 * MINUTE, refresh);
    cancel();
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(refresh).not.toHaveBeenCalled();
  });

  it("does not loop on short-lived tokens", async () => {
    const refresh = vi.fn(() => Promise.resolve());
    scheduleRefresh(NOW + 5_000, refresh, { lifetimeMs: 5_000 });
    await vi.advanceTimersByTimeAsync(2_499);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it("waits past the timer limit without firing early", async () => {
    const refresh = vi.fn(() => Promise.resolve());
    const expiry = NOW + MAX_TIMER_DELAY_MS + 10 * MINUTE;
    scheduleRefresh(expiry, refresh);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_DELAY_MS);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(9 * MINUTE);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it("reports a failed refresh instead of leaving an unhandled rejection", async () => {
    const failure = new Error("down");
    const onError = vi.fn();
    scheduleRefresh(NOW, () => Promise.reject(failure), { onError });
    await vi.advanceTimersByTimeAsync(0);
    expect(onError).toHaveBeenCalledWith(failure);
  });
});
