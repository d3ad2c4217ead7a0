/**
 * Each ready-made flow passes a test run (issue 30): made into a draft, its choices filled as a
 * person would, then tested against a client who agreed to mail — no step fails, what a real run
 * would send is listed, and nothing is kept (no mail in the outbox, no tag on the client).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTOMATION_TEMPLATES, withChoices } from "../../schemas/automation-templates";
import { contactForm } from "./forms-fixtures";
import { DRIVERS, startServer, type TestServer } from "./harness";

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Any = any;

describe.each(DRIVERS)("automation templates, tested on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  async function ok(method: string, path: string, body?: unknown, status = 200) {
    const res = await s.api<Any>(method, path, { token: admin, body });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
    return res.body;
  }

  beforeAll(async () => {
    s = await startServer(driver);
    admin = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  it("passes a test run of every template once its choices are made, keeping nothing", async () => {
    const form = await ok("POST", "/forms/forms", { name: "Leads", slug: "tested-leads" }, 201);
    const formDraft = await ok("GET", `/forms/forms/${form.id}/draft`);
    await ok("PUT", `/forms/forms/${form.id}/draft`, {
      definition: contactForm(),
      revision: formDraft.revision,
    });
    await ok("POST", `/forms/forms/${form.id}/publish`);
    const sequence = await ok("POST", "/crm/sequences", { name: "Onboarding" }, 201);
    await ok("PUT", `/crm/sequences/${sequence.id}/steps`, {
      steps: [{ key: "hello", type: "email", subject: "Hello", body: "Welcome aboard" }],
      version: 1,
    });
    const choices: Record<string, unknown> = {
      "trigger.formId": form.id,
      "steps.0.inputs.sequenceId": sequence.id,
      "trigger.timeZone": "Asia/Kolkata",
      "steps.0.inputs.to": "team@example.com",
    };
    const client = await ok(
      "POST",
      "/crm/clients",
      { name: "Tara Tester", email: "tara@example.com", consent_email: true },
      201,
    );
    const outbox = async () => (await ok("GET", "/api/outbox?pageSize=1")).total;
    const before = await outbox();
    expect(before).toEqual(expect.any(Number));
    for (const template of AUTOMATION_TEMPLATES) {
      const made = await ok("POST", "/api/automations/from-template", { templateId: template.id }, 201);
      const values = Object.fromEntries(template.choices.map((c) => [c.field, choices[c.field]]));
      const definition = withChoices(made.draft.definition, values);
      await ok("PUT", `/api/automations/${made.id}/draft`, { definition, revision: made.draft.revision });
      const test = await ok("POST", `/api/automations/${made.id}/test`, {
        sample: {
          kind: "variables",
          values: { name: "Tara Tester", email: "tara@example.com", stage: "won", formId: form.id },
          clientId: client.id,
        },
      });
      const failed = test.steps.filter((step: Any) => step.status === "failed");
      expect(failed, `${template.id}: ${JSON.stringify(failed)}`).toEqual([]);
      expect(test.steps.length, template.id).toBeGreaterThan(1);
    }
    expect(await outbox()).toBe(before);
    expect((await ok("GET", `/crm/clients/${client.id}`)).tags).toEqual([]);
  });
});
