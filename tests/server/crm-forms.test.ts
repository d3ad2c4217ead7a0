/**
 * Form answers become clients (issue 16): the first answer of an address creates its client
 * (source "form", first touch from the visitor's first visit), a later one from the same
 * address in another case updates that client without overwriting what it had, and each
 * answer is a timeline entry with its campaign; a form set not to create clients makes none.
 * The form's automations start of its answers and follow a pause, a resume and a new version at
 * the next answer (the active automations are kept in memory, cleared when one changes).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AutomationDefinition, Step } from "../../schemas/automation";
import type { FormDefinition } from "../../schemas/form-definition";
import { waitFor } from "./child-server";
import { contactForm } from "./forms-fixtures";
import { DRIVERS, startServer, type TestServer } from "./harness";

type Rec = Record<string, unknown> & { id: string };
const byEmail = (email: string) =>
  `/crm/clients?filters=${encodeURIComponent(JSON.stringify([{ field: "email", operator: "eq", value: email }]))}`;

describe.each(DRIVERS)("form answers as clients on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  const call = <T = Rec>(method: string, p: string, body?: unknown) =>
    s.api<T>(method, p, { token: admin, body });

  async function publish(slug: string, definition: FormDefinition) {
    const form = (await call("POST", "/forms/forms", { name: `Form ${slug}`, slug })).body;
    const draft = await call<{ revision: number }>("GET", `/forms/forms/${form.id}/draft`);
    const saved = await call("PUT", `/forms/forms/${form.id}/draft`, {
      definition,
      revision: draft.body.revision,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await call("POST", `/forms/forms/${form.id}/publish`)).status).toBe(200);
    return form;
  }
  const submit = (slug: string, answers: Record<string, unknown>, tracking: Record<string, unknown>) =>
    s.api<Rec>("POST", `/forms/f/${slug}/submissions`, { body: { answers, tracking } });

  beforeAll(async () => {
    s = await startServer(driver, { FORMS_RATE_LIMIT: "1000" });
    admin = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  it("creates the client on the first answer and updates that one client on the next", async () => {
    await publish("contact", contactForm());
    const first = await submit(
      "contact",
      { name: "Nila Menon", email: "Nila@Example.com", plan: "Pro", company: "Kite Labs" },
      {
        parameters: { utm_source: "newsletter", utm_campaign: "spring" },
        firstTouch: {
          parameters: { utm_source: "google", utm_medium: "cpc" },
          landingPage: "https://site.test/",
          referrer: "",
          at: "2026-11-01T10:00:00Z",
        },
        referrer: "",
        landingPage: "https://site.test/pricing",
      },
    );
    expect(first.status).toBe(201);
    const created = await call<{ data: Rec[] }>("GET", byEmail("nila@example.com"));
    expect(created.body.data).toHaveLength(1);
    expect(created.body.data[0]).toMatchObject({
      name: "Nila Menon",
      email: "nila@example.com",
      company: "Kite Labs",
      source: "form",
      first_touch: "google / cpc",
    });

    const second = await submit(
      "contact",
      { name: "N. Menon", email: "NILA@example.com", plan: "Pro", company: "Other Co" },
      { parameters: { utm_source: "linkedin", utm_campaign: "autumn" }, referrer: "", landingPage: "" },
    );
    expect(second.status).toBe(201);
    const after = await call<{ data: Rec[] }>("GET", byEmail("nila@example.com"));
    expect(after.body.data).toHaveLength(1);
    // What the client had stays: the first name, company and first touch.
    expect(after.body.data[0]).toMatchObject({
      name: "Nila Menon",
      company: "Kite Labs",
      first_touch: "google / cpc",
    });

    const timeline = await call<{ data: Rec[] }>(
      "GET",
      `/crm/clients/${after.body.data[0].id}/timeline?kind=form`,
    );
    expect(
      timeline.body.data.map((e) => [e.title, (e.data as Rec).utm_source, (e.data as Rec).utm_campaign]),
    ).toEqual([
      ["Answered Form contact", "linkedin", "autumn"],
      ["Answered Form contact", "newsletter", "spring"],
    ]);
    expect(timeline.body.data[1].body).toContain("Company: Kite Labs");
  });

  it("makes one client an address of answers sent at once, filling what the first left empty", async () => {
    await publish("burst", contactForm());
    const answers = [
      { name: "Ana Das", email: "Ana@burst.test", plan: "Free" },
      { name: "Ana Das", email: "ana@BURST.test", plan: "Pro", company: "Kite Labs" },
      { name: "Bo Lind", email: "bo@burst.test", plan: "Free" },
      { name: "Cy Park", email: "cy@burst.test", plan: "Pro", company: "Park & Co" },
    ];
    // Sent together, so the writer stores them in one batch (or a few): the same clients either way.
    const sent = await Promise.all(
      answers.map((a) => submit("burst", a, { parameters: {}, referrer: "", landingPage: "" })),
    );
    expect(sent.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const clients = await call<{ data: Rec[] }>(
      "GET",
      `/crm/clients?filters=${encodeURIComponent(JSON.stringify([{ field: "email", operator: "contains", value: "burst.test" }]))}&sort=email`,
    );
    expect(clients.body.data.map((c) => [c.email, c.name, c.company, c.source])).toEqual([
      ["ana@burst.test", "Ana Das", "Kite Labs", "form"],
      ["bo@burst.test", "Bo Lind", null, "form"],
      ["cy@burst.test", "Cy Park", "Park & Co", "form"],
    ]);
    for (const client of clients.body.data) {
      expect(client.last_activity_at).toBeTruthy();
      const timeline = await call<{ data: Rec[] }>("GET", `/crm/clients/${client.id}/timeline?kind=form`);
      expect(timeline.body.data).toHaveLength(client.email === "ana@burst.test" ? 2 : 1);
    }
  });

  it("makes no client when the form says not to, or when the answer has no address", async () => {
    const def = contactForm();
    def.settings.crm = {
      createClients: false,
      emailField: null,
      nameField: null,
      phoneField: null,
      companyField: null,
      sequenceId: null,
    };
    await publish("quiet", def);
    expect((await submit("quiet", { name: "Off", email: "off@example.com", plan: "Free" }, {})).status).toBe(
      201,
    );
    expect((await call<{ data: Rec[] }>("GET", byEmail("off@example.com"))).body.data).toEqual([]);
  });

  it("refuses CRM settings naming a field of the wrong kind, per field", async () => {
    const form = (await call("POST", "/forms/forms", { name: "Bad crm", slug: "bad-crm" })).body;
    const draft = await call<{ revision: number }>("GET", `/forms/forms/${form.id}/draft`);
    const def = contactForm();
    def.settings.crm = {
      createClients: true,
      emailField: "name",
      nameField: null,
      phoneField: null,
      companyField: "seats",
      sequenceId: null,
    };
    const res = await call<{ details: Array<{ field: string; message: string }> }>(
      "PUT",
      `/forms/forms/${form.id}/draft`,
      { definition: def, revision: draft.body.revision },
    );
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { field: "settings.crm.emailField", message: "Choose an email field of the form" },
      {
        field: "settings.crm.companyField",
        message: "Choose a short text, hidden or dropdown field of the form",
      },
    ]);
  });

  it("starts the form's automation of each answer, following its pause, resume and new version at the next answer", async () => {
    const form = await publish("waitlist", contactForm());
    async function automation(definition: AutomationDefinition): Promise<string> {
      const created = await call("POST", "/api/automations", { name: "Waitlist flow" });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const saved = await call("PUT", `/api/automations/${created.body.id}/draft`, { definition });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect((await call("POST", `/api/automations/${created.body.id}/publish`)).status).toBe(200);
      return created.body.id;
    }
    const taskStep = (title: string): Step => ({
      id: "task",
      kind: "action",
      type: "create_record",
      inputs: { resource: "task", fields: { title, client_id: "{{client.id}}" } },
    });
    const tasks = async () =>
      (
        await s.database.db
          .selectFrom("crm_tasks")
          .select("title")
          .where("title", "like", "Waitlisted%")
          .execute()
      )
        .map((t) => t.title)
        .sort();
    const taskTitled = (title: string) =>
      waitFor(title, async () => (await tasks()).includes(title) || undefined, 20_000, 100);
    const answer = async (name: string) => {
      const email = `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`;
      const sent = await submit(
        "waitlist",
        { name, email, plan: "Free" },
        { parameters: {}, referrer: "", landingPage: "" },
      );
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    };
    // Answered before the form has an automation: what is kept says none.
    await answer("Wait One");
    const id = await automation({
      trigger: { kind: "form-submitted", formId: form.id },
      steps: [taskStep("Waitlisted: {{trigger.name}}")],
    });
    await answer("Wait Two");
    await taskTitled("Waitlisted: Wait Two");
    expect((await call("PATCH", `/api/automations/${id}`, { status: "paused" })).status).toBe(200);
    await answer("Wait Three");
    expect((await call("PATCH", `/api/automations/${id}`, { status: "active" })).status).toBe(200);
    const draft = await call<{ definition: AutomationDefinition }>("GET", `/api/automations/${id}/draft`);
    const next = { ...draft.body.definition, steps: [taskStep("Waitlisted again: {{trigger.name}}")] };
    expect((await call("PUT", `/api/automations/${id}/draft`, { definition: next })).status).toBe(200);
    expect((await call("POST", `/api/automations/${id}/publish`)).status).toBe(200);
    await answer("Wait Four");
    await taskTitled("Waitlisted again: Wait Four");
    // Each answer's runs start in its own batch: a run of Three's would have come before Four's.
    expect(await tasks()).toEqual(["Waitlisted again: Wait Four", "Waitlisted: Wait Two"]);
  });
});
