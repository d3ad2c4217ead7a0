/**
 * A sequence with a wait survives a crash (issue 16): the real server as a process enrols a
 * client in "email → wait 1 minute → email", sends the first email, and is killed with SIGKILL
 * while the wait is pending. The minute passes while it is down (its due time is moved back,
 * rather than this test sleeping through it); started again on the same database, the server
 * sends the second email: each email once, each step once, the enrolment finished.
 */
import { afterAll, describe, expect, it } from "vitest";
import { type ChildServer, freePort, spawnServer, waitFor } from "./child-server";
import { DRIVERS } from "./harness";
import { crashDatabase, makeStepDue, readAfterCrash, signInAdmin } from "./run-crash";

describe.each(DRIVERS)("kill -9 during a sequence's wait on %s", (driver) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const clean of cleanups.reverse()) await clean();
  });

  it("sends the step after the wait once the server is back, and nothing twice", async () => {
    const database = await crashDatabase(driver, "seq-crash", cleanups);
    const env = database.env;

    const first = spawnServer(await freePort(), env);
    cleanups.push(() => first.stop());
    await first.waitHealthy(120_000);
    const token = await signInAdmin(first);
    const call = (server: ChildServer, method: string, p: string, body?: unknown, t = token) =>
      server.api(method, p, { token: t, body });

    const client = await call(first, "POST", "/crm/clients", {
      name: "Mira Shah",
      email: "mira@example.com",
      consent_email: true,
    });
    expect(client.status).toBe(201);
    const sequence = await call(first, "POST", "/crm/sequences", { name: "Crash course" });
    expect(sequence.status).toBe(201);
    const steps = [
      { key: "first", type: "email", subject: "First, {{client.first_name}}", body: "One" },
      { key: "pause", type: "wait", amount: 1, unit: "minutes" },
      { key: "second", type: "email", subject: "Second, {{client.first_name}}", body: "Two" },
    ];
    expect(
      (await call(first, "PUT", `/crm/sequences/${sequence.body.id}/steps`, { steps, version: 1 })).status,
    ).toBe(200);
    const enrolled = await call(first, "POST", `/crm/sequences/${sequence.body.id}/enrolments`, {
      clientIds: [client.body.id],
    });
    expect(enrolled.status).toBe(200);
    const runId = enrolled.body.enrolled[0].runId as string;
    const enrolment = async (server: ChildServer, t: string) =>
      (await call(server, "GET", `/crm/sequences/${sequence.body.id}/enrolments`, undefined, t)).body.data[0];

    // The first email is out and the wait has begun: the second email is due in a minute.
    const waiting = await waitFor(
      "the wait",
      async () => {
        const e = await enrolment(first, token);
        return e?.step?.index === 2 ? e : undefined;
      },
      60_000,
    );
    expect(new Date(waiting.nextAt).getTime()).toBeGreaterThan(Date.now() + 30_000);
    first.child.kill("SIGKILL");
    await first.exited;

    // The minute passes while the server is down.
    await makeStepDue(database, runId, "second");

    const second = spawnServer(await freePort(), env);
    cleanups.push(() => second.stop());
    await second.waitHealthy(120_000);
    const token2 = await signInAdmin(second);
    const done = await waitFor(
      "the enrolment to finish",
      async () => {
        const e = await enrolment(second, token2);
        return e?.status === "finished" ? e : undefined;
      },
      60_000,
    );
    expect(done).toMatchObject({ status: "finished", exitReason: null });
    const sent = (
      await call(second, "GET", `/crm/clients/${client.body.id}/timeline?kind=email_out`, undefined, token2)
    ).body.data.map((e: { title: string }) => e.title);
    expect(sent.sort()).toEqual(["First, Mira", "Second, Mira"]);
    await second.stop();

    const left = await readAfterCrash(database, runId, "mira@example.com");
    expect(left.subjects).toEqual(["First, Mira", "Second, Mira"]);
    expect(left.steps).toEqual([
      { step_key: "first", status: "done", attempt: 1 },
      { step_key: "pause", status: "done", attempt: 1 },
      { step_key: "second", status: "done", attempt: 1 },
    ]);
  }, 600_000);
});
