/**
 * The signed-webhook sender through the CMS (issue 14): publishing an entry reaches a hook
 * with an HMAC-SHA256 signature that verifies; a failing endpoint is tried again through the
 * job queue and the delivery log says so; private targets are refused unless allowed.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPublicAddress } from "../../server/http/outbound";
import { DRIVERS, startServer, type TestServer } from "./harness";
import { receiver } from "./webhook-receiver";

type Rec = Record<string, unknown> & { id: string };

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("CMS webhooks", () => {
  let s: TestServer;
  let admin: string;
  const call = <T = Rec>(method: string, path: string, body?: unknown) =>
    s.api<T>(method, path, { token: admin, body });

  beforeAll(async () => {
    s = await startServer("pglite", { OUTBOUND_ALLOW_PRIVATE: "true" });
    admin = (await s.signIn()).accessToken;
    await call("POST", "/cms/content-types", {
      kind: "collection",
      apiName: "note",
      name: "Note",
      properties: { text: { "x-kind": "text", title: "Text" } },
    });
  });
  afterAll(() => s?.close());

  it("signs each delivery so the receiver can verify it, and logs it delivered", async () => {
    const hook = await receiver();
    const created = await call<Rec & { secret: string }>("POST", "/cms/webhooks", {
      name: "Site",
      url: hook.url,
      events: ["entry.publish"],
    });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    expect((await call<{ data: Rec[] }>("GET", "/cms/webhooks")).body.data[0]).not.toHaveProperty("secret");
    const entry = (await call("POST", "/cms/entries/note", { text: "Hi" })).body;
    await call("POST", `/cms/entries/note/${entry.id}/publish`, {});
    const got = await until(
      async () => hook.received,
      (r) => r.length > 0,
    );
    expect(got).toHaveLength(1);
    const { headers, body } = got[0];
    expect(headers["x-atelier-event"]).toBe("entry.publish");
    const [t, v1] = String(headers["x-atelier-signature"])
      .split(",")
      .map((p) => p.split("=")[1]);
    expect(createHmac("sha256", created.body.secret).update(`${t}.${body}`).digest("hex")).toBe(v1);
    expect(JSON.parse(body)).toMatchObject({
      event: "entry.publish",
      data: { type: "note", entry: { id: entry.id, text: "Hi" } },
    });
    const log = await until(
      async () =>
        (await call<{ data: Rec[] }>("GET", `/cms/webhooks/${created.body.id}/deliveries`)).body.data,
      (d) => d[0]?.state === "delivered",
    );
    expect(log[0]).toMatchObject({
      event: "entry.publish",
      state: "delivered",
      attempts: 1,
      responseStatus: 200,
    });
    await hook.close();
  });

  it("tries a failing endpoint again with the queue's backoff, and the log shows each outcome", async () => {
    const hook = await receiver([500]);
    const created = (
      await call("POST", "/cms/webhooks", { name: "Flaky", url: hook.url, events: ["entry.unpublish"] })
    ).body;
    const entry = (await call("POST", "/cms/entries/note", { text: "Bye" })).body;
    await call("POST", `/cms/entries/note/${entry.id}/publish`, {});
    await call("POST", `/cms/entries/note/${entry.id}/unpublish`);
    const first = await until(
      async () => (await call<{ data: Rec[] }>("GET", `/cms/webhooks/${created.id}/deliveries`)).body.data,
      (d) => d[0]?.attempts === 1,
    );
    expect(first[0]).toMatchObject({
      state: "pending",
      responseStatus: 500,
      error: "The endpoint answered 500",
    });
    const done = await until(
      async () => (await call<{ data: Rec[] }>("GET", `/cms/webhooks/${created.id}/deliveries`)).body.data,
      (d) => d[0]?.state === "delivered",
    );
    expect(done[0]).toMatchObject({ state: "delivered", attempts: 2, responseStatus: 200, error: null });
    expect(hook.received).toHaveLength(2);
    await hook.close();
  });

  it("refuses private and loopback targets unless configuration allows them", async () => {
    const strict = await startServer("pglite");
    try {
      const token = (await strict.signIn()).accessToken;
      for (const url of [
        "http://127.0.0.1:9/hook",
        "http://10.1.2.3/x",
        "http://169.254.169.254/latest",
        "http://localhost/x",
        "ftp://example.com/x",
      ]) {
        const res = await strict.api<{ details: Array<{ field: string }> }>("POST", "/cms/webhooks", {
          token,
          body: { name: "X", url, events: ["entry.publish"] },
        });
        expect(res.status, url).toBe(400);
        expect(res.body.details[0].field).toBe("url");
      }
    } finally {
      await strict.close();
    }
    expect(["8.8.8.8", "2606:4700::1111"].every(isPublicAddress)).toBe(true);
    expect(
      [
        "127.0.0.1",
        "10.0.0.1",
        "172.16.5.4",
        "192.168.1.1",
        "169.254.169.254",
        "::1",
        "fd00::1",
        "fe80::1",
        "::ffff:127.0.0.1",
        "0.0.0.0",
      ].some(isPublicAddress),
    ).toBe(false);
  });
});

describe.runIf(DRIVERS.includes("postgres"))("a scheduled publish", () => {
  it("happens at its time even when the server restarted in between", async () => {
    const first = await startServer("postgres");
    const databaseUrl = first.databaseUrl as string;
    const token = (await first.signIn()).accessToken;
    const call = (server: TestServer, method: string, path: string, body?: unknown) =>
      server.api<Rec>(method, path, { token, body });
    const shop = (await call(first, "POST", "/cms/domains", { key: "later", name: "Later" })).body;
    await call(first, "POST", "/cms/content-types", {
      kind: "collection",
      apiName: "news",
      name: "News",
      properties: { title: { "x-kind": "text", title: "Title" } },
    });
    const entry = (await call(first, "POST", "/cms/entries/news", { title: "Soon", domain_ids: [shop.id] }))
      .body;
    const at = new Date(Date.now() + 4000).toISOString();
    const scheduled = await call(first, "POST", `/cms/entries/news/${entry.id}/schedule`, { publishAt: at });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    expect(scheduled.body.publish_at).toBe(at);
    const past = await call(first, "POST", `/cms/entries/news/${entry.id}/schedule`, {
      publishAt: "2000-01-01T00:00:00Z",
    });
    expect(past.status).toBe(400);
    // The server stops before the time; another starts on the same database.
    await first.close({ keepDatabase: true });
    const second = await startServer("postgres", {}, { databaseUrl });
    try {
      const read = await until(
        () => second.api<{ data: Rec }>("GET", `/public-cms/later/news/${entry.id}`),
        (r) => r.status === 200,
      );
      expect(read.status).toBe(200);
      expect(read.body.data.title).toBe("Soon");
      const token2 = (await second.signIn()).accessToken;
      const stored = await second.api<Rec>("GET", `/cms/entries/news/${entry.id}`, { token: token2 });
      expect(stored.body).toMatchObject({ status: "published", publish_at: null });
    } finally {
      await second.close();
    }
  });
});
