/**
 * No secret in a log line, on PGlite and PostgreSQL. Walks the route table: every route whose
 * `config.secrets` names a path or query parameter, body field or header is called with a
 * fresh value in each (valid or not: the point is the log), and so are the real secrets of
 * an invitation, a proposal's share link, an automation's webhook and a CMS API token, a
 * mistyped, wrong-method and malformed URL holding one, and test-only routes whose errors
 * quote them. No line the server logs (at debug level: request, error, job lines alike) and
 * no security event holds any of the values. And a route with a secret-looking parameter
 * that says nothing about it fails the walk.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookTaskAutomation } from "../../schemas/automation-fixtures";
import { PUBLIC } from "../../server/auth/access";
import { undeclaredSecrets } from "../../server/security/log-secrets";
import type { RouteSecrets } from "../../server/security/redact";
import { ADMIN, DEVICE, DRIVERS, startServer, type TestServer } from "./harness";
import { awayFromStepEdge, code, PASSWORD } from "./second-factor-fixtures";

/** Every line the server logs, kept as text. */
function logCapture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { lines, stream, text: () => lines.join("\n") };
}

/** Routes that must be in the walk: a walk that finds fewer is broken. */
const KNOWN = [
  "GET /public/proposals/:token",
  "POST /public/proposals/:token/accept",
  "POST /public/proposals/:token/decline",
  "POST /hooks/automations/:id/:secret",
  "GET /public/mail/:id/open.gif",
  "GET /public/mail/:id/click",
  "POST /hooks/store/:id",
  "POST /crm/hooks/sms/inbound",
  "POST /crm/hooks/sms/status",
  "GET /public-cms/:domain/:type",
  "GET /assets/*",
  "POST /api/auth/signin",
  "POST /api/auth/refreshtokenapp",
  "POST /api/auth/reset-password/info",
  "POST /api/auth/reset-password",
  "POST /api/auth/signin/second-factor",
  "POST /api/auth/signin/second-factor/enrol",
  "POST /api/auth/signin/second-factor/enrol/confirm",
  "POST /api/users/me/second-factor/confirm",
  "POST /api/users/me/second-factor/recovery-codes",
  "POST /api/users/me/second-factor/disable",
];

/** Body fields a route needs besides its secrets to get past validation to its work. */
const BODY_EXTRAS: Record<string, Record<string, unknown>> = {
  "/api/auth/signin": { email: ADMIN.email, deviceInfo: DEVICE },
};

const hasSecrets = (s: RouteSecrets | undefined): s is RouteSecrets =>
  Boolean(s?.params?.length || s?.query?.length || s?.body?.length || s?.headers?.length);

describe.each(DRIVERS)("no secret in a log line on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  const log = logCapture();
  /** Every secret value the test sent. */
  const sent: string[] = [];
  const fresh = (label: string) => {
    // Token-shaped (letters, digits; 16–64 long) so that it gets past format checks to lookups.
    const value = `Sec${label.replace(/\W/g, "")}${sent.length}x${randomBytes(8).toString("hex")}`;
    sent.push(value);
    return value;
  };
  let requests = 0;
  async function send(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string } = {},
  ) {
    requests++;
    const res = await fetch(s.baseUrl + path, { method, ...init, redirect: "manual" });
    const text = await res.text();
    return { status: res.status, text };
  }
  const call = async (method: string, path: string, body?: unknown) => {
    requests++;
    return s.api<Record<string, unknown>>(method, path, { token: admin, body });
  };
  async function ok(method: string, path: string, body?: unknown, status = 200) {
    const res = await call(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
    return res.body as Record<string, never>;
  }

  beforeAll(async () => {
    s = await startServer(
      driver,
      {},
      {
        logger: { level: "debug", stream: log.stream },
        beforeListen({ app, ctx }) {
          const boom = {
            access: PUBLIC,
            secrets: { params: ["token"], query: ["apiKey"], body: ["pin"], headers: ["cookie"] },
          };
          // A handler whose error quotes every secret it was given: a 500, logged with its stack.
          app.post<{ Params: { token: string }; Querystring: { apiKey?: string }; Body: { pin?: string } }>(
            "/test-only/boom/:token",
            { config: boom, schema: { hide: true } },
            async (request) => {
              const { token } = request.params;
              throw new Error(
                `vault ${token} refused key ${request.query.apiKey} pin ${request.body?.pin} cookie ${request.headers.cookie}`,
              );
            },
          );
          // The database quoting the value back: a 400 logged as a warning with the error.
          app.get<{ Params: { token: string } }>(
            "/test-only/db/:token",
            { config: { access: PUBLIC, secrets: { params: ["token"] } }, schema: { hide: true } },
            async (request) => (await sql`select ${request.params.token}::uuid as id`.execute(ctx.db)).rows,
          );
          // A route that forgot to say: the walk must find it.
          app.get(
            "/test-only/forgot/:shareToken",
            { config: { access: PUBLIC }, schema: { hide: true } },
            async () => ({}),
          );
        },
      },
    );
    requests++;
    admin = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  it("finds every route with a secret-looking parameter declared, and the one that is not", () => {
    const undeclared = s.routes.filter(
      (r) => undeclaredSecrets({ ...r, config: { secrets: r.secrets } }).length,
    );
    expect(undeclared.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      "GET /test-only/forgot/:shareToken",
      "HEAD /test-only/forgot/:shareToken",
    ]);
    const walked = s.routes.filter((r) => hasSecrets(r.secrets)).map((r) => `${r.method} ${r.url}`);
    expect(walked).toEqual(expect.arrayContaining(KNOWN));
  });

  it("calls every route with secrets with fresh values in each, and never errs with a 5xx", async () => {
    for (const route of s.routes.filter((r) => hasSecrets(r.secrets))) {
      const secrets = route.secrets as RouteSecrets;
      const path = route.url
        .replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
          secrets.params?.includes(name) ? fresh(name) : name === "id" ? randomUUID() : "x",
        )
        .replace("*", () => (secrets.params?.includes("*") ? `${fresh("file")}/page.png` : "x"));
      const query = (secrets.query ?? []).map((name) => `${name}=${fresh(name)}`).join("&");
      const headers: Record<string, string> = {};
      for (const name of secrets.headers ?? [])
        headers[name] = name === "authorization" ? `Bearer ${fresh(name)}` : fresh(name);
      const withBody = !["GET", "HEAD", "OPTIONS"].includes(route.method);
      let body: string | undefined;
      if (withBody) {
        const fields = Object.fromEntries((secrets.body ?? []).map((f) => [f, fresh(f)]));
        body = JSON.stringify({ ...BODY_EXTRAS[route.url], ...fields });
        headers["content-type"] = "application/json";
      }
      const res = await send(route.method, query ? `${path}?${query}` : path, { headers, body });
      if (route.url !== "/test-only/boom/:token")
        expect(res.status, `${route.method} ${route.url}`).toBeLessThan(500);
    }
  });

  it("redacts secrets in URLs no route answers: wrong method, unknown suffix, bad encoding", async () => {
    expect((await send("GET", `/public/proposals/${fresh("wrongMethod")}/accept`)).status).toBe(404);
    expect((await send("POST", `/public/proposals/${fresh("suffix")}/bogus`)).status).toBe(404);
    expect((await send("GET", `/hooks/automations/${randomUUID()}/${fresh("hookGet")}`)).status).toBe(404);
    // Refused before routing: logged as it comes in, never as completed (so not counted).
    expect((await send("GET", `/public/proposals/${fresh("badUrl")}%FF`)).status).toBe(400);
    requests--;
    expect((await send("GET", `/assets/${fresh("missing")}`)).status).toBeGreaterThanOrEqual(400);
  });

  it("keeps a real invitation link out of the log: its page, its check, its use", async () => {
    const email = `invitee-${driver}@example.com`;
    await ok(
      "POST",
      "/api/users",
      { first_name: "Ivy", last_name: "Vited", email, role: 3, modules: [1], invite: true },
      201,
    );
    const mails = (await ok("GET", `/api/outbox?q=${encodeURIComponent(email)}`)).data as Array<{
      text: string;
    }>;
    const id = /\/manage\/resetpassword\/(\S+)/.exec(mails[0]?.text ?? "")?.[1];
    if (!id) throw new Error("no invitation link in the outbox");
    sent.push(id);
    await send("GET", `/manage/resetpassword/${id}`);
    await send("GET", `/manage/resetpassword/${id.length}/${id}?from=mail`);
    const info = await send("POST", "/api/auth/reset-password/info", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id }),
    });
    expect(info.text).toContain("invite");
    const used = await send("POST", "/api/auth/reset-password", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id, password: "Sturdy-lantern-passw0rd-9" }),
    });
    expect(used.status, used.text).toBe(200);
  });

  it("keeps a real proposal share token and a real automation webhook secret out of the log", async () => {
    const category = await ok("POST", "/api/categories", { name: "Log goods" }, 201);
    const product = await ok(
      "POST",
      "/api/products",
      {
        sku_code: `LOG-${driver}`,
        name: "Quiet lamp",
        price: 12.5,
        currency: "INR",
        category_id: category.id,
      },
      201,
    );
    const client = await ok("POST", "/crm/clients", { name: "Asha Rao", email: "asha@example.com" }, 201);
    const draft = await ok("POST", "/api/proposals", { title: "Lamps", client_id: client.id }, 201);
    await ok("PUT", `/api/proposals/${draft.id}/lines`, { lines: [{ product_id: product.id, quantity: 2 }] });
    const link = String((await ok("POST", `/api/proposals/${draft.id}/send`, {})).link);
    const token = link.split("/").pop() as string;
    sent.push(token);
    expect((await send("GET", `/public/proposals/${token}`)).status).toBe(200);
    const accepted = await send("POST", `/public/proposals/${token}/accept`, {
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(accepted.status, accepted.text).toBe(200);

    const flow = await ok("POST", "/api/automations", { name: "Hooked" }, 201);
    const definition = webhookTaskAutomation("Hi");
    await ok("PUT", `/api/automations/${flow.id}/draft`, { definition });
    await ok("POST", `/api/automations/${flow.id}/publish`);
    const { webhookPath } = await ok("GET", `/api/automations/${flow.id}/draft`);
    sent.push(String(webhookPath).split("/").pop() as string);
    const hooked = await send("POST", webhookPath, {
      headers: { "content-type": "application/json" },
      body: '{"caller":"Sam"}',
    });
    expect(hooked.status, hooked.text).toBe(202);
  });

  it("keeps a real CMS API token out of the log", async () => {
    const domain = await ok(
      "POST",
      "/cms/domains",
      { key: `logs-${driver}`, name: "Logs", access: "token" },
      201,
    );
    const made = await ok("POST", `/cms/domains/${domain.id}/tokens`, { name: "Site" }, 201);
    sent.push(String(made.token));
    const res = await send("GET", `/public-cms/logs-${driver}/pages`, {
      headers: { authorization: `Bearer ${made.token}` },
    });
    expect(res.status, res.text).toBeLessThan(500);
    expect(res.status).not.toBe(401);
  });

  it("keeps a second factor out of the log: its secret, the challenge, the codes, the recovery codes", async () => {
    const email = `two-step-${driver}@example.com`;
    const user = { first_name: "Tia", last_name: "Step", email, password: PASSWORD, role: 3, modules: [1] };
    await ok("POST", "/api/users", user, 201);
    const json = { "content-type": "application/json" };
    const signIn = async () => {
      const res = await send("POST", "/api/auth/signin", {
        headers: json,
        body: JSON.stringify({ email, password: PASSWORD, deviceInfo: DEVICE }),
      });
      return JSON.parse(res.text) as { accessToken?: string; challenge?: string };
    };
    let token = (await signIn()).accessToken as string;
    const mine = (path: string, body?: unknown) => {
      requests++;
      return s.api<Record<string, unknown>>("POST", `/api/users/me/second-factor${path}`, { token, body });
    };
    const { secret } = (await mine("/enrol")).body as { secret: string };
    sent.push(secret);
    await awayFromStepEdge();
    const confirmed = await mine("/confirm", { code: code(secret, -1) });
    expect(confirmed.status).toBe(200);
    const recoveryCodes = confirmed.body.recoveryCodes as string[];
    sent.push(...recoveryCodes);
    // A wrong recovery code and a right one at the second step, each with its own challenge.
    for (const given of [fresh("wrongRecovery"), recoveryCodes[0]]) {
      const { challenge } = await signIn();
      sent.push(challenge as string);
      const step = await send("POST", "/api/auth/signin/second-factor", {
        headers: json,
        body: JSON.stringify({ challenge, code: given }),
      });
      // The device's new session replaces the one that enrolled.
      if (step.status === 200) token = (JSON.parse(step.text) as { accessToken: string }).accessToken;
    }
    const disabled = await mine("/disable", { code: recoveryCodes[1] });
    expect(disabled.status).toBe(204);
  });

  it("writes none of the values in any log line or security event", async () => {
    const completed = () => log.lines.filter((l) => l.includes('"msg":"request completed"')).length;
    await expect.poll(completed, { timeout: 20_000 }).toBeGreaterThanOrEqual(requests);
    const text = log.text();
    expect(sent.length).toBeGreaterThan(KNOWN.length);
    for (const value of sent) expect(text, value).not.toContain(value);
    for (const value of sent) expect(text).not.toContain(encodeURIComponent(value));

    // The capture works, and the lines are there, redacted rather than missing.
    const urls = log.lines.map((l) => (JSON.parse(l) as { req?: { url?: string } }).req?.url ?? "");
    expect(urls).toEqual(
      expect.arrayContaining([
        "/public/proposals/[redacted]",
        "/public/proposals/[redacted]/accept",
        "/public/proposals/[redacted]/bogus",
        expect.stringMatching(/^\/hooks\/automations\/[\w-]{36}\/\[redacted\]$/),
        "/assets/[redacted]",
        "/manage/resetpassword/[redacted]",
        "/test-only/boom/[redacted]?apiKey=[redacted]",
      ]),
    );
    const failed = log.lines.find((l) => l.includes('"msg":"request failed"'));
    expect(failed).toContain("vault [redacted] refused key [redacted] pin [redacted] cookie [redacted]");
    expect(log.lines.find((l) => l.includes('"msg":"input refused by the database"'))).toContain(
      "[redacted]",
    );

    const events = await s.database.db.selectFrom("security_events").selectAll().execute();
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["signin_failed", "password_reset"]));
    const stored = JSON.stringify(events);
    for (const value of sent) expect(stored, value).not.toContain(value);
  });
});
