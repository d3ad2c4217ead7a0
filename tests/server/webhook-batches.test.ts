/**
 * A batch's webhook deliveries travel in jobs of many (server/webhooks/deliveries.ts): answers
 * sent at once reach every hook once each, and when one hook's endpoint fails, only its
 * delivery is sent again, after the queue's backoff, with its own attempts in the log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, startServer, type TestServer } from "./harness";
import { until } from "./jobs-helpers";
import { receiver } from "./webhook-receiver";

type Rec = Record<string, unknown> & { id: string };

describe.each(DRIVERS)("webhook deliveries in batches on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  const call = <T = Rec>(method: string, p: string, body?: unknown) =>
    s.api<T>(method, p, { token: admin, body });

  beforeAll(async () => {
    s = await startServer(driver, { OUTBOUND_ALLOW_PRIVATE: "true", FORMS_RATE_LIMIT: "1000" });
    admin = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  it("sends each answer to each hook once, and again only what failed", async () => {
    const form = (await call("POST", "/forms/forms", { name: "Signup", slug: "signup" })).body;
    const draft = await call<{ revision: number }>("GET", `/forms/forms/${form.id}/draft`);
    const definition = {
      fields: [{ id: "email", kind: "email", label: "Email", required: true, validation: {} }],
      settings: (await call<{ definition: { settings: unknown } }>("GET", `/forms/forms/${form.id}/draft`))
        .body.definition.settings,
    };
    expect(
      (await call("PUT", `/forms/forms/${form.id}/draft`, { definition, revision: draft.body.revision }))
        .status,
    ).toBe(200);
    expect((await call("POST", `/forms/forms/${form.id}/publish`)).status).toBe(200);
    const steady = await receiver();
    // Its first call fails: the delivery it was for is sent again; the others are not.
    const flaky = await receiver([503]);
    const hooks: Rec[] = [];
    for (const [name, url] of [
      ["Steady", steady.url],
      ["Flaky", flaky.url],
    ])
      hooks.push((await call("POST", "/forms/webhooks", { name, url, events: ["submission.created"] })).body);
    const sent = await Promise.all(
      ["a", "b", "c"].map((n) =>
        s.api<Rec>("POST", "/forms/f/signup/submissions", {
          body: { answers: { email: `${n}@batch.test` } },
        }),
      ),
    );
    expect(sent.map((r) => r.status)).toEqual([201, 201, 201]);
    const deliveriesOf = async (hookId: string) =>
      (await call<{ data: Rec[] }>("GET", `/forms/webhooks/${hookId}/deliveries`)).body.data;
    const flakyLog = await until(async () => {
      const log = await deliveriesOf(hooks[1].id);
      return log.length === 3 && log.every((d) => d.state === "delivered") ? log : null;
    }, "the flaky hook's deliveries");
    expect(flakyLog.map((d) => d.attempts).sort()).toEqual([1, 1, 2]);
    expect(flaky.received).toHaveLength(4);
    const steadyLog = await deliveriesOf(hooks[0].id);
    expect(steadyLog.map((d) => [d.state, d.attempts])).toEqual([
      ["delivered", 1],
      ["delivered", 1],
      ["delivered", 1],
    ]);
    expect(steady.received).toHaveLength(3);
    const ids = (r: { body: string }[]) => r.map((x) => JSON.parse(x.body).data.submission.id).sort();
    expect(ids(steady.received)).toEqual(sent.map((r) => r.body.id).sort());
    expect(new Set(ids(flaky.received))).toEqual(new Set(sent.map((r) => r.body.id)));
    await steady.close();
    await flaky.close();
  });
});
