/**
 * Workflow automation (issue 17) over HTTP: automations as an engine resource with a draft,
 * publishing refused per node, numbered versions; runs on the run engine started by their
 * triggers (client created with a filter, a person's click, an incoming webhook, a schedule),
 * walking conditions, delays and waits for events with their branches, actions writing through
 * the step's transaction; a failing step tried again, then failed, counted and notified, and
 * run again from that step; runs in flight keeping their version; an automation's own action
 * never triggering it again; and the Automation module required everywhere. (The restart test
 * is automations-crash.test.ts.)
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTION_LABELS, type AutomationDefinition, type Step } from "../../schemas/automation";
import { webhookTaskAutomation } from "../../schemas/automation-fixtures";
import type { ResourceChangeMessage, SubscribeAck } from "../../schemas/realtime";
import { waitFor } from "./child-server";
import { contactForm } from "./forms-fixtures";
import { DRIVERS, startServer, type TestServer } from "./harness";
import { testSocket } from "./sockets";

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Any = any;

const email = (id: string, subject: string, body = "Hello"): Step => ({
  id,
  kind: "action",
  type: "send_email",
  inputs: { to: "{{client.email}}", subject, body },
});
const delay = (id: string): Step => ({ id, kind: "delay", mode: "for", amount: 1, unit: "minutes" });
const tag = (id: string, name: string): Step => ({
  id,
  kind: "action",
  type: "add_tag",
  inputs: { tag: name },
});
const manual = (steps: Step[]): AutomationDefinition => ({ trigger: { kind: "manual" }, steps });

/** A loopback endpoint for the HTTP action: answers `status` (changeable) and records calls. */
async function startEndpoint() {
  const calls: Array<{ body: string; key: string | undefined }> = [];
  const state = { status: 500 };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      calls.push({ body, key: req.headers["idempotency-key"] as string | undefined });
      res.writeHead(state.status, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: state.status < 400, n: calls.length }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    calls,
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}

describe.each(DRIVERS)("automations on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let adminId: string;
  let endpoint: Awaited<ReturnType<typeof startEndpoint>>;
  const call = <T = Any>(method: string, p: string, body?: unknown, token = admin) =>
    s.api<T>(method, p, { token, body });
  const db = () => s.database.db;
  const until = <T>(what: string, probe: () => Promise<T | undefined | false>, ms = 20_000) =>
    waitFor(what, probe, ms, 100);

  let serial = 0;
  async function automation(definition: AutomationDefinition): Promise<string> {
    const created = await call("POST", "/api/automations", { name: `Flow ${++serial}` });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const saved = await call("PUT", `/api/automations/${id}/draft`, { definition });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const published = await call("POST", `/api/automations/${id}/publish`);
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    return id;
  }
  async function client(name: string, extra: Record<string, unknown> = {}) {
    const slug = name.toLowerCase().replace(/\W+/g, ".");
    const created = await call("POST", "/crm/clients", {
      name,
      email: `${slug}@example.com`,
      consent_email: true,
      ...extra,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as Any;
  }
  const runsOf = async (id: string, query = "") =>
    (await call("GET", `/api/automations/${id}/runs${query}`)).body as { data: Any[]; total: number };
  const runOf = (runId: string) => call("GET", `/api/automation-runs/${runId}`).then((r) => r.body as Any);
  const runWith = (runId: string, status: string, ms?: number) =>
    until(
      `run ${status}`,
      async () => ((await runOf(runId)).status === status ? runOf(runId) : undefined),
      ms,
    );
  /** The step a run waits on falls due now (as if its time had passed). */
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
  const waitingAt = (runId: string, cursor: string) =>
    until(`run at ${cursor}`, async () => {
      const run = await runOf(runId);
      return run.status === "waiting" && run.cursor === cursor ? run : undefined;
    });
  const manualRun = async (id: string, clientId?: string) => {
    const started = await call("POST", `/api/automations/${id}/run`, clientId ? { clientId } : {});
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    return started.body.id as string;
  };

  beforeAll(async () => {
    endpoint = await startEndpoint();
    s = await startServer(driver, { OUTBOUND_ALLOW_PRIVATE: "true" });
    const signedIn = await s.signIn();
    admin = signedIn.accessToken;
    adminId = signedIn.user.userID;
  });
  afterAll(async () => {
    await s?.close();
    endpoint?.close();
  });

  it("runs a published flow end to end: client created → condition → delay → email", async () => {
    const id = await automation({
      trigger: { kind: "client-created", filter: [{ field: "company", operator: "eq", value: "Acme" }] },
      steps: [
        {
          id: "check",
          kind: "condition",
          condition: {
            operator: "and",
            value: [{ field: "email", operator: "endswith", value: "@example.com" }],
          },
          branches: {
            yes: [
              delay("pause"),
              email("welcome", "Welcome, {{client.first_name}}", "From {{trigger.company}}"),
            ],
            no: [],
          },
        },
      ],
    });
    const listed = await call("GET", `/api/automations/${id}`);
    expect(listed.body).toMatchObject({
      status: "active",
      published_version: 1,
      trigger_kind: "client-created",
    });

    const told: string[] = [];
    const stop = s.ctx.events.subscribe((c) => {
      if (c.resource === "automation-runs" && c.ids.includes(id)) told.push(c.type);
    });
    await client("Olga Other", { company: "Other" }); // the filter: no run
    const asha = await client("Asha Rao", { company: "Acme" });
    const { data } = await until("a run", async () => ((await runsOf(id)).total ? runsOf(id) : undefined));
    expect(data).toHaveLength(1);
    const runId = data[0].id;
    expect(data[0]).toMatchObject({ subject: { type: "client", id: asha.id }, version: 1 });
    await waitingAt(runId, "welcome");
    await fastForward(runId);
    const done = await runWith(runId, "finished");
    expect(done.steps.map((st: Any) => [st.key, st.status])).toEqual([
      ["check", "done"],
      ["pause", "done"],
      ["welcome", "done"],
    ]);
    expect(done.steps[0].output).toEqual({ branch: "yes" });
    for (const st of done.steps) expect(st.startedAt && st.finishedAt).toBeTruthy();
    const mails = await db()
      .selectFrom("mail_outbox")
      .select(["subject", "text_body"])
      .where("to_address", "=", "asha.rao@example.com")
      .execute();
    expect(mails).toEqual([{ subject: "Welcome, Asha", text_body: expect.stringContaining("From Acme") }]);
    // The change feed sets the last run and tells open pages, after the commits.
    await until("last run", async () => (await call("GET", `/api/automations/${id}`)).body.last_run_at);
    await until("live updates", async () => told.length >= 1);
    stop();
    expect((await runsOf(id)).total).toBe(1);
  });

  it("runs a client-created trigger's condition and email in one go, and tells the open run history", async () => {
    // The e2e flow (automation.spec.ts): no delay between the condition and the email, so the
    // job goes from one to the other in its first transaction, after a start that committed
    // with the CRM create's own transaction. A run history open on the automation's page reads
    // again when its runs move: its live channel must be one the socket accepts.
    const id = await automation({
      trigger: { kind: "client-created", filter: [{ field: "company", operator: "eq", value: "Direct" }] },
      steps: [
        {
          id: "has-email",
          kind: "condition",
          condition: { operator: "and", value: [{ field: "email", operator: "nnull" }] },
          branches: { yes: [email("hello", "Hello, {{client.first_name}}")], no: [] },
        },
      ],
    });
    const socket = testSocket(s.baseUrl, admin);
    try {
      const ack = (await socket.timeout(5000).emitWithAck("subscribe", "automation-runs")) as SubscribeAck;
      expect(ack).toMatchObject({ ok: true });
      const heard: ResourceChangeMessage[] = [];
      socket.on("change", (message: ResourceChangeMessage) => heard.push(message));
      const names = ["Dara One", "Dara Two", "Dara Three", "Dara Four", "Dara Five", "Dara Six"];
      const clients = [];
      for (const name of names) clients.push(await client(name, { company: "Direct" }));
      const { data } = await until("every run finished", async () => {
        const runs = await runsOf(id);
        return runs.total === names.length && runs.data.every((r: Any) => r.status === "finished")
          ? runs
          : undefined;
      });
      expect(data).toHaveLength(names.length);
      const done = await runOf(data[0].id);
      expect(done.steps.map((st: Any) => [st.key, st.status])).toEqual([
        ["has-email", "done"],
        ["hello", "done"],
      ]);
      const mails = await db()
        .selectFrom("mail_outbox")
        .select("to_address")
        .where("subject", "=", "Hello, Dara")
        .execute();
      expect(mails.map((m) => m.to_address).sort()).toEqual(clients.map((c) => c.email).sort());
      // No job left behind: each ended with its run.
      const left = await db()
        .selectFrom("jobs")
        .select(["key", "state"])
        .where("name", "=", "run.automation")
        .where(
          "key",
          "in",
          data.flatMap((r: Any) => ["has-email", "hello"].map((key) => `run:${r.id}:${key}`)),
        )
        .where("state", "in", ["queued", "running"])
        .execute();
      expect(left).toEqual([]);
      // The runs' moves reach the open run history (the feed tells them after their commits).
      await until("the run history told", async () =>
        heard.some((m) => m.resource === "automation-runs" && m.ids.includes(id)),
      );
    } finally {
      socket.close();
    }
  });

  it("refuses to publish an empty action, naming the node", async () => {
    const created = await call("POST", "/api/automations", { name: "Unfinished" });
    const id = created.body.id;
    const definition = manual([{ id: "action-1", kind: "action", type: null, inputs: {} }]);
    expect((await call("PUT", `/api/automations/${id}/draft`, { definition })).status).toBe(200);
    const refused = await call("POST", `/api/automations/${id}/publish`);
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([
      { nodeId: "action-1", field: "steps.0.type", message: "Step 1 (Action): choose what this action does" },
    ]);
    expect((await call("GET", `/api/automations/${id}`)).body).toMatchObject({
      status: "draft",
      published_version: null,
    });
    expect((await call("GET", `/api/automations/${id}/versions`)).body.total).toBe(0);
  });

  it("answers bad input with 400 per field, never 5xx", async () => {
    const id = (await call("POST", "/api/automations", { name: "Strict" })).body.id;
    const bad = await call("PUT", `/api/automations/${id}/draft`, {
      definition: { trigger: { kind: "never" }, steps: [] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: Any) => d.field)).toEqual(["definition.trigger.kind"]);
    const twice = await call("PUT", `/api/automations/${id}/draft`, {
      definition: manual([tag("same", "a"), tag("same", "b")]),
    });
    expect(twice.status).toBe(400);
    expect(twice.body.details).toMatchObject([{ field: "definition.steps.1.id", nodeId: "same" }]);
    const noBody = await call("PUT", `/api/automations/${id}/draft`, { steps: [] });
    expect(noBody.status).toBe(400);
    expect((await call("POST", "/api/automations", { name: "" })).body.details[0].field).toBe("name");
    const active = await call("PATCH", `/api/automations/${id}`, { status: "active" });
    expect(active.status).toBe(400);
    expect(active.body.details).toMatchObject([{ field: "status" }]);
    expect((await call("GET", `/api/automations/${id}/runs?status=nope`)).status).toBe(400);
    expect((await call("GET", "/api/automations/not-a-uuid/draft")).status).toBe(400);
    expect((await call("GET", "/api/automation-runs/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await call("POST", `/api/automations/${id}/run`, {})).status).toBe(409);
    // Two editors: the second save from the same revision is refused, and says why.
    const opened = (await call("GET", `/api/automations/${id}/draft`)).body.revision;
    const first = await call("PUT", `/api/automations/${id}/draft`, {
      definition: manual([]),
      revision: opened,
    });
    expect(first.body.revision).toBe(opened + 1);
    const stale = await call("PUT", `/api/automations/${id}/draft`, {
      definition: manual([]),
      revision: opened,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain("Someone saved this automation");
  });

  it("keeps runs in flight on the version they started with after a new publish", async () => {
    const id = await automation(manual([delay("pause"), email("note", "Version one")]));
    const mira = await client("Mira Shah");
    const first = await manualRun(id, mira.id);
    await waitingAt(first, "note");
    // By hand about a client who is not there, or of an automation that is not: nothing starts.
    const nobody = "00000000-0000-4000-8000-000000000000";
    const noClient = await call("POST", `/api/automations/${id}/run`, { clientId: nobody });
    expect([noClient.status, noClient.body.message]).toEqual([404, "Client not found"]);
    const noFlow = await call("POST", `/api/automations/${nobody}/run`, { clientId: mira.id });
    expect([noFlow.status, noFlow.body.message]).toEqual([404, "Automation not found"]);
    const definition = manual([delay("pause"), email("note", "Version two")]);
    expect((await call("PUT", `/api/automations/${id}/draft`, { definition })).status).toBe(200);
    expect((await call("POST", `/api/automations/${id}/publish`)).body).toEqual({
      version: 2,
      status: "active",
    });
    const versions = (await call("GET", `/api/automations/${id}/versions`)).body;
    expect(versions.data.map((v: Any) => v.number)).toEqual([2, 1]);
    const second = await manualRun(id, mira.id);
    await waitingAt(second, "note");
    await fastForward(first);
    await fastForward(second);
    expect((await runWith(first, "finished")).version).toBe(1);
    expect((await runWith(second, "finished")).version).toBe(2);
    const subjects = await db()
      .selectFrom("mail_outbox")
      .select("subject")
      .where("to_address", "=", "mira.shah@example.com")
      .orderBy("subject")
      .execute();
    expect(subjects.map((m) => m.subject)).toEqual(["Version one", "Version two"]);
  });

  it("takes the timeout branch of a wait for an event, and the event branch when it comes", async () => {
    const id = await automation(
      manual([
        {
          id: "await-move",
          kind: "wait",
          event: "opportunity-stage-changed",
          timeout: { amount: 1, unit: "days" },
          branches: { event: [tag("moved", "moved")], timeout: [tag("silent", "silent")] },
        },
      ]),
    );
    const quiet = await client("Quiet Client");
    const runId = await manualRun(id, quiet.id);
    await waitingAt(runId, "await-move");
    await fastForward(runId);
    const done = await runWith(runId, "finished");
    expect(done.steps.map((st: Any) => st.key)).toEqual(["await-move", "silent"]);
    expect(done.steps[0].output).toEqual({ resumedBy: "timeout" });
    expect((await call("GET", `/crm/clients/${quiet.id}`)).body.tags).toEqual(["silent"]);

    const busy = await client("Busy Client");
    const opportunity = await call("POST", "/crm/opportunities", {
      title: "Big deal",
      client_id: busy.id,
      value: 100,
      stage: "new",
    });
    expect(opportunity.status, JSON.stringify(opportunity.body)).toBe(201);
    const moved = await manualRun(id, busy.id);
    await waitingAt(moved, "await-move");
    const stage = await call("PATCH", `/crm/opportunities/${opportunity.body.id}`, { stage: "proposal" });
    expect(stage.status, JSON.stringify(stage.body)).toBe(200);
    const resumed = await runWith(moved, "finished");
    expect(resumed.steps.map((st: Any) => st.key)).toEqual(["await-move", "moved"]);
  });

  it("goes on when the email it sent is clicked (not another), and starts on an open (issue 27)", async () => {
    /** The signed address of the mail's pixel or first link, as the mail carries it. */
    const addressIn = async (messageId: string, what: "open.gif" | "click") => {
      const row = await db()
        .selectFrom("crm_messages as m")
        .innerJoin("mail_outbox as o", "o.id", "m.outbox_id")
        .select("o.html_body")
        .where("m.id", "=", messageId)
        .executeTakeFirstOrThrow();
      const found = new RegExp(`/public/mail/${messageId}/${what.replace(".", "\\.")}\\?[^"]+`).exec(
        row.html_body ?? "",
      );
      expect(found, row.html_body ?? "").toBeTruthy();
      return `${s.baseUrl}${(found as RegExpExecArray)[0].replaceAll("&amp;", "&")}`;
    };
    const id = await automation(
      manual([
        email("offer", "Our offer", "Prices: https://example.com/pricing."),
        {
          id: "await-click",
          kind: "wait",
          event: "email-clicked",
          timeout: { amount: 1, unit: "days" },
          branches: { event: [tag("clicked", "clicked")], timeout: [tag("silent", "silent")] },
        },
      ]),
    );
    const opened = await automation({ trigger: { kind: "email-opened" }, steps: [tag("seen", "seen")] });
    const reader = await client("Link Reader");
    const runId = await manualRun(id, reader.id);
    const waiting = await waitingAt(runId, "await-click");
    const messageId = waiting.steps[0].output.messageId as string;
    expect(waiting.steps[1].input).toMatchObject({ event: "email-clicked", messageId });

    // A click in another mail to the same client is not this wait's event.
    const other = await call("POST", "/crm/messages/email", {
      clientId: reader.id,
      subject: "Other news",
      body: '<p><a href="https://example.com/news">News</a></p>',
    });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    expect(
      (await fetch(await addressIn(other.body.message.id, "click"), { redirect: "manual" })).status,
    ).toBe(302);
    expect((await runOf(runId)).status).toBe("waiting");

    // The other mail's click opened it: the open trigger started a run for the client.
    await until("the open's run", async () => {
      const runs = await runsOf(opened);
      return runs.total === 1 && runs.data[0].status === "finished" ? runs : undefined;
    });

    // Its own mail's link, clicked twice: the run goes on once, down the event branch.
    const click = await addressIn(messageId, "click");
    for (let i = 0; i < 2; i++) {
      const got = await fetch(click, { redirect: "manual" });
      expect(got.status).toBe(302);
      expect(got.headers.get("location")).toBe("https://example.com/pricing");
    }
    const done = await runWith(runId, "finished");
    expect(done.steps.map((st: Any) => st.key)).toEqual(["offer", "await-click", "clicked"]);
    expect(done.steps[1].output).toMatchObject({
      resumedBy: "event",
      data: { url: "https://example.com/pricing" },
    });
    expect(done.steps[1].output.event).toBe(`email-clicked:${messageId}`);
    expect((await call("GET", `/crm/clients/${reader.id}`)).body.tags).toEqual(["seen", "clicked"]);
    // That click opened the run's mail too: a second open, a second run; the repeat started none.
    await until("two open runs", async () => ((await runsOf(opened)).total === 2 ? true : undefined));
    const pixel = await addressIn(messageId, "open.gif");
    expect((await fetch(pixel)).status).toBe(200);
    expect((await runsOf(opened)).total).toBe(2);
  });

  it("retries a failing step, then fails the run visibly, and runs it again from that step", async () => {
    const id = await automation(
      manual([
        {
          id: "notify",
          kind: "action",
          type: "http_request",
          inputs: { method: "POST", url: `${endpoint.url}/hook`, body: '{"name": "{{trigger.name}}"}' },
        },
        tag("after", "called"),
      ]),
    );
    const lee = await client("Lee Retry");
    endpoint.calls.length = 0;
    endpoint.state.status = 500;
    const runId = await manualRun(id, lee.id);
    const failed = await runWith(runId, "failed", 30_000);
    expect(endpoint.calls).toHaveLength(3);
    expect(new Set(endpoint.calls.map((c) => c.key))).toEqual(new Set([`run:${runId}:notify`]));
    expect(JSON.parse(endpoint.calls[0].body)).toEqual({ name: "Lee Retry" });
    expect(failed.steps[0]).toMatchObject({ key: "notify", status: "failed", attempt: 3 });
    expect(failed.steps[0].error).toContain("answered 500");
    expect((await call("GET", `/api/automations/${id}`)).body.failed_runs).toBe(1);
    expect((await runsOf(id, "?status=failed")).total).toBe(1);
    const notices = await db()
      .selectFrom("notifications")
      .select(["user_id", "title"])
      .where("kind", "=", "automation.failed")
      .execute();
    // The step as the canvas names it (what it does), not its key.
    const failedAt = `a run failed at "${ACTION_LABELS.http_request}"`;
    expect(notices.some((n) => n.user_id === adminId && n.title.includes(failedAt))).toBe(true);

    // Run again while the endpoint still fails: a second failure is news too.
    expect((await call("POST", `/api/automation-runs/${runId}/retry`)).status).toBe(200);
    await runWith(runId, "failed", 30_000);
    const again = await db()
      .selectFrom("notifications")
      .select("id")
      .where("kind", "=", "automation.failed")
      .where("user_id", "=", adminId)
      .execute();
    expect(again).toHaveLength(notices.filter((n) => n.user_id === adminId).length + 1);
    expect((await call("GET", `/api/automations/${id}`)).body.failed_runs).toBe(1);

    endpoint.state.status = 200;
    const retried = await call("POST", `/api/automation-runs/${runId}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    const done = await runWith(runId, "finished");
    expect(done.steps[0].output).toMatchObject({ status: 200, body: { ok: true } });
    expect((await call("GET", `/api/automations/${id}`)).body.failed_runs).toBe(0);
    expect((await call("POST", `/api/automation-runs/${runId}/retry`)).status).toBe(409);
  });

  it("never lets an automation's own action trigger it again", async () => {
    const id = await automation({
      trigger: { kind: "client-created", filter: [{ field: "company", operator: "eq", value: "Loop" }] },
      steps: [
        {
          id: "copy",
          kind: "action",
          type: "create_record",
          inputs: { resource: "client", fields: { name: "Copy of {{trigger.name}}", company: "Loop" } },
        },
      ],
    });
    await client("Loop Origin", { company: "Loop" });
    const { data } = await until("a run", async () => ((await runsOf(id)).total ? runsOf(id) : undefined));
    const ended = await until("the run's end", async () => {
      const run = await runOf(data[0].id);
      return run.status !== "running" && run.status !== "waiting" ? run : undefined;
    });
    expect(ended.status, JSON.stringify(ended.steps)).toBe("finished");
    const copies = await db().selectFrom("clients").select("name").where("company", "=", "Loop").execute();
    expect(copies.map((c) => c.name).sort()).toEqual(["Copy of Loop Origin", "Loop Origin"]);
    expect((await runsOf(id)).total).toBe(1);
  });

  it("texts the client through the SMS service, and skips a client who has not agreed to SMS", async () => {
    const id = await automation(
      manual([
        {
          id: "text",
          kind: "action",
          type: "send_sms",
          inputs: { to: "{{client.phone}}", body: "Hi {{client.first_name}}" },
        },
      ]),
    );
    const yes = await client("Tara Text", { phone: "+919876543210", consent_sms: true });
    const no = await client("Noor Nosms", { phone: "+919876543211", consent_sms: false });
    const sent = await runWith(await manualRun(id, yes.id), "finished");
    expect(sent.steps[0].output).toMatchObject({ sent: "sms", to: "+919876543210" });
    const stored = await db()
      .selectFrom("crm_messages")
      .select(["channel", "body", "to_address"])
      .where("client_id", "=", yes.id)
      .execute();
    expect(stored).toEqual([{ channel: "sms", body: "Hi Tara", to_address: "+919876543210" }]);
    const skipped = await runWith(await manualRun(id, no.id), "finished");
    expect(skipped.steps[0].output.skipped, JSON.stringify(skipped.steps[0])).toContain(
      "has not agreed to receive SMS",
    );
  });

  it("starts another automation when a step moves an opportunity, as a child run of that step's run", async () => {
    const watcher = await automation({
      trigger: { kind: "opportunity-stage-changed", stage: "proposal" },
      steps: [tag("proposed", "proposal-sent")],
    });
    const mover = await automation(
      manual([
        {
          id: "move",
          kind: "action",
          type: "update_record",
          inputs: {
            resource: "opportunity",
            recordId: "{{trigger.opportunityId}}",
            fields: { stage: "proposal" },
          },
        },
      ]),
    );
    const owner = await client("Chain Client");
    const opportunity = await call("POST", "/crm/opportunities", {
      title: "Chained",
      client_id: owner.id,
      stage: "new",
    });
    expect(opportunity.status, JSON.stringify(opportunity.body)).toBe(201);
    const started = await call("POST", `/api/automations/${mover}/run`, {
      record: { opportunityId: opportunity.body.id },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    await runWith(started.body.id, "finished");
    const { data } = await until("the watcher's run", async () =>
      (await runsOf(watcher)).total ? runsOf(watcher) : undefined,
    );
    expect(data[0]).toMatchObject({
      depth: 1,
      parentRunId: started.body.id,
      lineage: [`automation:${mover}`],
    });
    await runWith(data[0].id, "finished");
    expect((await call("GET", `/crm/clients/${owner.id}`)).body.tags).toEqual(["proposal-sent"]);
  });

  it("starts a run from its incoming webhook with the body as the record; a wrong secret is a 404", async () => {
    const id = await automation(webhookTaskAutomation("Call {{trigger.caller}}"));
    const { webhookPath } = (await call("GET", `/api/automations/${id}/draft`)).body;
    expect(webhookPath).toMatch(new RegExp(`^/hooks/automations/${id}/[\\w-]{43}$`));
    const wrong = await s.api("POST", `/hooks/automations/${id}/not-the-secret`, { body: { caller: "Eve" } });
    expect(wrong.status).toBe(404);
    const posted = await s.api("POST", webhookPath, { body: { caller: "Sam" } });
    expect(posted.status).toBe(202);
    await runWith(posted.body.runId as string, "finished");
    const tasks = await db()
      .selectFrom("crm_tasks")
      .select("title")
      .where("title", "like", "Call %")
      .execute();
    expect(tasks.map((t) => t.title)).toEqual(["Call Sam"]);
    // A new secret: the old address answers 404.
    const rotated = await call("POST", `/api/automations/${id}/webhook-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhookPath).not.toBe(webhookPath);
    expect((await s.api("POST", webhookPath, { body: { caller: "Old" } })).status).toBe(404);
    const again = await s.api("POST", rotated.body.webhookPath, { body: { caller: "New" } });
    expect(again.status).toBe(202);
    await runWith(again.body.runId as string, "finished");
    // Deleting the automation takes its runs, and its address answers no more.
    expect((await call("DELETE", `/api/automations/${id}`)).status).toBe(204);
    expect(await db().selectFrom("runs").select("id").where("owner_key", "=", id).execute()).toEqual([]);
    expect((await s.api("POST", rotated.body.webhookPath, { body: { caller: "Sam" } })).status).toBe(404);
  });

  it("starts one run per Idempotency-Key: a replay after the run finished, or at once, answers the first run", async () => {
    const id = await automation(webhookTaskAutomation("Once {{trigger.caller}}"));
    const { webhookPath } = (await call("GET", `/api/automations/${id}/draft`)).body;
    const post = (key: string, caller = "Ravi") =>
      s.api<Any>("POST", webhookPath, { body: { caller }, headers: { "idempotency-key": key } });
    const first = await post("delivery-1");
    expect(first.status).toBe(202);
    await runWith(first.body.runId as string, "finished");
    // The caller retries for hours: after the run finished, still that run, and no new one.
    for (const caller of ["Ravi", "Someone else"]) {
      const replay = await post("delivery-1", caller);
      expect(replay.status).toBe(202);
      expect(replay.body).toEqual({ runId: first.body.runId });
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
    }
    // Six at once with a new key: one run, and every answer names it.
    const burst = await Promise.all(Array.from({ length: 6 }, () => post("delivery-2", "Mina")));
    expect(burst.map((r) => r.status)).toEqual(Array(6).fill(202));
    const runIds = new Set(burst.map((r) => r.body.runId));
    expect(runIds.size).toBe(1);
    expect([...runIds][0]).not.toBe(first.body.runId);
    await runWith([...runIds][0] as string, "finished");
    expect((await runsOf(id)).total).toBe(2);
    // Without a key every call is its own; a malformed key is a 400 that starts nothing.
    expect((await s.api<Any>("POST", webhookPath, { body: { caller: "Free" } })).status).toBe(202);
    const bad = await s.api<Any>("POST", webhookPath, {
      body: {},
      headers: { "idempotency-key": "k".repeat(300) },
    });
    expect(bad.status).toBe(400);
    await until("the keyless run", async () => (await runsOf(id)).total === 3);
    const tasks = await db()
      .selectFrom("crm_tasks")
      .select("title")
      .where("title", "like", "Once %")
      .orderBy("title")
      .execute();
    expect(tasks.map((t) => t.title).filter((t) => t !== "Once Free")).toEqual(["Once Mina", "Once Ravi"]);
  });

  it("runs on its schedule: a durable job at the cron's next time, then the next one", async () => {
    const id = await automation({
      trigger: { kind: "schedule", cron: "0 9 * * *", timeZone: "Asia/Kolkata" },
      steps: [tag("noop", "x")],
    });
    const row = await db()
      .selectFrom("automation_definitions")
      .select("next_run_at")
      .where("automation_id", "=", id)
      .executeTakeFirstOrThrow();
    const next = new Date(row.next_run_at as Date);
    expect(next.getUTCHours() * 60 + next.getUTCMinutes()).toBe(3 * 60 + 30); // 09:00 in Kolkata
    await db()
      .updateTable("jobs")
      .set({ run_at: new Date() })
      .where("key", "=", `automation-schedule:${id}:${next.toISOString()}`)
      .execute();
    const { data } = await until("a scheduled run", async () =>
      (await runsOf(id)).total ? runsOf(id) : undefined,
    );
    // No client: the tag step fails the run, visibly; the schedule has moved to the next day.
    expect(data[0].context).toMatchObject({
      trigger: "schedule",
      record: { scheduledAt: next.toISOString() },
    });
    const later = await until("the next time", async () => {
      const r = await db()
        .selectFrom("automation_definitions")
        .select("next_run_at")
        .where("automation_id", "=", id)
        .executeTakeFirstOrThrow();
      return new Date(r.next_run_at as Date).getTime() > next.getTime() ? r : undefined;
    });
    expect(new Date(later.next_run_at as Date).getTime() - next.getTime()).toBe(24 * 3600_000);
  });

  const taskStep = (title: string): Step => ({
    id: "task",
    kind: "action",
    type: "create_record",
    inputs: { resource: "task", fields: { title, client_id: "{{client.id}}" } },
  });
  const taskTitled = (title: string) =>
    until(`the task ${title}`, () =>
      db()
        .selectFrom("crm_tasks")
        .select(["title", "client_id"])
        .where("title", "=", title)
        .executeTakeFirst(),
    );

  it("starts runs from a form's answer (about the client it made) and from a CMS entry's publish", async () => {
    const form = (await call("POST", "/forms/forms", { name: "Leads", slug: "leads" })).body;
    const draft = (await call("GET", `/forms/forms/${form.id}/draft`)).body;
    const saved = await call("PUT", `/forms/forms/${form.id}/draft`, {
      definition: contactForm(),
      revision: draft.revision,
    });
    expect(saved.status).toBe(200);
    expect((await call("POST", `/forms/forms/${form.id}/publish`)).status).toBe(200);
    await automation({
      trigger: { kind: "form-submitted", formId: form.id },
      steps: [taskStep("Answered: {{trigger.form}}")],
    });
    await automation({
      trigger: { kind: "client-created", filter: [{ field: "source", operator: "eq", value: "form" }] },
      steps: [taskStep("New from a form: {{client.name}}")],
    });
    const answer = await s.api("POST", "/forms/f/leads/submissions", {
      body: {
        answers: { name: "Form Person", email: "form.person@example.com", plan: "Free" },
        tracking: { parameters: {}, referrer: "", landingPage: "" },
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const person = await until("the client", () =>
      db()
        .selectFrom("clients")
        .select("id")
        .where("email", "=", "form.person@example.com")
        .executeTakeFirst(),
    );
    expect((await taskTitled("Answered: Leads")).client_id).toBe(person.id);
    expect((await taskTitled("New from a form: Form Person")).client_id).toBe(person.id);

    const type = await call("POST", "/cms/content-types", {
      kind: "collection",
      apiName: "note",
      name: "Note",
      properties: { title: { "x-kind": "text", title: "Title" } },
    });
    expect(type.status, JSON.stringify(type.body)).toBe(201);
    await automation({
      trigger: { kind: "cms-entry-published", contentType: "note" },
      steps: [
        {
          id: "task",
          kind: "action",
          type: "create_record",
          inputs: { resource: "task", fields: { title: "Review {{trigger.title}}" } },
        },
      ],
    });
    const entry = await call("POST", "/cms/entries/note", { title: "Spring launch" });
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);
    expect((await call("POST", `/cms/entries/note/${entry.body.id}/publish`, {})).status).toBe(200);
    await taskTitled("Review Spring launch");
  });

  it("sends an email to one address only, whatever a variable brings", async () => {
    const id = await automation(
      manual([
        {
          id: "mail",
          kind: "action",
          type: "send_email",
          inputs: { to: "{{trigger.to}}", subject: "Hello", body: "Hi" },
        },
      ]),
    );
    const started = await call("POST", `/api/automations/${id}/run`, {
      record: { to: "one@example.com, two@example.org" },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const failed = await runWith(started.body.id, "failed");
    expect(failed.steps[0].error).toContain("must be one email address");
    const queued = await db()
      .selectFrom("mail_outbox")
      .select("id")
      .where("to_address", "like", "%two@example.org%")
      .execute();
    expect(queued).toHaveLength(0);
  });

  it("shows no CRM records to someone with the Automation module but not the CRM module", async () => {
    const email = `automation-only-${driver}@example.com`;
    const made = await call("POST", "/api/users", {
      first_name: "Otto",
      last_name: "Flows",
      email,
      password: "Otto-passw0rd-9",
      role: 3,
      modules: [7],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const otto = (await s.signIn(email, "Otto-passw0rd-9", { deviceId: "otto", deviceName: "Linux Chrome" }))
      .accessToken;
    const secret = await client("Private Person", { phone: "+919800000001" });
    const id = await automation(manual([tag("t", "seen")]));
    const runId = await manualRun(id, secret.id);
    await runWith(runId, "finished");

    // Their own run about a client, and a flow that changes the CRM: refused.
    const about = await call("POST", `/api/automations/${id}/run`, { clientId: secret.id }, otto);
    expect(about.status).toBe(403);
    expect(about.body.message).toContain("CRM module");
    const own = await call("POST", "/api/automations", { name: `Otto's flow ${driver}` }, otto);
    expect(own.status).toBe(201);
    const draft = await call(
      "PUT",
      `/api/automations/${own.body.id}/draft`,
      { definition: manual([tag("t", "x")]) },
      otto,
    );
    expect(draft.status).toBe(200);
    expect((await call("POST", `/api/automations/${own.body.id}/publish`, undefined, otto)).status).toBe(403);

    // Runs read without the records they carry.
    const listed = await call("GET", `/api/automations/${id}/runs`, undefined, otto);
    expect(listed.status).toBe(200);
    expect(listed.body.data[0]).toMatchObject({ id: runId, status: "finished", context: null, outputs: {} });
    const one = await call("GET", `/api/automation-runs/${runId}`, undefined, otto);
    expect(one.status).toBe(200);
    expect(JSON.stringify(one.body)).not.toContain("Private Person");
    expect(JSON.stringify(one.body)).not.toContain("+919800000001");
    expect(one.body.steps[0]).toMatchObject({ key: "t", status: "done", input: null, output: null });
  });

  it("refuses every route without the Automation module (403)", async () => {
    const email = `no-automation-${driver}@example.com`;
    const made = await call("POST", "/api/users", {
      first_name: "Nora",
      last_name: "Crm",
      email,
      password: "Nora-passw0rd-9",
      role: 3,
      modules: [5],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const nora = (await s.signIn(email, "Nora-passw0rd-9", { deviceId: "nora", deviceName: "Linux Chrome" }))
      .accessToken;
    const id = await automation(manual([tag("t", "x")]));
    const runId = "00000000-0000-4000-8000-000000000000";
    const routes: Array<[string, string, unknown?]> = [
      ["GET", "/api/automations"],
      ["POST", "/api/automations", { name: "Nope" }],
      ["GET", `/api/automations/${id}`],
      ["PATCH", `/api/automations/${id}`, { name: "Nope" }],
      ["DELETE", `/api/automations/${id}`],
      ["GET", `/api/automations/${id}/draft`],
      ["PUT", `/api/automations/${id}/draft`, { definition: manual([]) }],
      ["POST", "/api/automations/delete", { ids: [id] }],
      ["POST", `/api/automations/${id}/publish`],
      ["POST", `/api/automations/${id}/webhook-secret`],
      ["GET", `/api/automations/${id}/versions`],
      ["GET", `/api/automations/${id}/versions/1`],
      ["GET", `/api/automations/${id}/runs`],
      ["POST", `/api/automations/${id}/run`, {}],
      ["GET", `/api/automation-runs/${runId}`],
      ["POST", `/api/automation-runs/${runId}/retry`],
    ];
    for (const [method, path, body] of routes)
      expect((await call(method, path, body, nora)).status, `${method} ${path}`).toBe(403);
  });
});
