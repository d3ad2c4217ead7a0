/**
 * When a run fails (issue 30) over HTTP, on both drivers: the automation's settings tell its
 * owner (a notification row, a mail when their preferences ask for it) or not, and start the
 * failure automation with the failed run's trigger, step and error, never in a loop; the runs
 * list filters by status, step, dates and trigger record; failed runs run again from the start,
 * singly and in bulk with counts; bad input is a 400 per field, other runs a clear refusal, and
 * the Automation module is required.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODULE_IDS } from "../../resources/modules";
import type { AutomationDefinition, Step } from "../../schemas/automation";
import { waitFor } from "./child-server";
import { DRIVERS, startServer, type TestServer } from "./harness";

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Any = any;

/** A step that fails at once: a loopback address, refused by the outbound client (no retries). */
const failing = (id: string): Step => ({
  id,
  kind: "action",
  name: "Call the CRM hook",
  type: "http_request",
  inputs: { method: "POST", url: "http://127.0.0.1:9/hook", body: "{}" },
});
const tag = (id: string, name: string): Step => ({
  id,
  kind: "action",
  type: "add_tag",
  inputs: { tag: name },
});

describe.each(DRIVERS)("when a run fails, on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let adminId: string;
  let owner: { id: string; email: string; token: string };
  let pdfOnly: string;
  const call = <T = Any>(method: string, p: string, body?: unknown, token = admin) =>
    s.api<T>(method, p, { token, body });
  const db = () => s.database.db;
  const until = <T>(what: string, probe: () => Promise<T | undefined | false>, ms = 20_000) =>
    waitFor(what, probe, ms, 100);

  let serial = 0;
  async function automation(definition: AutomationDefinition, fields: Record<string, unknown> = {}) {
    const created = await call("POST", "/api/automations", { name: `Failing flow ${++serial}`, ...fields });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    expect((await call("PUT", `/api/automations/${id}/draft`, { definition })).status).toBe(200);
    const published = await call("POST", `/api/automations/${id}/publish`);
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    return id;
  }
  async function client(name: string) {
    const slug = name.toLowerCase().replace(/\W+/g, ".");
    const created = await call("POST", "/crm/clients", { name, email: `${slug}@example.com` });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as Any;
  }
  const runsOf = async (id: string, query = "") => {
    const got = await call("GET", `/api/automations/${id}/runs${query}`);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    return got.body as { data: Any[]; total: number };
  };
  const runOf = (runId: string) => call("GET", `/api/automation-runs/${runId}`).then((r) => r.body as Any);
  const runWith = (runId: string, status: string) =>
    until(`run ${status}`, async () => ((await runOf(runId)).status === status ? runOf(runId) : undefined));
  const manualRun = async (id: string, clientId?: string) => {
    const started = await call("POST", `/api/automations/${id}/run`, clientId ? { clientId } : {});
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    return started.body.id as string;
  };
  const noticesFor = (userId: string, runId: string) =>
    db()
      .selectFrom("notifications")
      .select(["title", "body", "link"])
      .where("kind", "=", "automation.failed")
      .where("user_id", "=", userId)
      .where(({ ref }) => ref("link"), "like", `%${runId}`)
      .execute();

  beforeAll(async () => {
    s = await startServer(driver);
    const me = await s.signIn();
    admin = me.accessToken;
    adminId = me.user.userID;
    const email = "olive.owner@example.com";
    const made = await call("POST", "/api/users", {
      first_name: "Olive",
      last_name: "Owner",
      email,
      password: "Owner-passw0rd-9",
      role: 3,
      modules: [MODULE_IDS.crm, MODULE_IDS.automation],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const signedIn = await s.signIn(email, "Owner-passw0rd-9", {
      deviceId: "dev-olive",
      deviceName: "Linux",
    });
    owner = { id: made.body.id, email, token: signedIn.accessToken };
    const pdfEmail = "pat.pdf@example.com";
    expect(
      (
        await call("POST", "/api/users", {
          first_name: "Pat",
          last_name: "Pdf",
          email: pdfEmail,
          password: "Pdfonly-passw0rd-9",
          role: 3,
          modules: [MODULE_IDS.pdf],
        })
      ).status,
    ).toBe(201);
    pdfOnly = (await s.signIn(pdfEmail, "Pdfonly-passw0rd-9", { deviceId: "dev-pat", deviceName: "Linux" }))
      .accessToken;
  });
  afterAll(async () => {
    await s?.close();
  });

  it("tells the owner (a notification, and a mail they asked for) and starts the failure automation", async () => {
    const put = await call(
      "PUT",
      "/api/notifications/preferences",
      { mail: { "automation.failed": true } },
      owner.token,
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const handler = await automation({
      trigger: { kind: "automation-failed" },
      steps: [
        {
          id: "note",
          kind: "action",
          type: "add_tag",
          inputs: { tag: "failed {{trigger.stepName}}" },
        },
      ],
    });
    const id = await automation(
      { trigger: { kind: "manual" }, steps: [tag("first", "started"), failing("call")] },
      { owner_id: owner.id, failure_automation_id: handler },
    );
    const ada = await client("Ada Failing");
    const runId = await manualRun(id, ada.id);
    const failed = await runWith(runId, "failed");
    expect(failed.cursor).toBe("call");

    // The owner's notification and its mail (they asked for this kind by mail).
    const notices = await until("the owner's notification", async () => {
      const rows = await noticesFor(owner.id, runId);
      return rows.length ? rows : undefined;
    });
    expect(notices[0].title).toContain('a run failed at "Call the CRM hook"');
    expect(notices[0].body).toContain("127.0.0.1:9");
    const mails = await db()
      .selectFrom("mail_outbox")
      .select("to_address")
      .where("to_address", "=", owner.email)
      .execute();
    expect(mails.length).toBeGreaterThan(0);

    // The failure automation started, about the same client, with the failed run's values.
    const handled = await until("the failure automation's run", async () => {
      const runs = await runsOf(handler);
      return runs.total === 1 && runs.data[0].status === "finished" ? runs.data[0] : undefined;
    });
    expect(handled.parentRunId).toBe(runId);
    expect(handled.subject).toEqual({ type: "client", id: ada.id });
    expect(handled.context.trigger).toBe("automation-failed");
    expect(handled.context.record).toMatchObject({
      automationId: id,
      runId,
      step: "call",
      stepName: "Call the CRM hook",
      triggerKind: "manual",
      trigger: { id: ada.id, name: "Ada Failing" },
    });
    expect(handled.context.record.error).toContain("127.0.0.1:9");
    expect((await call("GET", `/crm/clients/${ada.id}`)).body.tags).toEqual(
      expect.arrayContaining(["started", "failed Call the CRM hook"]),
    );
  });

  it("tells nobody when the setting is off, and never loops when the failure automation fails too", async () => {
    // B handles A's failures and fails itself, naming A for its own failures: both have the trigger
    // "Another automation failed" (A is run by hand), so only the run engine's chain rule stops a loop.
    const b = await automation({ trigger: { kind: "automation-failed" }, steps: [failing("b-call")] });
    const a = await automation(
      { trigger: { kind: "automation-failed" }, steps: [failing("a-call")] },
      { owner_id: owner.id, notify_on_failure: false, failure_automation_id: b },
    );
    expect((await call("PATCH", `/api/automations/${b}`, { failure_automation_id: a })).status).toBe(200);
    const runId = await manualRun(a);
    await runWith(runId, "failed");
    const bRun = await until("B's run failed", async () => {
      const runs = await runsOf(b);
      return runs.total === 1 && runs.data[0].status === "failed" ? runs.data[0] : undefined;
    });
    expect(bRun.parentRunId).toBe(runId);
    // B's failure tells its author, an admin (the setting is on by default); A's told nobody.
    await until("B's notification", async () =>
      (await noticesFor(adminId, bRun.id)).length ? true : undefined,
    );
    expect(await noticesFor(owner.id, runId)).toEqual([]);
    expect(await noticesFor(adminId, runId)).toEqual([]);
    // A was not started again by B's failure (A is in B's chain): still its one run, B its one.
    expect((await runsOf(a)).total).toBe(1);
    expect((await runsOf(b)).total).toBe(1);
    expect((await call("GET", `/api/automations/${a}`)).body).toMatchObject({ failed_runs: 1 });
    // An automation cannot name itself.
    const self = await call("PATCH", `/api/automations/${a}`, { failure_automation_id: a });
    expect(self.status).toBe(400);
    expect(self.body.details).toEqual([
      { field: "failure_automation_id", message: "Failure automation ID must be another automation" },
    ]);
  });

  it("filters runs by status, step, dates and trigger record, and runs failed ones again in bulk", async () => {
    const id = await automation({
      trigger: { kind: "manual" },
      steps: [
        {
          id: "check",
          kind: "condition",
          condition: { operator: "and", value: [{ field: "company", operator: "eq", value: "Fails" }] },
          branches: { yes: [failing("boom")], no: [tag("fine", "fine")] },
        },
      ],
    });
    const fails = [await client("Finn One"), await client("Fern Two"), await client("Flo Three")];
    for (const c of fails) await call("PATCH", `/crm/clients/${c.id}`, { company: "Fails" });
    const ok = await client("Oscar Fine");
    const failedIds: string[] = [];
    for (const c of fails) failedIds.push(await manualRun(id, c.id));
    const okRun = await manualRun(id, ok.id);
    for (const r of failedIds) await runWith(r, "failed");
    await runWith(okRun, "finished");

    expect((await runsOf(id, "?status=failed")).total).toBe(3);
    expect((await runsOf(id, "?step=boom")).total).toBe(3);
    expect((await runsOf(id, "?status=finished")).data.map((r) => r.id)).toEqual([okRun]);
    const byRecord = await runsOf(id, `?record=${encodeURIComponent("fern.two@")}`);
    expect(byRecord.data.map((r) => r.id)).toEqual([failedIds[1]]);
    expect((await runsOf(id, "?record=nobody-has-this")).total).toBe(0);
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    expect((await runsOf(id, `?from=${hourAgo}&to=${inAnHour}`)).total).toBe(4);
    expect((await runsOf(id, `?to=${hourAgo}`)).total).toBe(0);

    // Bad filters: per field.
    const badDate = await call("GET", `/api/automations/${id}/runs?from=yesterday`);
    expect(badDate.status).toBe(400);
    const backwards = await call("GET", `/api/automations/${id}/runs?from=${inAnHour}&to=${hourAgo}`);
    expect(backwards.status).toBe(400);
    expect(backwards.body.details).toEqual([{ field: "to", message: "To must be after From" }]);
    const badStatus = await call("GET", `/api/automations/${id}/runs?status=broken`);
    expect(badStatus.status).toBe(400);

    // One from the start: a new run of the same version and client; the failed one cancelled as retried.
    const before = (await call("GET", `/api/automations/${id}`)).body.failed_runs;
    expect(before).toBe(3);
    const single = await call("POST", `/api/automation-runs/${failedIds[0]}/retry`, { from: "start" });
    expect(single.status, JSON.stringify(single.body)).toBe(200);
    expect(single.body.id).not.toBe(failedIds[0]);
    expect(single.body.subject).toEqual({ type: "client", id: fails[0].id });
    expect(single.body.context.retryOf).toBe(failedIds[0]);
    const old = await runOf(failedIds[0]);
    expect(old).toMatchObject({ status: "cancelled", exitReason: "retried", cursor: "boom" });
    expect(old.steps.find((st: Any) => st.key === "boom").status).toBe("failed");
    await runWith(single.body.id, "failed");
    expect((await call("GET", `/api/automations/${id}`)).body.failed_runs).toBe(3);

    // In bulk: the failed ones go again; the finished one is refused with its reason; counts answered.
    const failedNow = (await runsOf(id, "?status=failed")).data.map((r) => r.id);
    expect(failedNow).toHaveLength(3);
    const bulk = await call("POST", `/api/automations/${id}/runs/retry`, {
      ids: [...failedNow, okRun],
      from: "start",
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    expect(bulk.body).toMatchObject({ retried: 3, refused: 1, notFound: 0 });
    expect(bulk.body.results.find((r: Any) => r.id === okRun)).toMatchObject({
      outcome: "refused",
      message: "This run is finished, not failed: only a failed run can be run again",
    });
    const fresh = bulk.body.results.filter((r: Any) => r.outcome === "retried").map((r: Any) => r.runId);
    for (const r of fresh) await runWith(r, "failed");
    // From the failed step: the same runs go on.
    const again = await call("POST", `/api/automations/${id}/runs/retry`, {
      ids: fresh,
      from: "failed-step",
    });
    expect(again.body).toMatchObject({ retried: 3, refused: 0 });
    expect(again.body.results.map((r: Any) => r.runId)).toEqual(fresh);
    for (const r of fresh) await runWith(r, "failed");

    // Bad input: per field; a run of another automation is not found there.
    const other = await automation({ trigger: { kind: "manual" }, steps: [failing("x")] });
    const foreign = await manualRun(other);
    await runWith(foreign, "failed");
    const elsewhere = await call("POST", `/api/automations/${id}/runs/retry`, {
      ids: [foreign],
      from: "start",
    });
    expect(elsewhere.body).toMatchObject({ retried: 0, notFound: 1 });
    for (const body of [
      { ids: [], from: "start" },
      { ids: ["nope"], from: "start" },
      { ids: [foreign], from: "middle" },
      {},
    ]) {
      const bad = await call("POST", `/api/automations/${id}/runs/retry`, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.details.length).toBeGreaterThan(0);
    }
    const badFrom = await call("POST", `/api/automation-runs/${foreign}/retry`, { from: "middle" });
    expect(badFrom.status).toBe(400);
    expect(
      (
        await call("POST", `/api/automations/${crypto.randomUUID()}/runs/retry`, {
          ids: [foreign],
          from: "start",
        })
      ).status,
    ).toBe(404);

    // The Automation module is required; a trigger-record search needs the CRM module too.
    expect(
      (await call("POST", `/api/automations/${id}/runs/retry`, { ids: [foreign], from: "start" }, pdfOnly))
        .status,
    ).toBe(403);
    expect((await call("GET", `/api/automations/${id}/runs?status=failed`, undefined, pdfOnly)).status).toBe(
      403,
    );
    expect(
      (await call("POST", `/api/automation-runs/${foreign}/retry`, { from: "start" }, pdfOnly)).status,
    ).toBe(403);
  });
});
