/**
 * server/http/pressure.ts: busy only when requests come in AND either the event loop is mostly
 * working or many of them wait unanswered; neither alone (background work keeping the loop busy,
 * a page's few requests, many quick answers).
 */
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { requestPressure } from "../../server/http/pressure";

/** Keeps the event loop working for `ms`. */
const work = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // the loop is busy
  }
};
const idle = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** `n` requests, answered at once unless `waiting`: their responses, to close later. */
const requests = (server: EventEmitter, n: number, waiting = false) => {
  const responses = Array.from({ length: n }, () => new EventEmitter());
  for (const response of responses) {
    server.emit("request", {}, response);
    if (!waiting) response.emit("close");
  }
  return responses;
};

describe("requestPressure", () => {
  it("is busy only while many requests come in and the loop works or they wait", async () => {
    const server = new EventEmitter();
    const busy = requestPressure(server);

    requests(server, 30);
    work(550);
    expect(busy()).toBe(true);
    // Within the half second, the reading stands.
    expect(busy()).toBe(true);

    // The loop working without requests (background work itself): not busy.
    work(550);
    expect(busy()).toBe(false);

    // Many requests on an idle loop: not busy.
    requests(server, 30);
    await idle(550);
    expect(busy()).toBe(false);

    // A few requests (a page opened) on a working loop: not busy.
    requests(server, 5);
    work(550);
    expect(busy()).toBe(false);

    // Many requests waiting on an idle loop (on their database): busy, until they are answered.
    const waiting = requests(server, 30, true);
    await idle(550);
    expect(busy()).toBe(true);
    for (const response of waiting) response.emit("close");
    requests(server, 30);
    await idle(550);
    expect(busy()).toBe(false);
  });
});
