/**
 * An automation's run waiting on a delay survives a crash (issue 17): the real server as a
 * process runs "client created → condition → delay 1 minute → email" and is killed with SIGKILL
 * while the delay is pending. The minute passes while it is down (the step's due time is moved
 * back, rather than this test sleeping through it); started again on the same database, the
 * server sends the email: once, each step once, the run finished.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { AutomationDefinition } from "../../schemas/automation";
import { type ChildServer, freePort, spawnServer, waitFor } from "./child-server";
import { DRIVERS } from "./harness";
import { crashDatabase, makeStepDue, readAfterCrash, signInAdmin } from "./run-crash";

const flow: AutomationDefinition = {
  trigger: { kind: "client-created" },
  steps: [
    {
      id: "check",
      kind: "condition",
      condition: { operator: "and", value: [{ field: "email", operator: "nnull" }] },
      branches: {
        yes: [
          { id: "pause", kind: "delay", mode: "for", amount: 1, unit: "minutes" },
          {
            id: "welcome",
            kind: "action",
            type: "send_email",
            inputs: { to: "{{client.email}}", subject: "Welcome, {{client.first_name}}", body: "Hello" },
          },
        ],
        no: [],
      },
    },
  ],
};

describe.each(DRIVERS)("kill -9 during an automation's delay on %s", (driver) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const clean of cleanups.reverse()) await clean();
  });

  it("sends the email after the delay once the server is back, and nothing twice", async () => {
    const database = await crashDatabase(driver, "automation-crash", cleanups);
    const env = database.env;

    const first = spawnServer(await freePort(), env);
    cleanups.push(() => first.stop());
    await first.waitHealthy(120_000);
    const token = await signInAdmin(first);
    const call = (server: ChildServer, method: string, p: string, body?: unknown, t = token) =>
      server.api(method, p, { token: t, body });

    const automation = await call(first, "POST", "/api/automations", { name: "Welcome flow" });
    expect(automation.status).toBe(201);
    const id = automation.body.id as string;
    expect((await call(first, "PUT", `/api/automations/${id}/draft`, { definition: flow })).status).toBe(200);
    expect((await call(first, "POST", `/api/automations/${id}/publish`)).status).toBe(200);
    const client = await call(first, "POST", "/crm/clients", {
      name: "Mira Shah",
      email: "mira@example.com",
      consent_email: true,
    });
    expect(client.status).toBe(201);

    const waiting = await waitFor(
      "the delay",
      async () => {
        const runs = (await call(first, "GET", `/api/automations/${id}/runs`)).body.data as Array<{
          id: string;
          status: string;
          cursor: string;
        }>;
        return runs[0]?.status === "waiting" && runs[0].cursor === "welcome" ? runs[0] : undefined;
      },
      60_000,
    );
    const runId = waiting.id;
    first.child.kill("SIGKILL");
    await first.exited;

    // The minute passes while the server is down.
    await makeStepDue(database, runId, "welcome");

    const second = spawnServer(await freePort(), env);
    cleanups.push(() => second.stop());
    await second.waitHealthy(120_000);
    const token2 = await signInAdmin(second);
    const done = await waitFor(
      "the run to finish",
      async () => {
        const run = (await call(second, "GET", `/api/automation-runs/${runId}`, undefined, token2)).body;
        return run.status === "finished" ? run : undefined;
      },
      60_000,
    );
    expect(done.steps.map((s: { key: string }) => s.key)).toEqual(["check", "pause", "welcome"]);
    await second.stop();

    const left = await readAfterCrash(database, runId, "mira@example.com", async (db) => {
      const runs = await db.selectFrom("runs").select("id").where("owner_key", "=", id).execute();
      expect(runs).toHaveLength(1);
    });
    expect(left.subjects).toEqual(["Welcome, Mira"]);
    expect(left.steps).toEqual([
      { step_key: "check", status: "done", attempt: 1 },
      { step_key: "pause", status: "done", attempt: 1 },
      { step_key: "welcome", status: "done", attempt: 1 },
    ]);
  }, 600_000);
});
