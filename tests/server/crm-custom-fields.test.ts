/**
 * The CRM's records engine features (issue 16): custom fields added at run time and used at
 * once (API, filters, sorts, validation, CSV, OpenAPI), `x-options` values checked against
 * the dropdown lists, people as owners, CSV upsert of clients by email with a report per row,
 * and merging duplicate clients — on PGlite and PostgreSQL.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "./child-server";
import { exportFile, importFile } from "./csv-fixtures";
import { DRIVERS, startServer, type TestServer } from "./harness";

type Rec = Record<string, unknown> & { id: string };
type List = { data: Rec[]; total: number };
type Detail = { field: string; message: string };

/** A table another part of the CRM might add: it points at clients, one row per client and kind. */
const OTHER_TABLE = `create table crm_test_calls (
  id uuid primary key default gen_random_uuid(),
  client_id uuid not null references clients (id) on delete cascade,
  kind text not null,
  constraint crm_test_calls_client_kind_key unique (client_id, kind)
);`;

describe.each(DRIVERS)("CRM records engine on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let seller: string;
  let sellerId: string;
  let fields: Record<string, Rec>;

  const api = <T = Rec>(method: string, path: string, body?: unknown, token = admin) =>
    s.api<T>(method, path, { token, body });
  const created = async (path: string, body: unknown, token = admin) => {
    const res = await api(path === "/crm/custom-fields" ? "POST" : "POST", path, body, token);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const list = async (path: string, query: Record<string, unknown>, token = admin) => {
    const params = new URLSearchParams(
      Object.entries(query).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
    );
    return api<List>("GET", `${path}?${params}`, undefined, token);
  };

  beforeAll(async () => {
    s = await startServer(driver, {}, { setupSql: OTHER_TABLE });
    admin = (await s.signIn()).accessToken;
    const user = await created("/api/users", {
      first_name: "Sara",
      last_name: "Seller",
      email: "sara@example.com",
      password: "Seller-Passw0rd!",
      role: 3,
      modules: [5],
    });
    sellerId = user.id;
    seller = (await s.signIn("sara@example.com", "Seller-Passw0rd!")).accessToken;
    await created("/crm/dropdowns", { list: "company_tier", value: "gold", label: "Gold" });
    await created("/crm/dropdowns", { list: "company_tier", value: "silver", label: "Silver" });
    fields = {
      size: await created("/crm/custom-fields", {
        entity: "clients",
        key: "industry_size",
        label: "Industry size",
        type: "number",
      }),
      tier: await created("/crm/custom-fields", {
        entity: "clients",
        key: "tier",
        label: "Tier",
        type: "enum",
        list: "company_tier",
      }),
      since: await created("/crm/custom-fields", {
        entity: "clients",
        key: "customer_since",
        label: "Customer since",
        type: "date",
      }),
    };
  });
  afterAll(() => s?.close());

  /** The custom-field indexes of a table, once they are `expected` (the job builds them after the change). */
  const indexesOf = (table: string, expected: string[]) =>
    waitFor(
      `indexes ${expected.join(", ")}`,
      async () => {
        const found = await sql<{ name: string }>`select indexname as name from pg_indexes
          where tablename = ${table} and indexname like ${`${table}_cf_%`} order by 1`.execute(s.database.db);
        const names = found.rows.map((r) => r.name);
        return JSON.stringify(names) === JSON.stringify([...expected].sort()) && names;
      },
      10_000,
    );

  it("custom field added and filtered on at once", async () => {
    const a = await created("/crm/clients", {
      name: "Asha",
      email: "Asha@Example.com",
      industry_size: 5,
      tier: "gold",
    });
    expect(a).toMatchObject({
      name: "Asha",
      email: "asha@example.com",
      industry_size: 5,
      tier: "gold",
      customer_since: null,
    });
    await created("/crm/clients", { name: "Bilal", industry_size: 50, customer_since: "2021-04-01" });
    await created("/crm/clients", { name: "Chen" });

    const big = await list("/crm/clients", {
      filters: [{ field: "industry_size", operator: "gte", value: 10 }],
    });
    expect(big.status).toBe(200);
    expect(big.body.data.map((c) => c.name)).toEqual(["Bilal"]);
    const gold = await list("/crm/clients", { filters: [{ field: "tier", operator: "eq", value: "gold" }] });
    expect(gold.body).toMatchObject({ total: 1, data: [{ name: "Asha" }] });
    const sorted = await list("/crm/clients", {
      sort: "-industry_size",
      filters: [{ field: "industry_size", operator: "nnull" }],
    });
    expect(sorted.body.data.map((c) => c.name)).toEqual(["Bilal", "Asha"]);
    const since = await list("/crm/clients", {
      filters: [{ field: "customer_since", operator: "between", value: ["2021-01-01", "2021-12-31"] }],
    });
    expect(since.body.data.map((c) => c.name)).toEqual(["Bilal"]);

    // A field added now is in the next answer: no restart, no migration.
    await created("/crm/custom-fields", {
      entity: "clients",
      key: "vip_note",
      label: "VIP note",
      type: "text",
    });
    const patched = await api("PATCH", `/crm/clients/${a.id}`, { vip_note: "Prefers calls" });
    expect(patched.body).toMatchObject({ industry_size: 5, tier: "gold", vip_note: "Prefers calls" });
    const noted = await list("/crm/clients", {
      filters: [{ field: "vip_note", operator: "contains", value: "calls" }],
    });
    expect(noted.body.data.map((c) => c.name)).toEqual(["Asha"]);
    // null clears one custom value and leaves the others.
    const cleared = await api("PATCH", `/crm/clients/${a.id}`, { industry_size: null });
    expect(cleared.body).toMatchObject({ industry_size: null, tier: "gold", vip_note: "Prefers calls" });
    const stored = await s.database.db
      .selectFrom("clients")
      .select("custom")
      .where("id", "=", a.id)
      .executeTakeFirstOrThrow();
    expect(stored.custom).toEqual({ tier: "gold", vip_note: "Prefers calls" });
  });

  it("refuses bad custom values with one message per field, in the validator's words", async () => {
    const bad = await api<{ message: string; details: Detail[] }>("POST", "/crm/clients", {
      industry_size: "lots",
      customer_since: "31-02-2024",
      nickname: "Ash",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual(
      expect.arrayContaining([
        { field: "name", message: "Name is required" },
        { field: "industry_size", message: "Industry size must be a number" },
        { field: "customer_since", message: "Customer since must be a real date written YYYY-MM-DD" },
        { field: "nickname", message: "Nickname is not a field that can be set here" },
      ]),
    );
    expect(bad.body.message).toBe("4 fields need correcting");
    // Required custom fields are required on create only: records made before keep working.
    const req = await created("/crm/custom-fields", {
      entity: "opportunities",
      key: "po_number",
      label: "PO number",
      type: "text",
      required: true,
    });
    const client = await created("/crm/clients", { name: "Dara" });
    const opp = await api<{ details: Detail[] }>("POST", "/crm/opportunities", {
      title: "Deal",
      client_id: client.id,
      stage: "new",
    });
    expect(opp.status).toBe(400);
    expect(opp.body.details).toEqual([{ field: "po_number", message: "PO number is required" }]);
    const ok = await created("/crm/opportunities", {
      title: "Deal",
      client_id: client.id,
      stage: "new",
      po_number: "PO-1",
    });
    expect(ok.po_number).toBe("PO-1");
    await indexesOf("opportunities", ["opportunities_cf_po_number_t"]);
    expect((await api("DELETE", `/crm/custom-fields/${req.id}`)).status).toBe(204);
    await indexesOf("opportunities", []);
    const gone = await api("GET", `/crm/opportunities/${ok.id}`);
    expect(gone.body).not.toHaveProperty("po_number");
    const row = await s.database.db
      .selectFrom("opportunities")
      .select("custom")
      .where("id", "=", ok.id)
      .executeTakeFirstOrThrow();
    expect(row.custom).toEqual({});
  });

  it("keeps definitions sound: keys, collisions, type changes, admins only", async () => {
    const post = (body: unknown, token = admin) =>
      api<{ details: Detail[]; message: string }>("POST", "/crm/custom-fields", body, token);
    expect(
      (await post({ entity: "clients", key: "email", label: "Mail", type: "text" })).body.details,
    ).toEqual([{ field: "key", message: "Email is already a field of this record" }]);
    expect(
      (await post({ entity: "clients", key: "Bad Key", label: "X", type: "text" })).body.details[0],
    ).toMatchObject({ field: "key" });
    expect((await post({ entity: "clients", key: "tier", label: "Tier again", type: "text" })).status).toBe(
      409,
    );
    expect(
      (await post({ entity: "clients", key: "level", label: "Level", type: "enum" })).body.details,
    ).toEqual([{ field: "list", message: "Choose the dropdown list whose options this field offers" }]);
    expect(
      (await post({ entity: "clients", key: "level", label: "Level", type: "enum", list: "nothing_here" }))
        .body.details[0].message,
    ).toBe("The Nothing here list has no options yet: add them under CRM › Dropdown lists first");
    expect(
      (await post({ entity: "clients", key: "score", label: "Score", type: "number" }, seller)).status,
    ).toBe(403);
    // Readers with the CRM module see them (their screens need them).
    const seen = await api<{ data: Rec[] }>("GET", "/crm/custom-fields?entity=clients", undefined, seller);
    expect(seen.body.data.map((f) => f.key)).toEqual(expect.arrayContaining(["industry_size", "tier"]));

    const client = await created("/crm/clients", { name: "Eve", industry_size: 3 });
    const change = await api<{ message: string }>("PATCH", `/crm/custom-fields/${fields.size.id}`, {
      type: "text",
    });
    expect(change.status).toBe(409);
    expect(change.body.message).toBe(
      "Some clients already have a value for Industry size, so its type cannot change: add a new field instead",
    );
    expect((await api("PATCH", `/crm/custom-fields/${fields.size.id}`, { key: "size" })).status).toBe(400);
    const renamed = await api("PATCH", `/crm/custom-fields/${fields.size.id}`, { label: "Headcount" });
    expect(renamed.body).toMatchObject({ key: "industry_size", label: "Headcount", type: "number" });
    expect((await api("GET", `/crm/clients/${client.id}`)).body).toMatchObject({ industry_size: 3 });
    const bad = await api<{ details: Detail[] }>("PATCH", `/crm/clients/${client.id}`, {
      industry_size: "x",
    });
    expect(bad.body.details).toEqual([{ field: "industry_size", message: "Headcount must be a number" }]);
    // A field without values may change its type; its index follows.
    const empty = await created("/crm/custom-fields", {
      entity: "clients",
      key: "rating",
      label: "Rating",
      type: "number",
    });
    const indexed = ["clients_cf_industry_size_n", "clients_cf_tier_t", "clients_cf_vip_note_t"];
    await indexesOf("clients", [...indexed, "clients_cf_rating_n"]);
    expect((await api("PATCH", `/crm/custom-fields/${empty.id}`, { type: "text" })).body).toMatchObject({
      type: "text",
    });
    await indexesOf("clients", [...indexed, "clients_cf_rating_t"]);
    const order = await api<{ data: Rec[] }>("PUT", "/crm/custom-fields/order", {
      entity: "clients",
      ids: (await api<{ data: Rec[] }>("GET", "/crm/custom-fields?entity=clients")).body.data
        .map((f) => f.id)
        .reverse(),
    });
    expect(order.body.data[0].key).toBe("rating");
  });

  it("checks dropdown values on every write, and keeps used options", async () => {
    const bad = await api<{ details: Detail[] }>("POST", "/crm/clients", {
      name: "Fay",
      source: "fax",
      tags: ["vip", "nope"],
      tier: "bronze",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([
      { field: "source", message: "Source must be one of the options of the Sources list" },
      { field: "tags", message: "Tags must be options of the Tags list: 'nope' is not" },
      { field: "tier", message: "Tier must be one of the options of the Company tier list" },
    ]);
    const fay = await created("/crm/clients", {
      name: "Fay",
      source: "event",
      tags: ["vip"],
      tier: "silver",
    });
    const options = await list("/crm/dropdowns", {
      filters: [{ field: "list", operator: "eq", value: "source" }],
      pageSize: 50,
    });
    const event = options.body.data.find((o) => o.value === "event") as Rec;
    // In use: not deleted (archive it), value not changed.
    const del = await api<{ message: string }>("DELETE", `/crm/dropdowns/${event.id}`);
    expect(del.status).toBe(409);
    expect(del.body.message).toBe(
      "Event is still used by 1 client; archive it instead: it stays on them and is no longer offered",
    );
    expect((await api("PATCH", `/crm/dropdowns/${event.id}`, { value: "events" })).status).toBe(409);
    expect((await api("PATCH", `/crm/dropdowns/${event.id}`, { archived: true })).status).toBe(200);
    // Archived: no longer offered to new values, still fine where it is.
    expect((await api("POST", "/crm/clients", { name: "Gus", source: "event" })).status).toBe(400);
    expect((await api("PATCH", `/crm/clients/${fay.id}`, { name: "Fay B", source: "event" })).status).toBe(
      200,
    );
    const opp = await api<{ details: Detail[] }>("POST", "/crm/opportunities", {
      title: "X",
      client_id: fay.id,
      stage: "sideways",
    });
    expect(opp.body.details).toEqual([
      { field: "stage", message: "Stage must be one of the options of the Stages list" },
    ]);
    // An unused option goes.
    const spare = await created("/crm/dropdowns", { list: "source", value: "spare", label: "Spare" });
    expect((await api("DELETE", `/crm/dropdowns/${spare.id}`)).status).toBe(204);
    // A custom enum's option in use is kept too.
    const tiers = await list("/crm/dropdowns", {
      filters: [{ field: "list", operator: "eq", value: "company_tier" }],
    });
    const silver = tiers.body.data.find((o) => o.value === "silver") as Rec;
    expect((await api("DELETE", `/crm/dropdowns/${silver.id}`)).status).toBe(409);
  });

  it("exports and imports custom columns; upserts clients by email, reporting bad rows", async () => {
    await created("/crm/clients", {
      name: "Hana",
      email: "hana@example.com",
      industry_size: 12,
      tier: "gold",
      owner_id: sellerId,
    });
    const file = await exportFile(
      s,
      admin,
      "/crm/clients",
      `filters=${encodeURIComponent(JSON.stringify([{ field: "email", operator: "eq", value: "hana@example.com" }]))}`,
    );
    expect(file.status).toBe(200);
    const [header, row] = file.rows;
    expect(header).toEqual(expect.arrayContaining(["Email", "Owner", "Headcount", "Tier", "Customer since"]));
    const cell = (title: string) => row[header.indexOf(title)];
    expect([cell("Email"), cell("Owner"), cell("Headcount"), cell("Tier")]).toEqual([
      "hana@example.com",
      "Sara Seller",
      "12",
      "gold",
    ]);

    const before = (await list("/crm/clients", { pageSize: 1 })).body.total;
    const refused = await importFile(s, admin, "/crm/clients", [
      "Name,Email,Headcount,Tier,Owner",
      "Hana H,HANA@example.com,13,silver,sara@example.com",
      "Ivo,ivo@example.com,many,gold,",
      "Jo,jo@example.com,2,platinum,Nobody Here",
    ]);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { row: 3, field: "Headcount", message: "Headcount must be a number" },
      { row: 4, field: "Owner", message: "No user has the name or ID 'Nobody Here'" },
    ]);
    const fixed = await importFile(s, admin, "/crm/clients", [
      "Name,Email,Headcount,Tier,Owner",
      "Hana H,HANA@example.com,13,silver,sara@example.com",
      "Ivo,ivo@example.com,,gold,Sara Seller",
      "Jo,jo@example.com,2,platinum,",
    ]);
    expect(fixed.body.errors).toEqual([
      { row: 4, field: "Tier", message: "Tier must be one of the options of the Company tier list" },
    ]);
    const done = await importFile(s, admin, "/crm/clients", [
      "Name,Email,Headcount,Tier,Owner",
      "Hana H,HANA@example.com,13,silver,sara@example.com",
      "Ivo,ivo@example.com,,gold,Sara Seller",
    ]);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ created: 1, updated: 1, errors: [] });
    expect((await list("/crm/clients", { pageSize: 1 })).body.total).toBe(before + 1);
    const hana = (
      await list("/crm/clients", { filters: [{ field: "email", operator: "eq", value: "hana@example.com" }] })
    ).body.data[0];
    expect(hana).toMatchObject({ name: "Hana H", industry_size: 13, tier: "silver", owner_id: sellerId });
    const ivo = (await list("/crm/clients", { q: "ivo@example.com" })).body.data[0];
    expect(ivo).toMatchObject({ tier: "gold", industry_size: null, owner_id: sellerId });
  });

  it("merges duplicates: references moved, empty fields filled, tags united, one timeline note", async () => {
    const keep = await created("/crm/clients", {
      name: "Kiran",
      email: "kiran@example.com",
      tags: ["vip"],
      tier: "gold",
    });
    const dup = await created("/crm/clients", {
      name: "Kiran K",
      phone: "+919876543210",
      tags: ["newsletter"],
      industry_size: 40,
      tier: "silver",
    });
    const dup2 = await created("/crm/clients", {
      name: "K. Kumar",
      email: "kk@example.com",
      company: "Kumar & Co",
    });
    const opp = await created("/crm/opportunities", { title: "Big deal", client_id: dup.id, stage: "new" });
    const task = await created("/crm/tasks", { title: "Call back", client_id: dup2.id });
    await api("POST", `/crm/clients/${dup.id}/notes`, { body: "Met at the fair" });
    const db = s.database.db;
    await sql`insert into crm_test_calls (client_id, kind) values (${keep.id}, 'intro'), (${dup.id}, 'intro'), (${dup.id}, 'demo')`.execute(
      db,
    );

    const res = await api<{ client: Rec; moved: Rec[]; conflicts: Rec[] }>(
      "POST",
      "/crm/clients/merge",
      {
        primaryId: keep.id,
        duplicateIds: [dup.id, dup2.id],
      },
      seller,
    );
    expect(res.status).toBe(200);
    expect(res.body.client).toMatchObject({
      id: keep.id,
      name: "Kiran",
      email: "kiran@example.com",
      phone: "+919876543210",
      company: "Kumar & Co",
      tags: ["vip", "newsletter"],
      tier: "gold",
      industry_size: 40,
    });
    expect(res.body.conflicts.map((c) => c.field)).toEqual(expect.arrayContaining(["name", "email", "tier"]));
    expect(res.body.moved).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ table: "opportunities", column: "client_id", rows: 1 }),
        expect.objectContaining({ table: "crm_tasks", column: "client_id", rows: 1 }),
        expect.objectContaining({ table: "crm_test_calls", column: "client_id", rows: 1, kept: 1 }),
      ]),
    );
    expect((await api("GET", `/crm/opportunities/${opp.id}`)).body.client_id).toBe(keep.id);
    expect((await api("GET", `/crm/tasks/${task.id}`)).body.client_id).toBe(keep.id);
    expect((await api("GET", `/crm/clients/${dup.id}`)).status).toBe(404);
    expect((await api("GET", `/crm/clients/${dup2.id}`)).status).toBe(404);
    const calls = await sql<{
      kind: string;
    }>`select kind from crm_test_calls where client_id = ${keep.id} order by kind`.execute(db);
    expect(calls.rows.map((r) => r.kind)).toEqual(["demo", "intro"]);
    const timeline = await api<{ data: Rec[] }>("GET", `/crm/clients/${keep.id}/timeline`);
    expect(timeline.body.data.map((e) => e.title)).toEqual(
      expect.arrayContaining([
        "Merged 2 duplicates: Kiran K, K. Kumar",
        "Met at the fair",
        "Opportunity created: Big deal",
      ]),
    );
    // Nothing half done: a missing duplicate refuses the whole merge.
    const other = await created("/crm/clients", { name: "Lone" });
    const missing = await api("POST", "/crm/clients/merge", { primaryId: other.id, duplicateIds: [dup.id] });
    expect(missing.status).toBe(404);
    const self = await api<{ details: Detail[] }>("POST", "/crm/clients/merge", {
      primaryId: other.id,
      duplicateIds: [other.id],
    });
    expect(self.status).toBe(400);
  });

  it("offers active users as people to anyone signed in", async () => {
    const people = await list("/api/people", { q: "sara" }, seller);
    expect(people.status).toBe(200);
    expect(people.body.data).toEqual([{ id: sellerId, name: "Sara Seller", email: "sara@example.com" }]);
    const byId = await list(
      "/api/people",
      { filters: [{ field: "id", operator: "in", value: [sellerId] }] },
      seller,
    );
    expect(byId.body.total).toBe(1);
    await api("PATCH", `/api/users/${sellerId}`, { active: false });
    expect((await list("/api/people", { q: "sara" })).body.total).toBe(0);
    await api("PATCH", `/api/users/${sellerId}`, { active: true });
    seller = (await s.signIn("sara@example.com", "Seller-Passw0rd!")).accessToken;
  });

  it("documents custom fields in the OpenAPI document as soon as they exist", async () => {
    await created("/crm/custom-fields", {
      entity: "clients",
      key: "account_manager_email",
      label: "Account manager email",
      type: "email",
    });
    const doc = await api<{ paths: Record<string, Record<string, Rec>> }>("GET", "/api/docs/json");
    expect(doc.status).toBe(200);
    const post = doc.body.paths["/crm/clients"].post as unknown as {
      requestBody: { content: Record<string, { schema: { properties: Record<string, Rec> } }> };
    };
    const props = post.requestBody.content["application/json"].schema.properties;
    expect(props.account_manager_email).toMatchObject({ format: "email", title: "Account manager email" });
    expect(props.industry_size).toMatchObject({ type: ["number", "null"] });
  });
});
