/**
 * Whether the server is busy with requests: over the last half second (or longer, when asked
 * less often), it started at least MIN_REQUESTS requests, and either its event loop spent more
 * than BUSY_SHARE of the time working rather than waiting, or WAITING requests are unanswered
 * now (the server waits on its database for them). The job queue holds its background jobs back
 * meanwhile (RegisterOptions.background), so that bulk work such as webhook deliveries yields
 * to the requests people wait on, and runs at full speed once they pass.
 *
 * A rate of requests is needed besides: the loop's share alone would count the background work
 * itself (deliveries at full speed keep a loop busy, and would hold themselves back), and a few
 * requests (an admin opening a page) are no reason to hold anything back. A high rate of quick
 * answers (cached reads of the delivery API) is none either: the loop idles between them and
 * none waits.
 *
 * @example
 * const busy = requestPressure(app.server);
 * createJobQueue({ db, log, busy });
 */
import type { EventEmitter } from "node:events";
import { type EventLoopUtilization, performance } from "node:perf_hooks";

/** How long one reading covers at least. */
const WINDOW_MS = 500;
/** Requests started in a window below which the server is not busy (40 a second). */
const MIN_REQUESTS = 20;
/** The event loop's working share above which a server taking requests is busy. */
const BUSY_SHARE = 0.5;
/** Requests unanswered at once from which a server taking requests is busy. */
const WAITING = 16;

export function requestPressure(server: EventEmitter): () => boolean {
  let requests = 0;
  let unanswered = 0;
  const answered = () => {
    unanswered--;
  };
  server.on("request", (_request: unknown, response: EventEmitter) => {
    requests++;
    unanswered++;
    response.once("close", answered);
  });
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  let lastAt = Date.now();
  let busy = false;
  return () => {
    const now = Date.now();
    if (now - lastAt < WINDOW_MS) return busy;
    const current = performance.eventLoopUtilization();
    busy =
      requests >= MIN_REQUESTS &&
      (unanswered >= WAITING || performance.eventLoopUtilization(current, last).utilization > BUSY_SHARE);
    requests = 0;
    last = current;
    lastAt = now;
    return busy;
  };
}
