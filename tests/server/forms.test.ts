/**
 * Forms (issue 15) against the real server and database: a form built and published through the
 * admin routes; the public definition without mail settings; submissions checked by the shared
 * logic (400 per field, nothing stored), UTM and first-touch recorded; the notification in the
 * outbox with To/Cc/Bcc and Reply-To; the webhook signed; the honeypot, the per-address limit,
 * Idempotency-Key; the plain HTML post; the submissions list, CSV and stats.
 */
import { createHmac } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FormDefinition } from "../../schemas/form-definition";
import { FORM_TEMPLATE_TOKENS } from "../../src/forms-public/render";
import { contactForm } from "./forms-fixtures";
import { DRIVERS, startServer, type TestServer } from "./harness";

type Rec = Record<string, unknown> & { id: string };

/** A built page stand-in: the template's tokens, nothing else (the real one is Vite's). */
function clientDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "atelier-forms-client-"));
  const t = FORM_TEMPLATE_TOKENS;
  writeFileSync(
    path.join(dir, "form.html"),
    `<!doctype html><html><head><title>${t.title}</title></head><body class="${t.bodyClass}">${t.content}${t.data}</body></html>`,
  );
  return dir;
}

describe.each(DRIVERS)("forms on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let form: Rec;
  const call = <T = Rec>(method: string, p: string, body?: unknown, headers?: Record<string, string>) =>
    s.api<T>(method, p, { token: admin, body, headers });
  const submit = (body: unknown, headers: Record<string, string> = {}) =>
    s.api<Rec & { details?: Array<{ field: string; message: string }> }>(
      "POST",
      `/forms/f/${form.slug}/submissions`,
      {
        body,
        headers,
      },
    );

  beforeAll(async () => {
    s = await startServer(driver, {
      OUTBOUND_ALLOW_PRIVATE: "true",
      CLIENT_DIR: clientDir(),
      FORMS_RATE_LIMIT: "1000",
    });
    admin = (await s.signIn()).accessToken;
    form = (await call("POST", "/forms/forms", { name: "Contact us", slug: "contact" })).body;
  });
  afterAll(() => s?.close());

  it("saves a draft with its revision, refuses a stale one, and publishes it as a version", async () => {
    const draft = await call<{ revision: number; definition: FormDefinition }>(
      "GET",
      `/forms/forms/${form.id}/draft`,
    );
    expect(draft.status).toBe(200);
    expect(draft.body.definition.fields).toEqual([]);
    expect(draft.body.definition.settings.utm.defaultParameters.map((p) => p.name)).toEqual([
      "utm_source",
      "utm_medium",
      "utm_campaign",
      "utm_term",
      "utm_content",
    ]);
    const early = await call("POST", `/forms/forms/${form.id}/publish`);
    expect(early.status).toBe(400);
    // The submissions list reads the fields of the draft now (none), and of each definition after.
    const byName = `/forms/forms/${form.id}/submissions?filters=${encodeURIComponent(JSON.stringify([{ field: "name", operator: "eq", value: "x" }]))}`;
    expect((await call("GET", byName)).status).toBe(400);
    const saved = await call<{ revision: number }>("PUT", `/forms/forms/${form.id}/draft`, {
      definition: contactForm(),
      revision: draft.body.revision,
    });
    expect(saved.status).toBe(200);
    const stale = await call("PUT", `/forms/forms/${form.id}/draft`, {
      definition: contactForm(),
      revision: draft.body.revision,
    });
    expect(stale.status).toBe(409);
    const published = await call<{ version: number }>("POST", `/forms/forms/${form.id}/publish`);
    expect(published.status).toBe(200);
    const record = (await call("GET", `/forms/forms/${form.id}`)).body;
    expect(record).toMatchObject({
      status: "published",
      has_changes: false,
      published_version: published.body.version,
    });
    const versions = await call<{ data: Array<{ version: number; kind: string }> }>(
      "GET",
      `/forms/forms/${form.id}/versions`,
    );
    expect(versions.body.data.map((v) => v.kind)).toEqual(["publish", "save"]);
    expect((await call("GET", byName)).status).toBe(200);
  });

  it("refuses a definition with bad addresses, duplicate ids and dangling logic, per field", async () => {
    const def = contactForm();
    def.settings.mail.sendCc = ["not-an-address"];
    def.fields.push({ ...def.fields[0] });
    def.fields[3].logic = [
      { action: "show", match: "all", conditions: [{ field: "nope", operator: "eq", value: "x" }] },
    ];
    def.fields[0].validation = { pattern: "^(a+)+$" };
    const { revision } = (await call<{ revision: number }>("GET", `/forms/forms/${form.id}/draft`)).body;
    const answer = await call<{ details: Array<{ field: string }> }>("PUT", `/forms/forms/${form.id}/draft`, {
      definition: def,
      revision,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.details.map((d) => d.field).sort()).toEqual(
      [
        "fields.0.validation.pattern",
        "fields.3.logic.0.conditions.0.field",
        "fields.6.id",
        "settings.mail.sendCc.0",
      ].sort(),
    );
  });

  it("serves the public definition without its mail settings", async () => {
    const answer = await s.api<Rec>("GET", `/forms/f/${form.slug}.json`);
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body)).not.toContain("sales@example.com");
    expect(answer.body).toMatchObject({
      slug: "contact",
      settings: { utm: { parameters: expect.arrayContaining(["gclid"]) } },
    });
    expect((await s.api("GET", "/forms/f/nope.json")).status).toBe(404);
  });

  it("answers 400 per field and stores nothing; a field required only when shown is required only then", async () => {
    const bad = await submit({
      answers: { name: "", email: "nope", plan: "Pro", start: "31-02-2025", seats: "0" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details?.map((d) => d.field).sort()).toEqual([
      "company",
      "email",
      "name",
      "seats",
      "start",
    ]);
    expect(bad.body.details?.find((d) => d.field === "start")?.message).toMatch(/day-month-year/);
    const list = await call<{ total: number }>("GET", `/forms/forms/${form.id}/submissions`);
    expect(list.body.total).toBe(0);
    const free = await submit({
      answers: { name: "Ann", email: "ann@example.com", plan: "Free", company: "Hidden Ltd" },
    });
    expect(free.status).toBe(201);
    const stored = (await call<Rec>("GET", `/forms/forms/${form.id}/submissions/${free.body.id}`)).body;
    expect(stored).toMatchObject({ name: "Ann", plan: "Free" });
    expect(stored).not.toHaveProperty("company");
  });

  it("records UTM, custom and first-touch parameters, and mails To, Cc and Bcc with Reply-To", async () => {
    const answer = await submit(
      {
        answers: {
          name: "Bo",
          email: "bo@example.com",
          plan: "Pro",
          company: "Acme",
          start: "5-3-2026",
          seats: 12,
        },
        tracking: {
          parameters: { utm_source: "newsletter", utm_campaign: "spring", evil: "x" },
          firstTouch: {
            parameters: { utm_source: "google" },
            landingPage: "https://site.test/",
            referrer: "https://google.test/",
            at: "2026-11-01T10:00:00Z",
          },
          referrer: "https://site.test/blog",
          landingPage: "https://site.test/pricing?utm_source=newsletter",
        },
      },
      { "user-agent": "FormsTest/1.0" },
    );
    expect(answer.status).toBe(201);
    const stored = (
      await call<Rec & { tracking: Record<string, unknown> }>(
        "GET",
        `/forms/forms/${form.id}/submissions/${answer.body.id}`,
      )
    ).body;
    expect(stored).toMatchObject({
      start: "2026-03-05",
      seats: 12,
      utm_source: "newsletter",
      utm_campaign: "spring",
    });
    expect(stored.tracking).toMatchObject({
      parameters: { utm_source: "newsletter", utm_campaign: "spring", gclid: "none" },
      firstTouch: { parameters: { utm_source: "google" }, landingPage: "https://site.test/" },
      referrer: "https://site.test/blog",
      userAgent: "FormsTest/1.0",
    });
    expect(JSON.stringify(stored.tracking)).not.toContain("evil");
    const mail = await s.database.db
      .selectFrom("mail_outbox")
      .selectAll()
      .where("subject", "=", "New lead from Bo")
      .executeTakeFirstOrThrow();
    expect(mail).toMatchObject({
      to_address: "sales@example.com",
      cc: ["boss@example.com"],
      bcc: ["archive@example.com"],
      reply_to: "bo@example.com",
    });
    expect(mail.text_body).toContain("Start date: 05-03-2026");
  });

  it("signs the submission webhook so the receiver can verify it", async () => {
    const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.end("ok");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const hook = await call<Rec & { secret: string }>("POST", "/forms/webhooks", {
      name: "CRM",
      url,
      events: ["submission.created"],
    });
    expect(hook.status).toBe(201);
    const answer = await submit({ answers: { name: "Cy", email: "cy@example.com" } });
    for (const end = Date.now() + 60_000; !received.length && Date.now() < end; )
      await new Promise((r) => setTimeout(r, 100));
    const [{ headers, body }] = received;
    const [t, v1] = String(headers["x-atelier-signature"])
      .split(",")
      .map((p) => p.split("=")[1]);
    expect(createHmac("sha256", hook.body.secret).update(`${t}.${body}`).digest("hex")).toBe(v1);
    expect(JSON.parse(body)).toMatchObject({
      event: "submission.created",
      data: { form: { slug: "contact" }, submission: { id: answer.body.id, answers: { name: "Cy" } } },
    });
    await call("DELETE", `/forms/webhooks/${hook.body.id}`);
    await new Promise((r) => server.close(r));
  });

  it("stores a retried submission once (Idempotency-Key), and a honeypot's nowhere", async () => {
    const before = (await call<{ total: number }>("GET", `/forms/forms/${form.id}/submissions`)).body.total;
    const body = { answers: { name: "Di", email: "di@example.com" } };
    const first = await submit(body, { "idempotency-key": "retry-1" });
    const again = await submit(body, { "idempotency-key": "retry-1" });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    const bot = await submit({
      answers: { name: "Bot", email: "bot@example.com" },
      _hp_website: "http://spam.test",
    });
    expect(bot.status).toBe(201);
    const bot2 = await submit({ answers: { name: "Bot", email: "bot@example.com" }, _hp_website: 1 });
    expect(bot2.status).toBe(201);
    const after = (await call<{ total: number }>("GET", `/forms/forms/${form.id}/submissions`)).body.total;
    expect(after).toBe(before + 1);
  });

  it("takes the plain HTML post, and renders the page again with its errors", async () => {
    const post = (text: string) =>
      fetch(`${s.baseUrl}/forms/f/${form.slug}/submissions`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: text,
        redirect: "manual",
      });
    const ok = await post(
      "name=Eve&email=eve%40example.com&plan=Free&_t_utm_source=flyer&_t_landing=https%3A%2F%2Fx.test%2F",
    );
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe(`/forms/f/${form.slug}?sent=1`);
    const list = await call<{ data: Rec[] }>(
      "GET",
      `/forms/forms/${form.id}/submissions?filters=${encodeURIComponent(JSON.stringify([{ field: "name", operator: "eq", value: "Eve" }]))}`,
    );
    expect(list.body.data[0]).toMatchObject({ name: "Eve", utm_source: "flyer" });
    const bad = await post("name=Eve&email=nope");
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("Email must be a valid email address");
    expect(html).toContain('value="Eve"');
    const page = await fetch(`${s.baseUrl}/forms/f/${form.slug}?utm_source=poster`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('value="poster"');
  });

  it("exports the list as CSV and counts views against submissions", async () => {
    const csv = await fetch(`${s.baseUrl}/forms/forms/${form.id}/submissions/export.csv`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(csv.status).toBe(200);
    const text = await csv.text();
    expect(text.split("\n")[0]).toContain("Submitted,Name,Email,Plan,Company,Start date,Seats,utm_source");
    expect(text).toContain("05-03-2026");
    await s.api("GET", `/forms/f/${form.slug}.json?view=1&utm_source=newsletter`);
    const stats = await (async () => {
      for (const end = Date.now() + 20_000; ; ) {
        const got = await call<{
          days: Array<{ views: number; submissions: number }>;
          sources: Array<{ source: string; views: number; submissions: number }>;
        }>("GET", `/forms/forms/${form.id}/stats?days=7`);
        if (got.body.sources.some((x) => x.source === "newsletter" && x.views > 0) || Date.now() > end)
          return got.body;
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    expect(stats.days).toHaveLength(7);
    expect(stats.sources.find((x) => x.source === "newsletter")).toMatchObject({ views: 1, submissions: 1 });
  });

  it("deletes submissions one by one and several at once", async () => {
    const ids = await Promise.all(
      [1, 2, 3].map(
        async (i) => (await submit({ answers: { name: `Del ${i}`, email: `d${i}@example.com` } })).body.id,
      ),
    );
    expect((await call("DELETE", `/forms/forms/${form.id}/submissions/${ids[0]}`)).status).toBe(204);
    expect((await call("DELETE", `/forms/forms/${form.id}/submissions/${ids[0]}`)).status).toBe(404);
    const bulk = await call<{ deleted: number }>("POST", `/forms/forms/${form.id}/submissions/delete`, {
      ids: ids.slice(1),
    });
    expect(bulk.body).toEqual({ deleted: 2 });
  });

  it("takes no answer once closed", async () => {
    await call("PATCH", `/forms/forms/${form.id}`, { accepting: false });
    const closed = await submit({ answers: { name: "Fay", email: "fay@example.com" } });
    expect(closed.status).toBe(410);
    await call("PATCH", `/forms/forms/${form.id}`, { accepting: true });
    expect((await submit({ answers: { name: "Fay", email: "fay@example.com" } })).status).toBe(201);
  });
});

describe("the per-address limit of submissions", () => {
  let s: TestServer;
  afterAll(() => s?.close());

  it("refuses past FORMS_RATE_LIMIT a minute with 429, storing nothing more, even sent at once", async () => {
    s = await startServer("pglite", { FORMS_RATE_LIMIT: "3", CLIENT_DIR: clientDir() });
    const admin = (await s.signIn()).accessToken;
    const form = (
      await s.api<Rec>("POST", "/forms/forms", { token: admin, body: { name: "Limited", slug: "limited" } })
    ).body;
    const { revision } = (
      await s.api<{ revision: number }>("GET", `/forms/forms/${form.id}/draft`, { token: admin })
    ).body;
    await s.api("PUT", `/forms/forms/${form.id}/draft`, {
      token: admin,
      body: { definition: contactForm(), revision },
    });
    await s.api("POST", `/forms/forms/${form.id}/publish`, { token: admin });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        s.api("POST", "/forms/f/limited/submissions", {
          body: { answers: { name: `P${i}`, email: `p${i}@example.com` } },
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 429, 429, 429]);
    const list = await s.api<{ total: number }>("GET", `/forms/forms/${form.id}/submissions`, {
      token: admin,
    });
    expect(list.body.total).toBe(3);
  });
});
