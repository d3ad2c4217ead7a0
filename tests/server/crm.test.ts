/**
 * The CRM's records (issue 16) against the real server and database: clients with their
 * email kept lower-case and unique, default option lists seeded, opportunity rules (a lost
 * one needs its reason; closing stamps and reopening clears), every opportunity change and
 * note on the client's timeline, newest first, filterable and paged.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, startServer, type TestServer } from "./harness";

type Rec = Record<string, unknown> & { id: string };
type Timeline = { data: Array<Rec & { kind: string; title: string }>; next: string | null };

describe.each(DRIVERS)("crm records on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  const call = <T = Rec>(method: string, p: string, body?: unknown) =>
    s.api<T>(method, p, { token: admin, body });

  beforeAll(async () => {
    s = await startServer(driver);
    admin = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  it("seeds the option lists, stages in order with their probability", async () => {
    const res = await call<{ data: Rec[] }>(
      "GET",
      `/crm/dropdowns?filters=${encodeURIComponent(JSON.stringify([{ field: "list", operator: "eq", value: "stage" }]))}&sort=position`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.map((o) => [o.value, o.probability])).toEqual([
      ["new", 10],
      ["qualified", 25],
      ["proposal", 50],
      ["negotiation", 75],
    ]);
  });

  it("keeps a client's email lower-case, so another case is the same client", async () => {
    const first = await call("POST", "/crm/clients", { name: "Asha Rao", email: "Asha.Rao@Example.com" });
    expect(first.status).toBe(201);
    expect(first.body.email).toBe("asha.rao@example.com");
    const again = await call<{ details: Array<{ field: string }> }>("POST", "/crm/clients", {
      name: "Asha R",
      email: "ASHA.RAO@example.com",
    });
    expect(again.status).toBe(409);
    expect(again.body.details.map((d) => d.field)).toEqual(["email"]);
  });

  it("refuses a phone number not in international form, with the field named", async () => {
    const res = await call<{ details: Array<{ field: string; message: string }> }>("POST", "/crm/clients", {
      name: "Bad phone",
      phone: "98765 43210",
    });
    expect(res.status).toBe(400);
    expect(res.body.details[0].field).toBe("phone");
    expect(res.body.details[0].message).toMatch(/international form/);
  });

  it("closes an opportunity only with a reason when lost, and puts every change on the timeline", async () => {
    const client = (await call("POST", "/crm/clients", { name: "Vikram Shah", email: "vikram@example.com" }))
      .body;
    const opp = await call("POST", "/crm/opportunities", {
      title: "Annual catalogue",
      client_id: client.id,
      value: 125000.5,
      stage: "new",
    });
    expect(opp.status).toBe(201);
    expect(opp.body).toMatchObject({ currency: "INR", status: "open", closed_at: null, value: 125000.5 });

    expect((await call("PATCH", `/crm/opportunities/${opp.body.id}`, { stage: "proposal" })).status).toBe(
      200,
    );
    const noReason = await call<{ details: Array<{ field: string; message: string }> }>(
      "PATCH",
      `/crm/opportunities/${opp.body.id}`,
      { status: "lost" },
    );
    expect(noReason.status).toBe(400);
    expect(noReason.body.details).toEqual([{ field: "lost_reason", message: "Choose why it was lost" }]);
    const unchanged = await call("GET", `/crm/opportunities/${opp.body.id}`);
    expect(unchanged.body.status).toBe("open");

    const lost = await call("PATCH", `/crm/opportunities/${opp.body.id}`, {
      status: "lost",
      lost_reason: "price",
    });
    expect(lost.status).toBe(200);
    expect(lost.body.closed_at).toEqual(expect.any(String));
    const reopened = await call("PATCH", `/crm/opportunities/${opp.body.id}`, { status: "open" });
    expect(reopened.body).toMatchObject({ closed_at: null, lost_reason: null });

    const timeline = await call<Timeline>("GET", `/crm/clients/${client.id}/timeline`);
    expect(timeline.status).toBe(200);
    expect(timeline.body.data.map((e) => e.title)).toEqual([
      "Reopened: Annual catalogue",
      "Lost: Annual catalogue",
      "Annual catalogue moved from New to Proposal",
      "Opportunity created: Annual catalogue",
    ]);
    expect(timeline.body.data[1].body).toBe("Reason: Price");
    const after = await call("GET", `/crm/clients/${client.id}`);
    expect(after.body.last_activity_at).toEqual(expect.any(String));
  });

  it("adds notes, filters the timeline by kind, pages it by cursor, and lets only the author delete", async () => {
    const client = (await call("POST", "/crm/clients", { name: "Meera Iyer" })).body;
    for (let i = 1; i <= 3; i++) {
      const note = await call("POST", `/crm/clients/${client.id}/notes`, {
        body: `Called, round ${i}\nDetails`,
      });
      expect(note.status).toBe(201);
      expect(note.body).toMatchObject({ kind: "note", title: `Called, round ${i}` });
    }
    await call("POST", "/crm/opportunities", { title: "Pilot", client_id: client.id, stage: "new" });

    const notes = await call<Timeline>("GET", `/crm/clients/${client.id}/timeline?kind=note&limit=2`);
    expect(notes.body.data.map((e) => e.title)).toEqual(["Called, round 3", "Called, round 2"]);
    expect(notes.body.next).toEqual(expect.any(String));
    const older = await call<Timeline>(
      "GET",
      `/crm/clients/${client.id}/timeline?kind=note&limit=2&before=${encodeURIComponent(notes.body.next ?? "")}`,
    );
    expect(older.body.data.map((e) => e.title)).toEqual(["Called, round 1"]);
    expect(older.body.next).toBeNull();

    const blank = await call<{ details: Array<{ field: string }> }>(
      "POST",
      `/crm/clients/${client.id}/notes`,
      {
        body: "   ",
      },
    );
    expect(blank.status).toBe(400);
    expect(blank.body.details[0].field).toBe("body");
    const badCursor = await call("GET", `/crm/clients/${client.id}/timeline?before=yesterday`);
    expect(badCursor.status).toBe(400);
    const missing = await call("GET", "/crm/clients/00000000-0000-4000-8000-000000000000/timeline");
    expect(missing.status).toBe(404);

    const email = `crm-colleague-${driver}@example.com`;
    await call("POST", "/api/users", {
      first_name: "Ravi",
      last_name: "Colleague",
      email,
      password: "Crm-colleague-passw0rd",
      role: 3,
      modules: [5],
    });
    const token = (await s.signIn(email, "Crm-colleague-passw0rd")).accessToken;
    const noteId = notes.body.data[0].id;
    const refused = await s.api("DELETE", `/crm/clients/${client.id}/notes/${noteId}`, { token });
    expect(refused.status).toBe(403);
    expect((await call("DELETE", `/crm/clients/${client.id}/notes/${noteId}`)).status).toBe(204);
  });
});
