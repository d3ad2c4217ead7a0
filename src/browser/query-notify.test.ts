import { describe, expect, it } from "vitest";
import { coalescingScheduler } from "./query-notify";

/** A timer the test fires by hand: each `timer(run)` is one entry. */
function manualTimer() {
  const timers: (() => void)[] = [];
  return { timer: (run: () => void) => void timers.push(run), timers };
}

describe("coalescingScheduler", () => {
  it("runs the callbacks scheduled before its timer fires in that one timer, in order", () => {
    const { timer, timers } = manualTimer();
    const schedule = coalescingScheduler(timer);
    const ran: string[] = [];
    schedule(() => ran.push("a"));
    schedule(() => ran.push("b"));
    schedule(() => ran.push("c"));
    expect(timers).toHaveLength(1);
    expect(ran).toEqual([]);
    timers[0]();
    expect(ran).toEqual(["a", "b", "c"]);
  });

  it("starts a new timer for what is scheduled after one fired, including from inside it", () => {
    const { timer, timers } = manualTimer();
    const schedule = coalescingScheduler(timer);
    const ran: string[] = [];
    schedule(() => {
      ran.push("a");
      schedule(() => ran.push("from a"));
    });
    timers[0]();
    expect(ran).toEqual(["a"]);
    expect(timers).toHaveLength(2);
    schedule(() => ran.push("b"));
    expect(timers).toHaveLength(2);
    timers[1]();
    expect(ran).toEqual(["a", "from a", "b"]);
  });

  it("runs the others when one throws, and reports its error", () => {
    const { timer, timers } = manualTimer();
    const reported: unknown[] = [];
    const schedule = coalescingScheduler(timer, (error) => reported.push(error));
    const ran: string[] = [];
    const failure = new Error("listener failed");
    schedule(() => ran.push("a"));
    schedule(() => {
      throw failure;
    });
    schedule(() => ran.push("c"));
    timers[0]();
    expect(ran).toEqual(["a", "c"]);
    expect(reported).toEqual([failure]);
  });
});
