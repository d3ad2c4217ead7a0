/**
 * react-query tells a hook its query changed through its notify manager, which hands each batch
 * of notices to `setTimeout(…, 0)`: one timer per batch. Queries that settle in the same task
 * (the sider's access checks, answered together from the one loaded identity) each get a timer
 * of their own, and React renders and commits once per timer: 26 commits of the menu, one item
 * more each, before a list's first row (issue 28). Run together, the notices of one task are
 * one React batch: one render, one commit. Nothing is notified sooner or in another order.
 */
import { notifyManager } from "@tanstack/react-query";

type Timer = (run: () => void) => void;

/**
 * A scheduler for `notifyManager.setScheduler`: the callbacks scheduled before its timer fires
 * run in that one timer, in order. One that throws does not keep the others from running; its
 * error is reported as an uncaught error would be.
 */
export function coalescingScheduler(
  timer: Timer = (run) => setTimeout(run, 0),
  report: (error: unknown) => void = (error) => reportError(error),
): (callback: () => void) => void {
  let pending: (() => void)[] = [];
  const runPending = () => {
    const callbacks = pending;
    pending = [];
    for (const callback of callbacks) {
      try {
        callback();
      } catch (error) {
        report(error);
      }
    }
  };
  return (callback) => {
    pending.push(callback);
    if (pending.length === 1) timer(runPending);
  };
}

/** Installs {@link coalescingScheduler} on react-query's notify manager (once, at the app's start). */
export function coalesceQueryNotices(): void {
  notifyManager.setScheduler(coalescingScheduler());
}
