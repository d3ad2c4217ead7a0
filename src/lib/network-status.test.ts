import { describe, expect, it, vi } from "vitest";
import { type NetworkEventTarget, watchNetworkStatus } from "./network-status";

/** Node's EventTarget behaves as a window does for these events. */
const makeTarget = () => new EventTarget() as EventTarget & NetworkEventTarget;

describe("watchNetworkStatus", () => {
  it("calls offline and online as events arrive", () => {
    const target = makeTarget();
    const offline = vi.fn();
    const online = vi.fn();
    watchNetworkStatus(target, { offline, online });

    target.dispatchEvent(new Event("offline"));
    expect(offline).toHaveBeenCalledTimes(1);
    expect(online).not.toHaveBeenCalled();

    target.dispatchEvent(new Event("online"));
    expect(online).toHaveBeenCalledTimes(1);
  });

  it("stops after the returned function is called", () => {
    const target = makeTarget();
    const offline = vi.fn();
    const online = vi.fn();
    const stop = watchNetworkStatus(target, { offline, online });
    stop();
    target.dispatchEvent(new Event("offline"));
    target.dispatchEvent(new Event("online"));
    expect(offline).not.toHaveBeenCalled();
    expect(online).not.toHaveBeenCalled();
  });

  it("accepts a window", () => {
    // Type-level check: a DOM Window is a NetworkEventTarget.
    const accepts = (w: Window): NetworkEventTarget => w;
    expect(typeof accepts).toBe("function");
  });
});
