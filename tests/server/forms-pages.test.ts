/**
 * Multi-page forms, partial answers and the funnel (issue 29) against the real server and
 * database: impossible multi-page drafts refused per field; the public JSON's pages; partial
 * answers saved page by page (earlier pages checked, skipped pages refused), resumed by their
 * token, gone with the submission, expired and swept by the durable job; the page without
 * JavaScript going page by page (Next checks, Back, skip rules, its cookie); the funnel's counts.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSettings, type FormDefinition } from "../../schemas/form-definition";
import { FORM_TEMPLATE_TOKENS } from "../../src/forms-public/render";
import { waitFor } from "./child-server";
import { DRIVERS, startServer, type TestServer } from "./harness";

type Rec = Record<string, unknown> & { id: string };
type Details = { details?: Array<{ field: string; message: string }>; message?: string };

function clientDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "atelier-form-pages-"));
  const t = FORM_TEMPLATE_TOKENS;
  writeFileSync(
    path.join(dir, "form.html"),
    `<!doctype html><html><head><title>${t.title}</title></head><body class="${t.bodyClass}">${t.content}${t.data}</body></html>`,
  );
  return dir;
}

/** Three pages: about you; the company (skipped for the Free plan); anything else. */
function threePages(): FormDefinition {
  return {
    fields: [
      { id: "name", kind: "text", label: "Name", required: true, validation: { maxLength: 80 } },
      { id: "email", kind: "email", label: "Email", required: true, validation: { maxLength: 320 } },
      { id: "plan", kind: "radio", label: "Plan", options: ["Free", "Pro"], required: true, validation: {} },
      {
        id: "company_page",
        kind: "page",
        label: "Your company",
        validation: {},
        logic: [
          { action: "hide", match: "all", conditions: [{ field: "plan", operator: "eq", value: "Free" }] },
        ],
      },
      { id: "company", kind: "text", label: "Company", required: true, validation: { maxLength: 100 } },
      { id: "last_page", kind: "page", label: "Anything else", validation: {} },
      { id: "notes", kind: "longtext", label: "Notes", validation: { maxLength: 500 } },
    ],
    settings: { ...defaultSettings(), resume: { days: 3 } },
  };
}

describe.each(DRIVERS)("multi-page forms on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let form: Rec;
  const call = <T = Rec>(method: string, p: string, body?: unknown, headers?: Record<string, string>) =>
    s.api<T>(method, p, { token: admin, body, headers });
  const savePartial = (body: unknown) =>
    s.api<Rec & Details & { resumeToken: string; page: number; expiresAt: string }>(
      "POST",
      `/forms/f/${form.slug}/partial`,
      { body },
    );
  const loadPartial = (token: string) =>
    s.api<{ answers: Record<string, unknown>; page: number }>("GET", `/forms/f/${form.slug}/partial`, {
      headers: { "x-atelier-resume": token },
    });
  const funnel = async (query = "") =>
    (
      await call<{ steps: Array<{ key: string; label: string; count: number; dropOff: number | null }> }>(
        "GET",
        `/forms/forms/${form.id}/funnel${query}`,
      )
    ).body.steps;
  const count = (steps: Array<{ key: string; count: number }>, key: string) =>
    steps.find((x) => x.key === key)?.count;
  const partialRows = async () =>
    (
      await call<{ total: number; data: Array<Rec & { page: number }> }>(
        "GET",
        `/forms/forms/${form.id}/partials`,
      )
    ).body;

  beforeAll(async () => {
    s = await startServer(driver, { CLIENT_DIR: clientDir(), FORMS_RATE_LIMIT: "1000" });
    admin = (await s.signIn()).accessToken;
    form = (await call("POST", "/forms/forms", { name: "Signup", slug: "signup-pages" })).body;
  });
  afterAll(() => s?.close());

  it("refuses impossible multi-page drafts with a message per field", async () => {
    const def = threePages();
    def.fields.push({ id: "end_page", kind: "page", label: "Empty", validation: {} });
    def.fields[3].logic = [
      { action: "require", match: "all", conditions: [{ field: "company", operator: "nnull" }] },
    ];
    def.fields[1].logic = [
      { action: "show", match: "all", conditions: [{ field: "notes", operator: "nnull" }] },
    ];
    const { revision } = (await call<{ revision: number }>("GET", `/forms/forms/${form.id}/draft`)).body;
    const got = await call<Details>("PUT", `/forms/forms/${form.id}/draft`, { definition: def, revision });
    expect(got.status, JSON.stringify(got.body)).toBe(400);
    const byField = Object.fromEntries((got.body.details ?? []).map((d) => [d.field, d.message]));
    expect(byField["fields.7.label"]).toMatch(/Page “Empty” has no fields/);
    expect(byField["fields.3.logic.0.action"]).toMatch(/shown or skipped, not required/);
    expect(byField["fields.3.logic.0.conditions.0.field"]).toMatch(/only by answers on earlier pages/);
    expect(byField["fields.1.logic.0.conditions.0.field"]).toMatch(/on a later page/);
  });

  it("publishes pages, and the public JSON carries them", async () => {
    const draft = await call<{ revision: number }>("GET", `/forms/forms/${form.id}/draft`);
    const saved = await call("PUT", `/forms/forms/${form.id}/draft`, {
      definition: threePages(),
      revision: draft.body.revision,
    });
    expect(saved.status).toBe(200);
    expect((await call("POST", `/forms/forms/${form.id}/publish`)).status).toBe(200);
    const pub = await s.api<{ pages: Array<{ title: string; fields: string[] }> }>(
      "GET",
      `/forms/f/${form.slug}.json`,
    );
    expect(pub.body.pages).toEqual([
      { title: "", fields: ["name", "email", "plan"] },
      { title: "Your company", fields: ["company"] },
      { title: "Anything else", fields: ["notes"] },
    ]);
  });

  it("keeps partial answers page by page, resumes them, and drops them on submission", async () => {
    // A first answer on the first page: a start.
    const first = await savePartial({
      answers: { name: "Ada" },
      page: 0,
      tracking: { parameters: { utm_source: "mail" } },
    });
    expect(first.status).toBe(200);
    const token = first.body.resumeToken;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(first.body.expiresAt) - Date.now()).toBeGreaterThan(2.9 * 86_400_000);
    // Next with the first page unfinished: refused for its fields.
    const early = await savePartial({ answers: { name: "Ada" }, page: 1, resumeToken: token });
    expect(early.status).toBe(400);
    expect(early.body.details?.map((d) => d.field).sort()).toEqual(["email", "plan"]);
    // The company page is skipped on the Free plan.
    const skipped = await savePartial({
      answers: { name: "Ada", email: "ada@example.com", plan: "Free" },
      page: 1,
      resumeToken: token,
    });
    expect(skipped.status).toBe(400);
    expect(skipped.body.details).toEqual([
      { field: "page", message: "This page is skipped for these answers" },
    ]);
    const second = await savePartial({
      answers: { name: "Ada", email: "ada@example.com", plan: "Pro" },
      page: 1,
      resumeToken: token,
      tracking: { parameters: { utm_source: "mail" } },
    });
    expect(second.status).toBe(200);
    expect(second.body.resumeToken).toBe(token);
    // Back and Next again count nothing twice; the third page is reached once.
    await savePartial({
      answers: { name: "Ada", email: "ada@example.com", plan: "Pro" },
      page: 0,
      resumeToken: token,
      tracking: { parameters: { utm_source: "mail" } },
    });
    const third = await savePartial({
      answers: { name: "Ada", email: "ada@example.com", plan: "Pro", company: "Analytical" },
      page: 2,
      resumeToken: token,
      tracking: { parameters: { utm_source: "mail" } },
    });
    expect(third.status).toBe(200);

    const back = await loadPartial(token);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ page: 2, answers: { company: "Analytical", plan: "Pro" } });
    expect((await loadPartial("x".repeat(43))).status).toBe(404);
    expect((await s.api("GET", `/forms/f/${form.slug}/partial`)).status).toBe(404);

    const listed = await partialRows();
    expect(listed.total).toBe(1);
    expect(listed.data[0]).toMatchObject({ page: 3, pages: 3, utm_source: "mail" });
    expect(JSON.stringify(listed.data[0])).not.toContain(token);
    const csv = await fetch(`${s.baseUrl}/forms/forms/${form.id}/partials/export.csv`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(csv.status).toBe(200);
    const text = await csv.text();
    expect(text.split("\n")[0]).toContain("Last saved,Started,Page,Name,Email,Plan,Company,Notes,utm_source");
    expect(text).toContain("3 of 3");

    const steps = await funnel("?source=mail");
    expect(count(steps, "starts")).toBe(1);
    expect(count(steps, "page-2")).toBe(1);
    expect(count(steps, "page-3")).toBe(1);
    expect(steps.find((x) => x.key === "page-2")?.label).toBe("Page 2: Your company");

    const sent = await s.api<Rec>("POST", `/forms/f/${form.slug}/submissions`, {
      body: {
        answers: { name: "Ada", email: "ada@example.com", plan: "Pro", company: "Analytical" },
        tracking: { parameters: { utm_source: "mail" } },
        resumeToken: token,
      },
    });
    expect(sent.status).toBe(201);
    expect((await loadPartial(token)).status).toBe(404);
    expect((await partialRows()).total).toBe(0);
    const after = await funnel("?source=mail");
    expect(count(after, "completions")).toBe(1);
    expect(after.find((x) => x.key === "completions")?.dropOff).toBe(0);
  });

  it("refuses bad input with 4xx and per-field messages", async () => {
    expect((await savePartial({ answers: {}, page: "two" })).status).toBe(400);
    expect((await savePartial({ page: 0 })).status).toBe(400);
    const far = await savePartial({ answers: {}, page: 9 });
    expect(far.status).toBe(400);
    expect(far.body.details).toEqual([{ field: "page", message: "The form has no such page" }]);
    expect(
      (await s.api("POST", "/forms/f/no-such-form/partial", { body: { answers: {}, page: 0 } })).status,
    ).toBe(404);
    expect((await call("GET", `/forms/forms/${form.id}/funnel?from=2026-02-01&to=2026-01-01`)).status).toBe(
      400,
    );
    expect((await call("GET", `/forms/forms/${form.id}/funnel?from=yesterday`)).status).toBe(400);
    expect((await s.api("GET", `/forms/forms/${form.id}/partials`)).status).toBe(401);
    expect((await call("DELETE", `/forms/forms/${form.id}/partials/${form.id}`)).status).toBe(404);
  });

  it("goes page by page without JavaScript, and the cookie resumes it", async () => {
    const post = (text: string, cookie?: string) =>
      fetch(`${s.baseUrl}/forms/f/${form.slug}/submissions`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          ...(cookie ? { cookie } : {}),
        },
        body: text,
        redirect: "manual",
      });
    const empty = await post("_page=0&_nav=next&name=Bo");
    expect(empty.status).toBe(400);
    const refused = await empty.text();
    expect(refused).toContain("Email is required");
    expect(refused).toContain('data-version="3" data-page="0"');
    // The Free plan skips the company page: Next goes to the third.
    const next = await post(
      "_page=0&_nav=next&name=Bo&email=bo%40example.com&plan=Free&_t_utm_source=poster",
    );
    expect(next.status).toBe(200);
    const html = await next.text();
    expect(html).toContain('data-version="3" data-page="2"');
    expect(html).toContain("Page 2 of 2");
    expect(html).toContain('value="bo@example.com"');
    const cookie = (next.headers.get("set-cookie") ?? "").split(";")[0];
    expect(cookie).toMatch(/^atf_resume=[A-Za-z0-9_-]{43}$/);
    expect(next.headers.get("set-cookie")).toContain(`Path=/forms/f/${form.slug}`);
    expect(next.headers.get("set-cookie")).toContain("HttpOnly");
    // Back goes to the first page, nothing checked.
    const back = await post("_page=2&_nav=back&name=Bo&email=bo%40example.com&plan=Free", cookie);
    expect(back.status).toBe(200);
    expect(await back.text()).toContain('data-version="3" data-page="0"');
    // A return: the page the cookie's answers were on.
    const again = await fetch(`${s.baseUrl}/forms/f/${form.slug}`, { headers: { cookie } });
    const resumed = await again.text();
    expect(resumed).toContain('data-slug="signup-pages" data-version="3" data-page="2"');
    expect(resumed).toContain('value="Bo"');
    expect((await partialRows()).total).toBe(1);
    // The last page sends the form; the partial answer and the cookie go.
    const sent = await post(
      "_page=2&_nav=send&name=Bo&email=bo%40example.com&plan=Free&notes=Hi&_t_utm_source=poster",
      cookie,
    );
    expect(sent.status).toBe(303);
    expect(sent.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await partialRows()).total).toBe(0);
    const steps = await funnel("?source=poster");
    expect(count(steps, "starts")).toBe(1);
    expect(count(steps, "page-2")).toBe(0);
    expect(count(steps, "page-3")).toBe(1);
    expect(count(steps, "completions")).toBe(1);
  });

  it("stops resuming once the window has passed, and the durable sweep deletes the rows", async () => {
    const saved = await savePartial({ answers: { name: "Cy" }, page: 0 });
    const token = saved.body.resumeToken;
    const db = s.database.db;
    await db
      .updateTable("form_partials")
      .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
      .where("form_id", "=", form.id)
      .execute();
    expect((await loadPartial(token)).status).toBe(404);
    expect((await partialRows()).total).toBe(0);
    await db
      .updateTable("jobs")
      .set({ run_at: sql<Date>`now()` })
      .where("name", "=", "forms.partials.sweep")
      .execute();
    s.ctx.jobs.wake();
    await waitFor(
      "the sweep",
      async () =>
        (await db.selectFrom("form_partials").select("id").where("form_id", "=", form.id).execute())
          .length === 0,
      20_000,
    );
  });
});
