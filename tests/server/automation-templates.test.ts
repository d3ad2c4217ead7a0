/**
 * Ready-made flows (issue 30) over HTTP on both drivers: each template of the gallery made into
 * a new automation (an unpublished draft, its publish refused for exactly its choices), its
 * choices filled as a person would (a real form, a real sequence, an address and a time zone),
 * published, and its trigger fired for real (a form's answer, a store's abandoned-cart webhook,
 * a proposal accepted on its public link, a client created, an opportunity won, the schedule's
 * job falling due); then the run's steps and what they did (mail in the outbox, the client's
 * tags, a task, an enrolment). Bad input is a 4xx per field; the Automation module is needed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AutomationDefinition } from "../../schemas/automation";
import { AUTOMATION_TEMPLATES, templateById, withChoices } from "../../schemas/automation-templates";
import type { BcStoreCart } from "../../server/modules/store/bigcommerce";
import { waitFor } from "./child-server";
import { type FakeStore, startFakeBigCommerce } from "./fake-bigcommerce";
import { contactForm } from "./forms-fixtures";
import { DRIVERS, signedInMember, startServer, type TestServer } from "./harness";

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Any = any;

const PUBLIC_URL = "https://atelier.example.test";

const storefrontCart = (id: string, customerId: number): BcStoreCart => ({
  id,
  customer_id: customerId,
  email: "",
  currency: { code: "INR" },
  base_amount: 2469,
  cart_amount: 2469,
  created_time: "2026-11-20T09:00:00+00:00",
  updated_time: "2026-11-20T10:30:00+00:00",
  line_items: {
    physical_items: [
      {
        id: "li-1",
        product_id: 5,
        variant_id: 50,
        sku: "BC-00005-S",
        name: "Teapot, small",
        quantity: 2,
        list_price: 1000,
        sale_price: 999.5,
        extended_sale_price: 1999,
      },
    ],
    digital_items: [],
  },
});

describe.each(DRIVERS)("automation templates on %s", (driver) => {
  let s: TestServer;
  let store: FakeStore;
  let admin: string;
  let adminId: string;
  const call = <T = Any>(method: string, p: string, body?: unknown, token = admin) =>
    s.api<T>(method, p, { token, body });
  const db = () => s.database.db;
  // A cap for something stuck, not a timing check: a loaded machine runs the job queue late.
  const until = <T>(what: string, probe: () => Promise<T | undefined | false>) =>
    waitFor(what, probe, 60_000, 100);
  async function ok(method: string, path: string, body?: unknown, status = 200) {
    const res = await call(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
    return res.body as Any;
  }

  const runsOf = async (id: string) => (await ok("GET", `/api/automations/${id}/runs`)) as { data: Any[] };
  const runOf = (runId: string) => ok("GET", `/api/automation-runs/${runId}`);
  /** The automation's runs once there are `count`. */
  const runsOnce = (id: string, count = 1) =>
    until(`${count} run(s)`, async () => {
      const { data } = await runsOf(id);
      return data.length >= count ? data : undefined;
    });
  const runWith = (runId: string, status: string) =>
    until(`run ${status}`, async () => {
      const run = await runOf(runId);
      return run.status === status ? run : undefined;
    });
  const waitingAt = (runId: string, cursor: string) =>
    until(`run waiting at ${cursor}`, async () => {
      const run = await runOf(runId);
      return run.status === "waiting" && run.cursor === cursor ? run : undefined;
    });
  /** The step a run waits on falls due now (as if its hour had passed). */
  async function fastForward(runId: string) {
    const now = new Date();
    await db()
      .updateTable("run_steps")
      .set({ due_at: now })
      .where("run_id", "=", runId)
      .where("status", "in", ["scheduled", "waiting"])
      .execute();
    await db()
      .updateTable("jobs")
      .set({ run_at: now })
      .where("key", "like", `run:${runId}:%`)
      .where("state", "=", "queued")
      .execute();
  }
  const stepsOf = (run: Any) => run.steps.map((st: Any) => [st.key, st.status]);
  const mailsTo = (address: string) =>
    db()
      .selectFrom("mail_outbox")
      .select(["subject", "text_body"])
      .where("to_address", "=", address)
      .execute();
  async function client(name: string, extra: Record<string, unknown> = {}) {
    const slug = name.toLowerCase().replace(/\W+/g, ".");
    return ok("POST", "/crm/clients", { name, email: `${slug}@example.com`, ...extra }, 201);
  }

  /**
   * A template made into an automation: a draft of its flow, never published, whose publish is
   * refused for exactly its choices; then the choices filled as `values` and published.
   */
  async function fromTemplate(templateId: string, values: Record<string, unknown> = {}): Promise<string> {
    const template = templateById(templateId);
    if (!template) throw new Error(`no template ${templateId}`);
    const made = await ok("POST", "/api/automations/from-template", { templateId }, 201);
    expect(made).toMatchObject({
      status: "draft",
      published_version: null,
      description: template.description,
    });
    expect(made.draft.definition).toEqual(template.definition);
    const id = made.id as string;
    if (template.choices.length) {
      const refused = await call("POST", `/api/automations/${id}/publish`);
      expect(refused.status).toBe(400);
      expect(refused.body.details.map((d: Any) => [d.nodeId, d.field])).toEqual(
        template.choices.map((c) => [c.nodeId, c.field]),
      );
    }
    expect(Object.keys(values).sort()).toEqual(template.choices.map((c) => c.field).sort());
    const definition: AutomationDefinition = withChoices(made.draft.definition, values);
    await ok("PUT", `/api/automations/${id}/draft`, { definition, revision: made.draft.revision });
    expect(await ok("POST", `/api/automations/${id}/publish`)).toEqual({ version: 1, status: "active" });
    return id;
  }

  beforeAll(async () => {
    store = await startFakeBigCommerce();
    s = await startServer(driver, { BIGCOMMERCE_API_URL: store.url });
    store.deliverTo = (destination) => destination.replace(PUBLIC_URL, s.baseUrl);
    const signedIn = await s.signIn();
    admin = signedIn.accessToken;
    adminId = signedIn.user.userID;
  });
  afterAll(async () => {
    await s?.close();
    await store?.close();
  });

  it("serves the gallery, and makes a template into a draft only (nothing published, names kept apart)", async () => {
    const gallery = await ok("GET", "/api/automation-templates");
    expect(gallery.total).toBe(AUTOMATION_TEMPLATES.length);
    expect(gallery.data.map((t: Any) => t.id)).toEqual(AUTOMATION_TEMPLATES.map((t) => t.id));
    expect(gallery.data[0]).toMatchObject({
      name: expect.any(String),
      description: expect.any(String),
      category: expect.any(String),
      icon: expect.any(String),
      definition: { trigger: expect.any(Object), steps: expect.any(Array) },
      choices: expect.any(Array),
    });

    const named = await ok(
      "POST",
      "/api/automations/from-template",
      { templateId: "won-thanks", name: "  Thank the winners  " },
      201,
    );
    expect(named).toMatchObject({ name: "Thank the winners", status: "draft", published_version: null });
    expect(named.draft).toMatchObject({ publishedVersion: null, hasChanges: true });
    // Twice the same template without a name: the second gets a name of its own.
    const first = await ok("POST", "/api/automations/from-template", { templateId: "proposal-task" }, 201);
    const second = await ok("POST", "/api/automations/from-template", { templateId: "proposal-task" }, 201);
    expect(first.name).toBe("Proposal accepted → task for the owner");
    expect(second.name).toBe("Proposal accepted → task for the owner 2");
    expect((await ok("GET", `/api/automations/${second.id}/versions`)).total).toBe(0);
    for (const id of [named.id, first.id, second.id])
      await ok("DELETE", `/api/automations/${id}`, undefined, 204);
  });

  it("answers bad input with a 4xx per field, and needs the Automation module", async () => {
    const unknown = await call("POST", "/api/automations/from-template", { templateId: "no-such-flow" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([
      { field: "templateId", message: "Template must be one of the gallery's templates" },
    ]);
    const missing = await call("POST", "/api/automations/from-template", {});
    expect(missing.status).toBe(400);
    expect(missing.body.details[0].field).toBe("templateId");
    const long = await call("POST", "/api/automations/from-template", {
      templateId: "won-thanks",
      name: "x".repeat(121),
    });
    expect(long.status).toBe(400);
    expect(long.body.details[0].field).toBe("name");
    const taken = await ok("POST", "/api/automations", { name: "Taken name" }, 201);
    const clash = await call("POST", "/api/automations/from-template", {
      templateId: "won-thanks",
      name: "Taken name",
    });
    expect(clash.status).toBeGreaterThanOrEqual(400);
    expect(clash.status).toBeLessThan(500);
    expect(clash.body.details?.[0]?.field).toBe("name");
    await ok("DELETE", `/api/automations/${taken.id}`, undefined, 204);

    const crmOnly = await signedInMember(s, admin, [5]);
    expect((await call("GET", "/api/automation-templates", undefined, crmOnly.token)).status).toBe(403);
    const refused = await call(
      "POST",
      "/api/automations/from-template",
      { templateId: "won-thanks" },
      crmOnly.token,
    );
    expect(refused.status).toBe(403);
  });

  it("new form answer → client + welcome email: a new person is tagged and gets a task; one who agreed gets the email", async () => {
    const form = await ok("POST", "/forms/forms", { name: "Leads", slug: "template-leads" }, 201);
    const draft = await ok("GET", `/forms/forms/${form.id}/draft`);
    await ok("PUT", `/forms/forms/${form.id}/draft`, { definition: contactForm(), revision: draft.revision });
    await ok("POST", `/forms/forms/${form.id}/publish`);
    const id = await fromTemplate("form-welcome", { "trigger.formId": form.id });
    const answer = (name: string, email: string) =>
      s.api("POST", "/forms/f/template-leads/submissions", {
        body: {
          answers: { name, email, plan: "Free" },
          tracking: { parameters: {}, referrer: "", landingPage: "" },
        },
      });

    expect((await answer("Nina New", "nina.new@example.com")).status).toBe(201);
    const [firstRun] = await runsOnce(id);
    const nina = await until("the client", () =>
      db().selectFrom("clients").selectAll().where("email", "=", "nina.new@example.com").executeTakeFirst(),
    );
    expect(firstRun.subject).toEqual({ type: "client", id: nina.id });
    const done = await runWith(firstRun.id, "finished");
    expect(stepsOf(done)).toEqual([
      ["tag-lead", "done"],
      ["agreed", "done"],
      ["welcome-call", "done"],
    ]);
    expect(done.steps[1].output).toEqual({ branch: "no" });
    expect((await ok("GET", `/crm/clients/${nina.id}`)).tags).toEqual(["new-lead"]);
    const task = await db()
      .selectFrom("crm_tasks")
      .select(["title", "client_id"])
      .where("client_id", "=", nina.id)
      .executeTakeFirstOrThrow();
    expect(task.title).toBe("Welcome Nina New (answered Leads)");
    expect(await mailsTo("nina.new@example.com")).toEqual([]);

    const rita = await client("Rita Reader", { consent_email: true });
    expect((await answer("Rita Reader", "rita.reader@example.com")).status).toBe(201);
    const runs = await runsOnce(id, 2);
    const ritaRun = await runWith(runs.find((r) => r.subject.id === rita.id).id, "finished");
    expect(stepsOf(ritaRun)).toEqual([
      ["tag-lead", "done"],
      ["agreed", "done"],
      ["welcome", "done"],
    ]);
    expect(ritaRun.steps[2].output).toMatchObject({ sent: "email", to: "rita.reader@example.com" });
    expect(await mailsTo("rita.reader@example.com")).toEqual([
      { subject: "Welcome, Rita", text_body: expect.stringContaining("Thank you for writing to us") },
    ]);
  });

  it("abandoned cart → reminder after 1 hour: sent when no order came, not sent when the cart was ordered", async () => {
    const connection = await ok(
      "POST",
      "/api/store/connections",
      { name: "Main", storeHash: store.hash, token: store.token },
      201,
    );
    await until("webhooks registered", async () => {
      const c = await ok("GET", `/api/store/connections/${connection.id}`);
      return c.webhooks === "registered" && c;
    });
    const meera = await client("Meera Iyer", { consent_email: true });
    const omar = await client("Omar Order", { consent_email: true });
    store.customers.push(
      { id: 7, email: "meera.iyer@example.com", first_name: "Meera", last_name: "Iyer" },
      { id: 8, email: "omar.order@example.com", first_name: "Omar", last_name: "Order" },
    );
    store.storefrontCarts.push(storefrontCart("cart-7", 7), storefrontCart("cart-8", 8));
    const id = await fromTemplate("cart-reminder");

    expect(await store.fire("store/cart/abandoned", { type: "cart", id: "cart-7" })).toEqual([200]);
    expect(await store.fire("store/cart/abandoned", { type: "cart", id: "cart-8" })).toEqual([200]);
    const runs = await runsOnce(id, 2);
    const runAbout = (clientId: string) => runs.find((r) => r.subject?.id === clientId).id as string;
    const waited = await waitingAt(runAbout(meera.id), "ordered");
    expect(waited.steps[0].input).toMatchObject({ event: "cart-converted" });
    await waitingAt(runAbout(omar.id), "ordered");

    // Omar orders: his run takes the event branch and sends nothing.
    expect(await store.fire("store/cart/converted", { type: "cart", id: "cart-8", orderId: 252 })).toEqual([
      200,
    ]);
    const ordered = await runWith(runAbout(omar.id), "finished");
    expect(stepsOf(ordered)).toEqual([["ordered", "done"]]);
    expect(ordered.steps[0].output).toMatchObject({ resumedBy: "event", event: "cart-converted" });
    // Meera's hour passes with no order: the reminder goes out.
    await fastForward(runAbout(meera.id));
    const reminded = await runWith(runAbout(meera.id), "finished");
    expect(stepsOf(reminded)).toEqual([
      ["ordered", "done"],
      ["reminder", "done"],
    ]);
    expect(reminded.steps[0].output).toEqual({ resumedBy: "timeout" });
    expect(await mailsTo("meera.iyer@example.com")).toEqual([
      {
        subject: "You left something in your cart",
        text_body: expect.stringContaining("Your cart of 2 items (INR 2469) is still waiting for you."),
      },
    ]);
    expect(await mailsTo("omar.order@example.com")).toEqual([]);
  });

  it("proposal accepted → task for the owner, on the client's public acceptance", async () => {
    const asha = await client("Asha Proposal", { owner_id: adminId });
    const category = await ok("POST", "/api/categories", { name: "Template goods" }, 201);
    const product = await ok(
      "POST",
      "/api/products",
      { sku_code: "TPL-1", name: "Teapot", price: 20, currency: "INR", category_id: category.id },
      201,
    );
    const id = await fromTemplate("proposal-task");
    const proposal = await ok("POST", "/api/proposals", { title: "Tea service", client_id: asha.id }, 201);
    await ok("PUT", `/api/proposals/${proposal.id}/lines`, {
      lines: [{ product_id: product.id, quantity: 2 }],
    });
    const sent = await ok("POST", `/api/proposals/${proposal.id}/send`, {});
    const token = sent.link.split("/").pop();
    const accepted = await fetch(`${s.baseUrl}/public/proposals/${token}/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(accepted.status).toBe(200);
    const [run] = await runsOnce(id);
    const done = await runWith(run.id, "finished");
    expect(stepsOf(done)).toEqual([["kick-off", "done"]]);
    const task = await db()
      .selectFrom("crm_tasks")
      .select(["title", "client_id", "assignee_id", "notes"])
      .where("id", "=", done.steps[0].output.id)
      .executeTakeFirstOrThrow();
    expect(task).toEqual({
      title: `Start on Tea service (proposal ${proposal.number})`,
      client_id: asha.id,
      assignee_id: adminId,
      notes: `Asha Proposal accepted proposal ${proposal.number}.`,
    });
  });

  it("client created → enrol in a sequence: the new client is enrolled in the sequence chosen", async () => {
    const sequence = await ok("POST", "/crm/sequences", { name: "Onboarding" }, 201);
    await ok("PUT", `/crm/sequences/${sequence.id}/steps`, {
      steps: [{ key: "hello", type: "email", subject: "Hello", body: "Welcome aboard" }],
      version: 1,
    });
    const id = await fromTemplate("client-sequence", { "steps.0.inputs.sequenceId": sequence.id });
    const lee = await client("Lee Sequence", { consent_email: true });
    const run = (await runsOnce(id)).find((r) => r.subject.id === lee.id);
    const done = await runWith(run.id, "finished");
    expect(stepsOf(done)).toEqual([["enrol", "done"]]);
    const enrolments = (await ok("GET", `/crm/sequences/${sequence.id}/enrolments?pageSize=200`)).data;
    expect(enrolments.map((e: Any) => e.clientId)).toContain(lee.id);
    // Paused: the clients of the next tests are not enrolled (the sequence would mail them).
    await ok("PATCH", `/api/automations/${id}`, { status: "paused" });
  });

  it("opportunity won → thank-you email + tag, when it moves to the Won stage", async () => {
    const stages = await ok(
      "GET",
      `/crm/dropdowns?pageSize=100&filters=${encodeURIComponent(JSON.stringify([{ field: "list", operator: "eq", value: "stage" }]))}`,
    );
    const values = stages.data.map((d: Any) => d.value);
    if (!values.includes("won"))
      await ok("POST", "/crm/dropdowns", { list: "stage", value: "won", label: "Won" }, 201);
    if (!values.includes("new"))
      await ok("POST", "/crm/dropdowns", { list: "stage", value: "new", label: "New" }, 201);
    const id = await fromTemplate("won-thanks");
    const wendy = await client("Wendy Winner", { consent_email: true });
    const deal = await ok(
      "POST",
      "/crm/opportunities",
      { title: "Big deal", client_id: wendy.id, stage: "new" },
      201,
    );
    await ok("PATCH", `/crm/opportunities/${deal.id}`, { stage: "won", status: "won" });
    const [run] = await runsOnce(id);
    const done = await runWith(run.id, "finished");
    expect(stepsOf(done)).toEqual([
      ["thanks", "done"],
      ["customer", "done"],
    ]);
    expect(await mailsTo("wendy.winner@example.com")).toEqual([
      { subject: "Thank you, Wendy", text_body: expect.stringContaining("for Big deal") },
    ]);
    expect((await ok("GET", `/crm/clients/${wendy.id}`)).tags).toEqual(["customer"]);
  });

  it("every Monday → weekly summary email: the schedule's job starts the run, the team gets the mail", async () => {
    const id = await fromTemplate("weekly-summary", {
      "trigger.timeZone": "Asia/Kolkata",
      "steps.0.inputs.to": "team@example.com",
    });
    const row = await db()
      .selectFrom("automation_definitions")
      .select("next_run_at")
      .where("automation_id", "=", id)
      .executeTakeFirstOrThrow();
    const next = new Date(row.next_run_at as Date);
    // Monday 09:00 in Kolkata is Monday 03:30 UTC.
    expect([next.getUTCDay(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([1, 3, 30]);
    await db()
      .updateTable("jobs")
      .set({ run_at: new Date() })
      .where("key", "=", `automation-schedule:${id}:${next.toISOString()}`)
      .execute();
    const [run] = await runsOnce(id);
    const done = await runWith(run.id, "finished");
    expect(stepsOf(done)).toEqual([["summary", "done"]]);
    expect(await mailsTo("team@example.com")).toEqual([
      { subject: "Your weekly review", text_body: expect.stringContaining(next.toISOString()) },
    ]);
  });
});
