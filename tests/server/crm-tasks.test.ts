/**
 * CRM tasks and assignments (issue 16) against the real app: a task given to a colleague
 * notifies them at once; its reminder reaches them when it falls due (a job, not a timer),
 * once; a task done before its time sends none; done stamps when; a client's task shows on
 * their timeline; a client or opportunity given to someone notifies them, never the giver.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, startServer, type TestServer } from "./harness";

type Rec = Record<string, unknown> & { id: string };
interface Notice {
  kind: string;
  title: string;
  link: string | null;
}

describe.each(DRIVERS)("crm tasks and assignments on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let ravi: { id: string; token: string };
  const call = <T = Rec>(method: string, p: string, body?: unknown) =>
    s.api<T>(method, p, { token: admin, body });
  const noticesOf = async (token: string) =>
    (await s.api<{ data: Notice[] }>("GET", "/api/notifications?pageSize=50", { token })).body.data;
  const until = async <T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> => {
    const end = Date.now() + 30_000;
    for (;;) {
      const value = await read();
      if (ok(value)) return value;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    s = await startServer(driver);
    admin = (await s.signIn()).accessToken;
    const email = `ravi-tasks-${driver}@example.com`;
    const made = await call("POST", "/api/users", {
      first_name: "Ravi",
      last_name: "Tasks",
      email,
      password: "Crm-tasks-passw0rd",
      role: 3,
      modules: [5],
    });
    ravi = { id: made.body.id, token: (await s.signIn(email, "Crm-tasks-passw0rd")).accessToken };
  });
  afterAll(() => s?.close());

  it("notifies the assignee at once, reminds them when due, once, and puts the task on the timeline", async () => {
    const client = (await call("POST", "/crm/clients", { name: "Tara Das" })).body;
    const remindAt = new Date(Date.now() + 1500).toISOString();
    const task = await call("POST", "/crm/tasks", {
      title: "Call Tara back",
      client_id: client.id,
      assignee_id: ravi.id,
      remind_at: remindAt,
    });
    expect(task.status).toBe(201);
    const assigned = await noticesOf(ravi.token);
    expect(assigned.map((n) => [n.kind, n.title])).toEqual([
      ["crm.assigned", "Task for you: Call Tara back"],
    ]);

    const reminded = await until(
      () => noticesOf(ravi.token),
      (list) => list.some((n) => n.kind === "task.reminder"),
      "the reminder",
    );
    expect(reminded.filter((n) => n.kind === "task.reminder")).toEqual([
      expect.objectContaining({ title: "Reminder: Call Tara back", link: `/crm/clients/show/${client.id}` }),
    ]);

    const done = await s.api<Rec>("PATCH", `/crm/tasks/${task.body.id}`, {
      token: ravi.token,
      body: { done: true },
    });
    expect(done.body.done_at).toEqual(expect.any(String));
    const timeline = await call<{ data: Rec[] }>("GET", `/crm/clients/${client.id}/timeline?kind=task`);
    expect(timeline.body.data.map((e) => e.title)).toEqual(["Done: Call Tara back", "Task: Call Tara back"]);
    // The giver is never told of their own assignment.
    expect((await noticesOf(admin)).filter((n) => n.kind === "crm.assigned")).toEqual([]);
  });

  it("sends no reminder for a task done before its time", async () => {
    const remindAt = new Date(Date.now() + 1200).toISOString();
    const task = await call("POST", "/crm/tasks", {
      title: "Quick one",
      assignee_id: ravi.id,
      remind_at: remindAt,
    });
    await call("PATCH", `/crm/tasks/${task.body.id}`, { done: true });
    // A later reminder of another task proves the queue ran past this one's time.
    const later = new Date(Date.now() + 1600).toISOString();
    await call("POST", "/crm/tasks", { title: "Marker", assignee_id: ravi.id, remind_at: later });
    const list = await until(
      () => noticesOf(ravi.token),
      (l) => l.some((n) => n.title === "Reminder: Marker"),
      "the marker's reminder",
    );
    expect(list.filter((n) => n.title === "Reminder: Quick one")).toEqual([]);
  });

  it("tells the new owner of a client or opportunity", async () => {
    const client = (await call("POST", "/crm/clients", { name: "Owned Client", owner_id: ravi.id })).body;
    await call("POST", "/crm/opportunities", {
      title: "Owned deal",
      client_id: client.id,
      stage: "new",
      owner_id: ravi.id,
    });
    const titles = (await noticesOf(ravi.token)).map((n) => n.title);
    expect(titles).toEqual(
      expect.arrayContaining(["Client for you: Owned Client", "Opportunity for you: Owned deal"]),
    );
    const unknown = await call<{ details: Array<{ field: string }> }>("POST", "/crm/clients", {
      name: "Nobody's",
      owner_id: "00000000-0000-4000-8000-000000000000",
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0].field).toBe("owner_id");
  });
});
