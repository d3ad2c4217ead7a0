/**
 * Saved views and bulk edit (issue 31) over real HTTP on PGlite and PostgreSQL, on `gadgets`:
 * a hidden entity registered only here (its two definitions, csv-fixtures.ts), so what the
 * engine gives every resource is what is tested. Views: personal and shared, who sees and who
 * edits them, the default, a view naming a field the schema no longer has, and bad input in
 * words. Bulk edit: inline, and as one job followed to its end; records refused by a rule
 * counted and named; bad input; a retried request with the same Idempotency-Key.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODULE_IDS } from "../../resources/modules";
import type { BulkUpdate, SavedView, SavedViewList } from "../../schemas/saved-views";
import { csvServerOptions } from "./csv-fixtures";
import { DRIVERS, startServer, type TestServer } from "./harness";

interface ErrorAnswer {
  message: string;
  details?: Array<{ field: string; message: string }>;
}

const VIEWS = "/api/gadgets/views";
const BULK = "/api/gadgets/bulk-update";
const state = (over: Record<string, unknown> = {}) => ({
  filters: [{ field: "weight", operator: "gte", value: 10 }],
  sort: "-weight",
  columns: ["title", "weight"],
  pageSize: 25,
  ...over,
});

describe.each(DRIVERS)("saved views and bulk edit on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let vic: string;
  let nobody: string;

  const user = async (first: string, modules: number[]) => {
    const email = `${first.toLowerCase()}.views@example.com`;
    const made = await s.api("POST", "/api/users", {
      token: admin,
      body: { first_name: first, last_name: "Views", email, password: "Passw0rd-123", role: 3, modules },
    });
    expect(made.status).toBe(201);
    return (await s.signIn(email, "Passw0rd-123")).accessToken;
  };
  const views = async (token: string) => (await s.api<SavedViewList>("GET", VIEWS, { token })).body;
  const save = (token: string, name: string, shared: boolean, over: Record<string, unknown> = {}) =>
    s.api<SavedView & ErrorAnswer>("POST", VIEWS, { token, body: { name, shared, state: state(over) } });

  beforeAll(async () => {
    s = await startServer(driver, {}, csvServerOptions);
    admin = (await s.signIn()).accessToken;
    vic = await user("Vic", [MODULE_IDS.products]);
    nobody = await user("Nell", [MODULE_IDS.cms]);
  });
  afterAll(() => s?.close());

  it("keeps personal views to their owner and shows shared ones to everyone with the module", async () => {
    const mine = await save(admin, "Heavy first", false);
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({
      name: "Heavy first",
      shared: false,
      canEdit: true,
      notices: [],
      state: { sort: "-weight", columns: ["title", "weight"], pageSize: 25, labels: { weight: "Weight" } },
    });
    const shared = await save(admin, "  Team list ", true, { filters: [], sort: "", columns: null });
    expect(shared.status).toBe(201);
    expect(shared.body.name).toBe("Team list");

    const seenByVic = await views(vic);
    expect(seenByVic.data.map((v) => v.name)).toEqual(["Team list"]);
    expect(seenByVic.data[0]).toMatchObject({ canEdit: false, ownerName: expect.stringContaining("") });
    // Another's personal view is not there for Vic; a shared one is the sharer's or an admin's to change.
    expect(
      (await s.api("PATCH", `${VIEWS}/${mine.body.id}`, { token: vic, body: { name: "x" } })).status,
    ).toBe(404);
    const refused = await s.api<ErrorAnswer>("PATCH", `${VIEWS}/${shared.body.id}`, {
      token: vic,
      body: { name: "Renamed" },
    });
    expect(refused.status).toBe(403);
    expect((await s.api("DELETE", `${VIEWS}/${shared.body.id}`, { token: vic })).status).toBe(403);

    const vics = await save(vic, "Vic's own", false);
    expect(vics.status).toBe(201);
    expect((await views(admin)).data.map((v) => v.name)).toEqual(["Team list", "Heavy first"]);
    // Even an admin does not see or change a person's own view.
    expect((await s.api("DELETE", `${VIEWS}/${vics.body.id}`, { token: admin })).status).toBe(404);
    const renamed = await s.api<SavedView>("PATCH", `${VIEWS}/${vics.body.id}`, {
      token: vic,
      body: { name: "Vic's heavy", shared: true },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Vic's heavy", shared: true });
    // Shared now: the admin may change it.
    const byAdmin = await s.api("PATCH", `${VIEWS}/${vics.body.id}`, {
      token: admin,
      body: { name: "Checked" },
    });
    expect(byAdmin.status).toBe(200);
    // Without the module: no views at all.
    expect((await s.api("GET", VIEWS, { token: nobody })).status).toBe(403);
  });

  it("refuses bad views with a 400 per field in words", async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ name: "   ", shared: false, state: state() }, "name", /must not be empty/],
      [{ name: "heavy FIRST", shared: true, state: state() }, "name", /exists already/],
      [{ name: "Shape", shared: false, state: state({ filters: [{ value: 1 }] }) }, "state.filters", /field/],
      [{ name: "Shape", shared: false, state: state({ filters: "weight" }) }, "state.filters", /./],
      [
        {
          name: "Colour",
          shared: false,
          state: state({ filters: [{ field: "colour", operator: "eq", value: 1 }] }),
        },
        "state.filters",
        /cannot be filtered by 'colour'/,
      ],
      [
        { name: "Sort", shared: false, state: state({ sort: "photos" }) },
        "state.sort",
        /cannot be sorted by 'photos'/,
      ],
      [
        { name: "Cols", shared: false, state: state({ columns: ["nope"] }) },
        "state.columns",
        /'nope' is not a column/,
      ],
      [{ name: "Size", shared: false, state: state({ pageSize: 5000 }) }, "state.pageSize", /./],
    ];
    for (const [body, field, message] of cases) {
      const res = await s.api<ErrorAnswer>("POST", VIEWS, { token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const detail = res.body.details?.find((d) => d.field === field);
      expect(detail, `${field}: ${JSON.stringify(res.body)}`).toBeTruthy();
      expect(detail?.message).toMatch(message);
    }
    // An unknown resource has no views route.
    expect((await s.api("GET", "/api/nothings/views", { token: admin })).status).toBe(404);
    const badDefault = await s.api<ErrorAnswer>("PUT", `${VIEWS}/default`, {
      token: admin,
      body: { id: "x" },
    });
    expect(badDefault.status).toBe(400);
  });

  it("remembers each person's default view, and forgets it with the view", async () => {
    const made = await save(vic, "Vic default", false, { sort: "title" });
    const set = await s.api("PUT", `${VIEWS}/default`, { token: vic, body: { id: made.body.id } });
    expect(set.status).toBe(200);
    expect((await views(vic)).defaultId).toBe(made.body.id);
    expect((await views(admin)).defaultId).toBeNull();
    // Another person's personal view cannot be the admin's default.
    const other = await s.api<ErrorAnswer>("PUT", `${VIEWS}/default`, {
      token: admin,
      body: { id: made.body.id },
    });
    expect(other.status).toBe(400);
    expect(other.body.details?.[0]).toMatchObject({ field: "id" });
    expect((await s.api("DELETE", `${VIEWS}/${made.body.id}`, { token: vic })).status).toBe(204);
    expect((await views(vic)).defaultId).toBeNull();
    expect((await s.api("PUT", `${VIEWS}/default`, { token: vic, body: { id: null } })).status).toBe(200);
  });

  it("leaves out what names a field the schema no longer has, with a notice", async () => {
    const made = await save(admin, "Before the rename", false);
    // As a schema change would leave it: the view names `colour`, which gadgets no longer have.
    const old = {
      filters: [
        { field: "colour", operator: "eq", value: "red" },
        {
          operator: "or",
          value: [
            { field: "weight", operator: "gte", value: 1 },
            { field: "colour", operator: "eq", value: "blue" },
          ],
        },
      ],
      sort: "-colour,title",
      columns: ["title", "colour", "weight"],
      pageSize: 50,
      labels: { colour: "Colour", title: "Title", weight: "Weight" },
    };
    await sql`update saved_views set state = ${JSON.stringify(old)}::jsonb where id = ${made.body.id}`.execute(
      s.database.db,
    );
    const view = (await views(admin)).data.find((v) => v.id === made.body.id);
    expect(view?.state).toMatchObject({
      filters: [{ operator: "or", value: [{ field: "weight", operator: "gte", value: 1 }] }],
      sort: "title",
      columns: ["title", "weight"],
      pageSize: 50,
    });
    expect(view?.notices).toEqual([
      "The filter on 'Colour' no longer exists and was left out of this view",
      "The sort by 'Colour' no longer exists and was left out of this view",
      "The column 'Colour' no longer exists and was left out of this view",
    ]);
  });

  describe("bulk edit", () => {
    const make = async (title: string, weight: number) =>
      (
        await s.api<{ id: string }>("POST", "/api/gadgets", {
          token: admin,
          body: { title, weight, kind: "a" },
        })
      ).body.id;

    it("sets one field on the records chosen, counting and naming those a rule refuses", async () => {
      const heavy = await make("Anvil", 40);
      const light = await make("Feather", 1);
      const res = await s.api<BulkUpdate>("POST", BULK, {
        token: vic,
        body: { ids: [heavy, light], field: "kind", value: "b" },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: null,
        status: "finished",
        total: 2,
        done: 2,
        updated: 1,
        refused: 1,
      });
      expect(res.body.errors).toEqual([
        { id: light, label: "Feather", message: expect.stringMatching(/heavy.*Weight must be at least 10/) },
      ]);
      const rows = await sql<{ title: string; kind: string; updated_by: string }>`
        select title, kind, updated_by from csv_gadgets where id in (${heavy}, ${light}) order by title`.execute(
        s.database.db,
      );
      expect(rows.rows.map((r) => [r.title, r.kind])).toEqual([
        ["Anvil", "b"],
        ["Feather", "a"],
      ]);
    });

    it("refuses bad input with a 400 per field, before changing anything", async () => {
      const id = await make("Gauge", 5);
      const cases: Array<[Record<string, unknown>, string, RegExp]> = [
        [{ ids: [id], field: "colour", value: 1 }, "field", /is not a field of gadgets that can be set/],
        [{ ids: [id], field: "id", value: id }, "field", /is not a field/],
        [{ ids: [id], field: "weight", value: "heavy" }, "weight", /Weight must be/],
        [{ ids: [id], field: "weight", value: 10, q: "x" }, "ids", /not both/],
        [
          { filters: [{ field: "title", operator: "eq", value: "No such" }], field: "weight", value: 1 },
          "ids",
          /No records match/,
        ],
        [
          { filters: [{ field: "colour", operator: "eq", value: 1 }], field: "weight", value: 1 },
          "filters",
          /Cannot filter by .colour./,
        ],
        [{ ids: [], field: "weight", value: 1 }, "ids", /./],
        [{ ids: [id], value: 1 }, "field", /./],
      ];
      for (const [body, field, message] of cases) {
        const res = await s.api<ErrorAnswer>("POST", BULK, { token: admin, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        const detail = res.body.details?.find((d) => d.field === field);
        expect(detail, `${field}: ${JSON.stringify(res.body)}`).toBeTruthy();
        expect(detail?.message).toMatch(message);
      }
      const forbidden = await s.api("POST", BULK, {
        token: nobody,
        body: { ids: [id], field: "weight", value: 1 },
      });
      expect(forbidden.status).toBe(403);
      const row = await sql<{ weight: number }>`select weight from csv_gadgets where id = ${id}`.execute(
        s.database.db,
      );
      expect(row.rows[0].weight).toBe(5);
    });

    it("runs a large selection as one job with progress, and a retried request starts no second one", async () => {
      // 250 records matching a filter, 10 of them too light for kind b.
      await sql`
        insert into csv_gadgets (title, weight, kind)
        select 'Bulk ' || lpad(n::text, 3, '0'), case when n <= 10 then 1 else 20 end, 'a'
        from generate_series(1, 250) as n`.execute(s.database.db);
      const body = {
        filters: [{ field: "title", operator: "startswith", value: "Bulk " }],
        field: "kind",
        value: "b",
      };
      // An edit that ended long ago, whose outcome goes when the next one starts.
      await sql`
        insert into bulk_updates (resource, field, ids, total, status, created_at)
        values ('gadgets', 'kind', '[]', 0, 'finished', now() - interval '31 days')`.execute(s.database.db);
      const headers = { "idempotency-key": `bulk-${driver}` };
      const started = await s.api<BulkUpdate>("POST", BULK, { token: admin, body, headers });
      expect(started.status).toBe(202);
      expect(started.body).toMatchObject({ total: 250, field: "kind" });
      expect(started.body.id).toEqual(expect.any(String));
      const again = await s.api<BulkUpdate>("POST", BULK, { token: admin, body, headers });
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.body.id).toBe(started.body.id);

      let progress = started.body;
      const seen = new Set<number>();
      while (progress.status === "queued" || progress.status === "running") {
        seen.add(progress.done);
        await new Promise((r) => setTimeout(r, 50));
        progress = (await s.api<BulkUpdate>("GET", `${BULK}/${started.body.id}`, { token: admin })).body;
      }
      expect(progress).toMatchObject({
        status: "finished",
        total: 250,
        done: 250,
        updated: 240,
        refused: 10,
      });
      expect(progress.errors).toHaveLength(10);
      expect(progress.errors[0]).toMatchObject({
        label: "Bulk 001",
        message: expect.stringMatching(/heavy/),
      });
      const counts = await sql<{ kind: string; n: string }>`
        select kind, count(*) as n from csv_gadgets where title like 'Bulk %' group by kind order by kind`.execute(
        s.database.db,
      );
      expect(counts.rows.map((r) => [r.kind, Number(r.n)])).toEqual([
        ["a", 10],
        ["b", 240],
      ]);
      const old = await sql<{ n: string }>`
        select count(*) as n from bulk_updates where created_at < now() - interval '30 days'`.execute(
        s.database.db,
      );
      expect(Number(old.rows[0].n)).toBe(0);
      // Each record changed is in its history, as an update's would be.
      const history = await sql<{ n: string }>`
        select count(*) as n from record_history h join csv_gadgets g on g.id = h.record_id
        where g.title like 'Bulk %' and h.action = 'updated' and h.changes->'kind'->>1 = 'b'`.execute(
        s.database.db,
      );
      expect(Number(history.rows[0].n)).toBe(240);
      // A job's progress is its starter's (or an admin's): another person with the module
      // does not find it.
      expect((await s.api("GET", `${BULK}/${started.body.id}`, { token: vic })).status).toBe(404);
      // A job is its resource's: another resource's path does not find it.
      expect(
        (await s.api("GET", `/api/products/bulk-update/${started.body.id}`, { token: admin })).status,
      ).toBe(404);
    });
  });
});
