/**
 * Test runs of an automation's draft (issue 30) over HTTP, on both databases: the draft walked
 * against a real client with nothing sent (no outbox mail, no SMS, the HTTP target called by no
 * one, no job left) and nothing kept (the record a step created is gone, the tag not added);
 * delays noted, the branch taken reported, a failing step with what to fix, "Test this step"
 * reading the last test's outputs, samples from typed values, 4xx for bad input and 403/404.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AutomationDefinition, Step } from "../../schemas/automation";
import { DRIVERS, signedInMember, startServer, type TestServer } from "./harness";

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Any = any;

/** A loopback endpoint that records every call (a test run must make none). */
async function startEndpoint() {
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    calls,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}

const action = (id: string, type: string, inputs: Record<string, unknown>): Step =>
  ({ id, kind: "action", type, inputs }) as Step;

describe.each(DRIVERS)("automation test runs on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let endpoint: Awaited<ReturnType<typeof startEndpoint>>;
  const call = <T = Any>(method: string, p: string, body?: unknown, token = admin) =>
    s.api<T>(method, p, { token, body });
  const db = () => s.database.db;

  let serial = 0;
  async function draft(definition: AutomationDefinition): Promise<string> {
    const created = await call("POST", "/api/automations", { name: `Test flow ${++serial}` });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const saved = await call("PUT", `/api/automations/${created.body.id}/draft`, { definition });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    return created.body.id as string;
  }
  const count = async (table: "mail_outbox" | "crm_messages" | "jobs" | "crm_tasks" | "runs") =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  let client: Any;
  let flow: AutomationDefinition;

  beforeAll(async () => {
    endpoint = await startEndpoint();
    s = await startServer(driver, { OUTBOUND_ALLOW_PRIVATE: "true" });
    admin = (await s.signIn()).accessToken;
    const made = await call("POST", "/crm/clients", {
      name: "Asha Test",
      email: "asha.test@example.com",
      phone: "+919800000042",
      consent_email: true,
      consent_sms: true,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    client = made.body;
    flow = {
      trigger: { kind: "client-created" },
      steps: [
        {
          id: "check",
          kind: "condition",
          condition: { operator: "and", value: [{ field: "email", operator: "contains", value: "@" }] },
          branches: {
            yes: [
              action("welcome", "send_email", {
                to: "{{client.email}}",
                subject: "Welcome {{client.first_name}}",
                body: "Hello {{trigger.name}}",
              }),
              action("text", "send_sms", { to: "{{client.phone}}", body: "Hi {{client.first_name}}" }),
              action("notify", "http_request", {
                method: "POST",
                url: `${endpoint.url}/hook`,
                body: '{"client":"{{trigger.id}}"}',
              }),
              action("task", "create_record", {
                resource: "task",
                fields: { title: "Call {{trigger.name}}" },
              }),
              { id: "pause", kind: "delay", mode: "for", amount: 2, unit: "days" },
              action("tag", "add_tag", { tag: "tested" }),
            ],
            no: [],
          },
        },
      ],
    };
  });
  afterAll(async () => {
    endpoint.close();
    await s?.close();
  });

  it("runs the draft with a real client: statuses, inputs, outputs; nothing sent, nothing kept", async () => {
    const id = await draft(flow);
    const before = await Promise.all(
      (["mail_outbox", "crm_messages", "jobs", "crm_tasks", "runs"] as const).map(count),
    );
    const tested = await call("POST", `/api/automations/${id}/test`, {
      sample: { kind: "record", id: client.id },
    });
    expect(tested.status, JSON.stringify(tested.body)).toBe(200);
    const steps = tested.body.steps as Any[];
    const byId = Object.fromEntries(steps.map((st) => [st.id, st]));
    expect(steps.map((st) => [st.id, st.status])).toEqual([
      ["trigger", "passed"],
      ["check", "branch"],
      ["welcome", "passed"],
      ["text", "passed"],
      ["notify", "passed"],
      ["task", "passed"],
      ["pause", "skipped"],
      ["tag", "passed"],
    ]);
    expect(byId.trigger.outputs).toMatchObject({ id: client.id, name: "Asha Test" });
    expect(byId.check).toMatchObject({
      branch: "yes",
      inputs: { values: { email: "asha.test@example.com" } },
    });
    expect(byId.welcome.inputs).toMatchObject({
      to: "asha.test@example.com",
      subject: "Welcome Asha",
      body: "Hello Asha Test",
    });
    expect(byId.welcome.note).toMatch(/^Not sent/);
    expect(byId.welcome.outputs).toEqual({ wouldSend: "email", to: "asha.test@example.com" });
    expect(byId.text.outputs).toEqual({ wouldSend: "sms", to: "+919800000042" });
    // Later steps read what a real run's step answers.
    expect(tested.body.outputs.welcome).toMatchObject({ sent: "email", to: "asha.test@example.com" });
    expect(byId.pause.note).toBe("Would wait 2 days");
    expect(byId.task.note).toMatch(/^Not kept/);
    const taskId = byId.task.outputs.id as string;
    expect(taskId).toBeTruthy();
    expect(tested.body.sent).toEqual([
      {
        stepId: "welcome",
        channel: "email",
        to: "asha.test@example.com",
        subject: "Welcome Asha",
        body: "Hello Asha Test",
      },
      { stepId: "text", channel: "sms", to: "+919800000042", body: "Hi Asha" },
      expect.objectContaining({
        stepId: "notify",
        channel: "http",
        method: "POST",
        url: `${endpoint.url}/hook`,
        body: `{"client":"${client.id}"}`,
      }),
    ]);

    // Nothing sent, nothing kept.
    const after = await Promise.all(
      (["mail_outbox", "crm_messages", "jobs", "crm_tasks", "runs"] as const).map(count),
    );
    expect(after).toEqual(before);
    expect(endpoint.calls).toEqual([]);
    expect(
      await db().selectFrom("crm_tasks").select("id").where("id", "=", taskId).executeTakeFirst(),
    ).toBeUndefined();
    const reread = await call("GET", `/crm/clients/${client.id}`);
    expect(reread.body.tags ?? []).not.toContain("tested");

    // The last test is kept for this person.
    const last = await call("GET", `/api/automations/${id}/test`);
    expect(last.status).toBe(200);
    expect(last.body.test.steps).toHaveLength(8);
  });

  it("takes the branch the sample gives, and a failing step says what to fix", async () => {
    const id = await draft({
      trigger: { kind: "client-created" },
      steps: [
        {
          id: "vip",
          kind: "condition",
          condition: { operator: "and", value: [{ field: "company", operator: "eq", value: "Big Corp" }] },
          branches: {
            yes: [],
            no: [
              action("mail", "send_email", { to: "{{trigger.nothing}}", subject: "Hi", body: "Hello" }),
              action("never", "add_tag", { tag: "after" }),
            ],
          },
        },
      ],
    });
    const tested = await call("POST", `/api/automations/${id}/test`, {
      sample: { kind: "record", id: client.id },
    });
    expect(tested.status, JSON.stringify(tested.body)).toBe(200);
    const steps = tested.body.steps as Any[];
    expect(steps.map((st) => st.id)).toEqual(["trigger", "vip", "mail"]);
    expect(steps[1]).toMatchObject({ status: "branch", branch: "no" });
    expect(steps[2]).toMatchObject({
      status: "failed",
      error: "The email has no address once its variables are filled",
    });
    expect(steps[2].fix).toMatch(/Set To to an email address/);
    expect(tested.body.sent).toEqual([]);

    // An unfinished step fails with the publish check's words.
    const unfinished = await draft({
      trigger: { kind: "client-created" },
      steps: [{ id: "a", kind: "action", type: null, inputs: {} }],
    });
    const t2 = await call("POST", `/api/automations/${unfinished}/test`, {
      sample: { kind: "record", id: client.id },
    });
    expect(t2.status).toBe(200);
    expect(t2.body.steps[1]).toMatchObject({ id: "a", status: "failed" });
    expect(t2.body.steps[1].fix).toMatch(/choose what this action does/);
  });

  it("tests one step again with the last test's outputs", async () => {
    const id = await draft(flow);
    expect(
      (await call("POST", `/api/automations/${id}/test`, { sample: { kind: "record", id: client.id } }))
        .status,
    ).toBe(200);
    const first = (await call("GET", `/api/automations/${id}/test`)).body.test;
    const taskId = first.outputs.task.id as string;
    // The person edits the tag step to read the task step's output, then tests that step only.
    const edited = structuredClone(flow);
    const yes = (edited.steps[0] as Any).branches.yes as Any[];
    yes[5] = action("tag", "add_tag", { tag: "task {{steps.task.id}}" });
    expect((await call("PUT", `/api/automations/${id}/draft`, { definition: edited })).status).toBe(200);
    const again = await call("POST", `/api/automations/${id}/test`, { stepId: "tag" });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.stepId).toBe("tag");
    const tag = (again.body.steps as Any[]).find((st) => st.id === "tag");
    expect(tag).toMatchObject({ status: "passed", outputs: { tag: `task ${taskId}`, added: true } });
    // The other steps keep their last results.
    expect((again.body.steps as Any[]).map((st) => st.id)).toEqual(first.steps.map((st: Any) => st.id));
    expect(again.body.sent).toHaveLength(3);
  });

  it("tests with typed values for a trigger about no record", async () => {
    const id = await draft({
      trigger: { kind: "webhook" },
      steps: [
        action("ops", "send_email", {
          to: "ops@example.com",
          subject: "Order {{trigger.order.number}} for {{trigger.order.total | 0}}",
          body: "From the webhook",
        }),
      ],
    });
    const samples = await call("GET", `/api/automations/${id}/test-samples`);
    expect(samples.body).toMatchObject({ trigger: "webhook", noun: null, data: [] });
    const outbox = await count("mail_outbox");
    const tested = await call("POST", `/api/automations/${id}/test`, {
      sample: { kind: "variables", values: { "order.number": "A-17", "trigger.order.total": "1200" } },
    });
    expect(tested.status, JSON.stringify(tested.body)).toBe(200);
    expect(tested.body.sent[0]).toMatchObject({ to: "ops@example.com", subject: "Order A-17 for 1200" });
    expect(await count("mail_outbox")).toBe(outbox);
  });

  it("lists the trigger's records to test with", async () => {
    const id = await draft(flow);
    const found = await call("GET", `/api/automations/${id}/test-samples?q=asha`);
    expect(found.status).toBe(200);
    expect(found.body.noun).toBe("client");
    expect(found.body.data).toContainEqual({
      id: client.id,
      label: "Asha Test",
      description: "asha.test@example.com",
    });
    expect((await call("GET", `/api/automations/${id}/test-samples?q=nobody-like-this`)).body.data).toEqual(
      [],
    );
  });

  it("answers 4xx with per-field messages for bad input", async () => {
    const id = await draft(flow);
    const noId = await call("POST", `/api/automations/${id}/test`, { sample: { kind: "record" } });
    expect(noId.status).toBe(400);
    expect(noId.body.details).toEqual([{ field: "sample.id", message: "Choose the client to test with" }]);
    const unknown = await call("POST", `/api/automations/${id}/test`, {
      sample: { kind: "record", id: "00000000-0000-4000-8000-000000000000" },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0].field).toBe("sample.id");
    const noSample = await call("POST", `/api/automations/${id}/test`, {});
    expect(noSample.status).toBe(400);
    expect(noSample.body.details[0].field).toBe("sample");
    for (const body of [
      { sample: { kind: "guess" } },
      { sample: { kind: "record", id: "not-an-id" } },
      { sample: { kind: "variables", values: { "__proto__.x": "1" } } },
      { sample: { kind: "variables", values: { a: 3 } } },
      { stepId: "Bad Step!" },
      { extra: true },
    ]) {
      const bad = await call("POST", `/api/automations/${id}/test`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.details?.length, JSON.stringify(bad.body)).toBeGreaterThan(0);
    }
    const missingStep = await call("POST", `/api/automations/${id}/test`, { stepId: "nope" });
    expect(missingStep.status).toBe(400);
    expect(missingStep.body.details[0].field).toBe("stepId");
    // One step before any whole test: nothing to read its earlier outputs from.
    const fresh = await draft(flow);
    expect((await call("POST", `/api/automations/${fresh}/test`, { stepId: "tag" })).status).toBe(409);
    // A webhook's trigger has no records to pick.
    const hook = await draft({ trigger: { kind: "webhook" }, steps: [] });
    const record = await call("POST", `/api/automations/${hook}/test`, {
      sample: { kind: "record", id: client.id },
    });
    expect(record.status).toBe(400);
    expect(record.body.details[0].field).toBe("sample.kind");
  });

  it("needs the Automation module (403), the CRM module for a CRM flow (403), a real automation (404)", async () => {
    const id = await draft(flow);
    const sample = { sample: { kind: "record", id: client.id } };
    const crmOnly = await signedInMember(s, admin, [5]);
    for (const [method, path, body] of [
      ["POST", `/api/automations/${id}/test`, sample],
      ["GET", `/api/automations/${id}/test`],
      ["GET", `/api/automations/${id}/test-samples`],
    ] as const)
      expect((await call(method, path, body, crmOnly.token)).status, `${method} ${path}`).toBe(403);
    const automationOnly = await signedInMember(s, admin, [7]);
    const refused = await call("POST", `/api/automations/${id}/test`, sample, automationOnly.token);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("CRM module");
    const missing = "00000000-0000-4000-8000-000000000000";
    expect((await call("POST", `/api/automations/${missing}/test`, sample)).status).toBe(404);
    expect((await call("GET", `/api/automations/${missing}/test-samples`)).status).toBe(404);
  });
});
