import { describe, expect, it } from "vitest";
import { idempotencyKeys, readOutcome, SEND_MESSAGES, sendSubmission } from "./submit";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("idempotencyKeys", () => {
  it("gives the same key to the same answers sent again, a new one to changed answers", () => {
    let n = 0;
    const keyFor = idempotencyKeys(() => `k${++n}`);
    expect(keyFor('{"a":1}')).toBe("k1");
    expect(keyFor('{"a":1}')).toBe("k1");
    expect(keyFor('{"a":2}')).toBe("k2");
    expect(keyFor('{"a":1}')).toBe("k3");
  });

  it("makes random UUIDs by default", () => {
    expect(idempotencyKeys()("x")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("readOutcome: the server's answer in words", () => {
  it("201 is sent", async () => {
    expect(await readOutcome(json(201, { id: "s1", message: "ok" }))).toEqual({ kind: "sent" });
  });

  it("400 gives each field its message (field ids, also when written as answers.<id>)", async () => {
    const outcome = await readOutcome(
      json(400, {
        statusCode: 400,
        message: "Invalid answers",
        details: [
          { field: "email", message: "Email is required" },
          { field: "answers.plan", message: "Plan must be one of its choices" },
          { field: 3, message: "ignored" },
        ],
      }),
    );
    expect(outcome).toEqual({
      kind: "invalid",
      errors: [
        { field: "email", message: "Email is required" },
        { field: "plan", message: "Plan must be one of its choices" },
      ],
      message: SEND_MESSAGES.invalid,
    });
  });

  it("400 without details says the server's message", async () => {
    expect(await readOutcome(json(400, { message: "Body is too large" }))).toMatchObject({
      kind: "invalid",
      errors: [],
      message: "Body is too large",
    });
  });

  it("429, 410, 404, 413, 5xx: what happened and whether trying again may help", async () => {
    expect(await readOutcome(json(429, {}))).toEqual({
      kind: "failed",
      message: "Too many answers from your address; try again in a minute",
      retry: true,
    });
    expect(await readOutcome(json(410, {}))).toEqual({
      kind: "failed",
      message: "This form is closed.",
      retry: false,
    });
    expect(await readOutcome(json(404, {}))).toMatchObject({ retry: false, message: SEND_MESSAGES.gone });
    expect(await readOutcome(json(413, {}))).toMatchObject({ retry: false, message: SEND_MESSAGES.tooLarge });
    expect(await readOutcome(new Response("<html>oops</html>", { status: 502 }))).toMatchObject({
      retry: true,
      message: SEND_MESSAGES.server,
    });
  });
});

describe("sendSubmission", () => {
  it("posts JSON with the Idempotency-Key and no cookies", async () => {
    const calls: Array<[string, RequestInit]> = [];
    const fetchStub = (async (url: string, init: RequestInit) => {
      calls.push([url, init]);
      return json(201, { id: "s1" });
    }) as unknown as typeof fetch;
    const outcome = await sendSubmission("/forms/f/c/submissions", '{"answers":{}}', "key-1", fetchStub);
    expect(outcome).toEqual({ kind: "sent" });
    const [url, init] = calls[0];
    expect(url).toBe("/forms/f/c/submissions");
    expect(init).toMatchObject({ method: "POST", credentials: "omit", body: '{"answers":{}}' });
    expect(init.headers).toMatchObject({ "content-type": "application/json", "idempotency-key": "key-1" });
  });

  it("a lost connection is an outcome to retry, not an exception", async () => {
    const offline = (async () => {
      throw new TypeError("Failed to fetch");
    }) as unknown as typeof fetch;
    expect(await sendSubmission("/x", "{}", "k", offline)).toEqual({
      kind: "failed",
      message: SEND_MESSAGES.network,
      retry: true,
    });
  });
});
