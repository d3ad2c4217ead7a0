/**
 * The pipeline board (issue 16) against the real server and database: the board's columns with
 * counts and totals per currency and its filters; moves within and between columns with their
 * positions, the column renumbered when a gap is too small, the stage move on the client's
 * timeline; won and lost through the engine's PATCH (lost needs a reason); bad input 400 per
 * field with nothing changed; the CRM module needed on every route.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, startServer, type TestServer } from "./harness";

type Rec = Record<string, unknown> & { id: string };
interface Card {
  id: string;
  title: string;
  stage: string;
  value: number;
  currency: string;
  client_name: string;
  owner_id: string | null;
  expected_close: string | null;
  position: number;
}
interface Column {
  stage: string;
  label: string;
  probability: number | null;
  retired: boolean;
  count: number;
  totals: Array<{ currency: string; value: number; weighted: number }>;
}
interface Board {
  columns: Column[];
  cards: Card[];
  owners: Array<{ id: string; name: string }>;
  truncated: boolean;
}
type Details = { details?: Array<{ field: string; message: string }>; message: string };

describe.each(DRIVERS)("pipeline board on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let adminId: string;
  let client: Rec;
  const call = <T = Rec>(method: string, p: string, body?: unknown) =>
    s.api<T>(method, p, { token: admin, body });
  const board = async (query = "") => {
    const answer = await call<Board>("GET", `/crm/opportunities/board${query}`);
    expect(answer.status).toBe(200);
    return answer.body;
  };
  /** The titles of a column's cards, in board order. */
  const column = async (stage: string) =>
    (await board()).cards.filter((c) => c.stage === stage).map((c) => c.title);
  const create = async (title: string, extra: Record<string, unknown> = {}) => {
    const answer = await call("POST", "/crm/opportunities", {
      title,
      client_id: client.id,
      stage: "new",
      ...extra,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body;
  };
  const move = (id: string, body: unknown) =>
    call<Rec & Details>("POST", `/crm/opportunities/${id}/move`, body);

  beforeAll(async () => {
    s = await startServer(driver);
    const signedIn = await s.signIn();
    admin = signedIn.accessToken;
    adminId = signedIn.user.userID;
    client = (await call("POST", "/crm/clients", { name: "Asha Rao", company: "Rao Textiles", tags: [] }))
      .body;
  });
  afterAll(() => s?.close());

  it("shows open opportunities by stage, newest on top, with counts and totals per currency", async () => {
    await create("First deal", { value: 1000 });
    await create("Second deal", { value: 2500.5 });
    await create("Dollar deal", { value: 400, currency: "USD", stage: "proposal" });
    const b = await board();
    expect(b.columns.map((c) => c.stage)).toEqual(["new", "qualified", "proposal", "negotiation"]);
    const fresh = b.columns[0];
    expect(fresh).toMatchObject({ label: "New", probability: 10, retired: false, count: 2 });
    expect(fresh.totals).toEqual([{ currency: "INR", value: 3500.5, weighted: 350.05 }]);
    expect(b.columns[2].totals).toEqual([{ currency: "USD", value: 400, weighted: 200 }]);
    expect(b.columns[1]).toMatchObject({ count: 0, totals: [] });
    expect(await column("new")).toEqual(["Second deal", "First deal"]);
    const card = b.cards.find((c) => c.title === "First deal");
    expect(card).toMatchObject({
      value: 1000,
      currency: "INR",
      client_name: "Asha Rao",
      expected_close: null,
    });
    expect(b.truncated).toBe(false);
  });

  it("moves a card within its column and between columns, between its new neighbours", async () => {
    const third = await create("Third deal");
    // new: Third, Second, First
    expect(await column("new")).toEqual(["Third deal", "Second deal", "First deal"]);
    const cards = (await board()).cards;
    const id = (title: string) => cards.find((c) => c.title === title)?.id as string;

    const down = await move(third.id, { stage: "new", after: id("First deal") });
    expect(down.status).toBe(200);
    expect(await column("new")).toEqual(["Second deal", "First deal", "Third deal"]);

    const between = await move(third.id, { stage: "new", before: id("First deal") });
    expect(between.status).toBe(200);
    expect(await column("new")).toEqual(["Second deal", "Third deal", "First deal"]);
    const positions = (await board()).cards.filter((c) => c.stage === "new").map((c) => c.position);
    expect(positions[0]).toBeLessThan(positions[1]);
    expect(positions[1]).toBeLessThan(positions[2]);

    const across = await move(id("Second deal"), { stage: "qualified" });
    expect(across.status).toBe(200);
    expect(across.body).toMatchObject({ stage: "qualified", status: "open" });
    expect(await column("qualified")).toEqual(["Second deal"]);
    expect(await column("new")).toEqual(["Third deal", "First deal"]);

    // Into a column with a card: at its end, or before it.
    await move(id("First deal"), { stage: "qualified" });
    expect(await column("qualified")).toEqual(["Second deal", "First deal"]);
    await move(third.id, { stage: "qualified", before: id("Second deal") });
    expect(await column("qualified")).toEqual(["Third deal", "Second deal", "First deal"]);
    const q = (await board()).columns.find((c) => c.stage === "qualified");
    expect(q).toMatchObject({ count: 3, totals: [{ currency: "INR", value: 3500.5, weighted: 875.13 }] });
  });

  it("puts the stage move on the client's timeline, once, and tells the board's watchers", async () => {
    const deal = await create("Timeline deal");
    const events: string[] = [];
    const off = s.ctx.events.subscribe((e) => {
      if (e.resource === "opportunities") events.push(`${e.type}:${e.ids.join(",")}`);
    });
    const moved = await move(deal.id, { stage: "negotiation" });
    // Dropped where it already is: nothing written, nothing on the timeline.
    const again = await move(deal.id, { stage: "negotiation" });
    off();
    expect(moved.status).toBe(200);
    expect(again.status).toBe(200);
    expect(events).toEqual([`updated:${deal.id}`]);
    const timeline = await call<{ data: Array<{ title: string; ref_id: string; data: Rec }> }>(
      "GET",
      `/crm/clients/${client.id}/timeline?kind=opportunity`,
    );
    const entries = timeline.body.data.filter((e) => e.ref_id === deal.id);
    expect(entries.map((e) => e.title)).toEqual([
      "Timeline deal moved from New to Negotiation",
      "Opportunity created: Timeline deal",
    ]);
    expect(entries[0].data).toMatchObject({ change: "stage", fromStage: "new", toStage: "negotiation" });
  });

  it("renumbers a column whose neighbours sit too close, keeping its order", async () => {
    const a = await create("Gap A", { stage: "proposal" });
    await create("Gap B", { stage: "proposal" });
    const c = await create("Gap C", { stage: "proposal" });
    // Dollar deal (from the first test) is in proposal too: put the column in a known order
    // with two neighbours a ten-millionth apart.
    await sql`update opportunities set position = case title
      when 'Gap A' then 1 when 'Gap B' then 1.0000001 when 'Dollar deal' then 5 when 'Gap C' then 9 end
      where stage = 'proposal'`.execute(s.database.db);
    expect(await column("proposal")).toEqual(["Gap A", "Gap B", "Dollar deal", "Gap C"]);
    const answer = await move(c.id, { stage: "proposal", after: a.id });
    expect(answer.status).toBe(200);
    expect(await column("proposal")).toEqual(["Gap A", "Gap C", "Gap B", "Dollar deal"]);
    const positions = (await board()).cards.filter((x) => x.stage === "proposal").map((x) => x.position);
    expect(positions).toEqual([1024, 1536, 2048, 3072]);
    // Equal positions are as close as can be: the column is renumbered, in id order then.
    await sql`update opportunities set position = 7 where stage = 'proposal'`.execute(s.database.db);
    const tied = (await board()).cards.filter((x) => x.stage === "proposal").map((x) => x.id);
    expect(tied).toEqual([...tied].sort());
    const tiedMove = await move(tied[3], { stage: "proposal", after: tied[0] });
    expect(tiedMove.status).toBe(200);
    const after = (await board()).cards.filter((x) => x.stage === "proposal");
    expect(after.map((x) => x.id)).toEqual([tied[0], tied[3], tied[1], tied[2]]);
    expect(after.map((x) => x.position)).toEqual([1024, 1536, 2048, 3072]);
  });

  it("closes as won with a note, and as lost only with a reason, through the PATCH", async () => {
    const won = await create("Won deal", { value: 700 });
    const lost = await create("Lost deal", { value: 300 });
    const ok = await call("PATCH", `/crm/opportunities/${won.id}`, {
      status: "won",
      close_note: "Signed today",
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: "won", close_note: "Signed today" });
    expect(ok.body.closed_at).toEqual(expect.any(String));

    const noReason = await call<Details>("PATCH", `/crm/opportunities/${lost.id}`, { status: "lost" });
    expect(noReason.status).toBe(400);
    expect(noReason.body.details).toEqual([{ field: "lost_reason", message: "Choose why it was lost" }]);
    expect((await call("GET", `/crm/opportunities/${lost.id}`)).body.status).toBe("open");

    const closed = await call("PATCH", `/crm/opportunities/${lost.id}`, {
      status: "lost",
      lost_reason: "price",
      close_note: "Too dear",
    });
    expect(closed.status).toBe(200);
    const b = await board();
    expect(b.cards.map((c) => c.title)).not.toContain("Won deal");
    expect(b.cards.map((c) => c.title)).not.toContain("Lost deal");
    const timeline = await call<{ data: Array<{ title: string; body: string | null }> }>(
      "GET",
      `/crm/clients/${client.id}/timeline?kind=opportunity`,
    );
    expect(timeline.body.data.find((e) => e.title === "Lost: Lost deal")?.body).toBe(
      "Reason: Price\nToo dear",
    );
    expect(timeline.body.data.find((e) => e.title === "Won: Won deal")?.body).toBe("Signed today");

    // A closed card is not on the board: it cannot be moved until reopened.
    const refused = await move(won.id, { stage: "new" });
    expect(refused.status).toBe(409);
    const reopened = await call("PATCH", `/crm/opportunities/${won.id}`, { status: "open" });
    expect(reopened.body).toMatchObject({ status: "open", closed_at: null });
    // Reopened, it arrives on top of its column.
    expect((await column("new"))[0]).toBe("Won deal");
  });

  it("filters by owner, expected close and search, counts and totals included", async () => {
    const other = await call("POST", "/crm/clients", {
      name: "Vikram Shah",
      company: "Shah Steel",
      tags: [],
    });
    await create("Owned early", { owner_id: adminId, expected_close: "2031-01-10", value: 10 });
    await create("Owned late", { owner_id: adminId, expected_close: "2031-03-10", value: 20 });
    await call("POST", "/crm/opportunities", {
      title: "Steel order",
      client_id: other.body.id,
      stage: "new",
      value: 5,
      expected_close: "2031-02-01",
    });
    const mine = await board(`?owner=${adminId}`);
    expect(mine.cards.map((c) => c.title).sort()).toEqual(["Owned early", "Owned late"]);
    expect(mine.columns[0]).toMatchObject({
      count: 2,
      totals: [{ currency: "INR", value: 30, weighted: 3 }],
    });
    expect(mine.owners).toEqual([{ id: adminId, name: expect.any(String) }]);

    const nobody = await board("?owner=none");
    expect(nobody.cards.map((c) => c.title)).toContain("Steel order");
    expect(nobody.cards.map((c) => c.title)).not.toContain("Owned early");

    const range = await board("?from=2031-01-15&to=2031-03-01");
    expect(range.cards.map((c) => c.title)).toEqual(["Steel order"]);
    expect(range.columns.reduce((n, c) => n + c.count, 0)).toBe(1);

    // The search reads the title and the client's name and company.
    expect((await board("?q=shah%20steel")).cards.map((c) => c.title)).toEqual(["Steel order"]);
    expect((await board("?q=owned%20late")).cards.map((c) => c.title)).toEqual(["Owned late"]);
    expect((await board("?q=100%25")).cards).toEqual([]);

    // Only some cards (a live refresh): the columns still count every match.
    const one = (await board()).cards.find((c) => c.title === "Steel order") as Card;
    const some = await board(`?ids=${one.id}`);
    expect(some.cards.map((c) => c.id)).toEqual([one.id]);
    expect(some.columns[0].count).toBeGreaterThan(1);
  });

  it("rounds each weighted total once, half up, in integers (the issue's three examples)", async () => {
    const paisa = await call("POST", "/crm/clients", { name: "Paisa Exact", tags: [] });
    const at = (title: string, value: number, stage: string, currency = "INR") =>
      call("POST", "/crm/opportunities", { title, client_id: paisa.body.id, value, stage, currency });
    await at("Half of 29", 0.29, "proposal"); // 50 %: 14.5 paise → 15
    await at("Tenth of 5", 0.05, "new"); // 10 %: 0.5 paise → 1
    await at("Quarter of 10", 0.1, "qualified"); // 25 %: 2.5 paise → 3
    // A column's weighted total is its exact sum weighted once: (1 + 2) cents at 50 % → 2.
    await at("Cent one", 0.01, "proposal", "USD");
    await at("Cent two", 0.02, "proposal", "USD");
    const b = await board("?q=paisa%20exact");
    const totals = Object.fromEntries(b.columns.map((c) => [c.stage, c.totals]));
    expect(totals.proposal).toEqual([
      { currency: "INR", value: 0.29, weighted: 0.15 },
      { currency: "USD", value: 0.03, weighted: 0.02 },
    ]);
    expect(totals.new).toEqual([{ currency: "INR", value: 0.05, weighted: 0.01 }]);
    expect(totals.qualified).toEqual([{ currency: "INR", value: 0.1, weighted: 0.03 }]);
    expect(b.cards.find((c) => c.title === "Half of 29")?.value).toBe(0.29);
  });

  it("keeps a column for cards left in an archived stage", async () => {
    // A stage no option names any more (the writes refuse it now: it was removed since).
    const stale = await create("Stale stage deal");
    await sql`update opportunities set stage = 'legacy' where id = ${stale.id}`.execute(s.database.db);
    const b = await board();
    const legacy = b.columns.find((c) => c.stage === "legacy");
    expect(legacy).toMatchObject({ label: "legacy", retired: true, count: 1 });
    // …and the board's stages are the only ones a card can be moved to.
    const refused = await move(stale.id, { stage: "legacy" });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([{ field: "stage", message: "Choose one of the board's stages" }]);
    expect((await move(stale.id, { stage: "new" })).status).toBe(200);
    expect((await board()).columns.find((c) => c.stage === "legacy")).toBeUndefined();
  });

  it("refuses bad input with a 400 per field, and changes nothing", async () => {
    const deal = await create("Careful deal");
    const before = (await call("GET", `/crm/opportunities/${deal.id}`)).body;
    const other = await create("Other deal", { stage: "qualified" });
    const cases: Array<[unknown, string]> = [
      [{}, "stage"],
      [{ stage: "" }, "stage"],
      [{ stage: "nope" }, "stage"],
      [{ stage: "new", after: "not-an-id" }, "after"],
      [{ stage: "new", before: 12 }, "before"],
      [{ stage: "new", after: deal.id }, "after"],
      // A neighbour that is in another column (a stale board).
      [{ stage: "new", before: other.id }, "before"],
      [{ stage: "new", after: "00000000-0000-4000-8000-000000000000" }, "after"],
    ];
    for (const [body, field] of cases) {
      const answer = await move(deal.id, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(
        answer.body.details?.map((d) => d.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    const extra = await move(deal.id, { stage: "new", position: 3 });
    expect(extra.status).toBe(400);
    expect((await call("GET", `/crm/opportunities/${deal.id}`)).body).toEqual(before);

    expect((await move("00000000-0000-4000-8000-000000000000", { stage: "new" })).status).toBe(404);
    expect((await call("POST", "/crm/opportunities/nope/move", { stage: "new" })).status).toBe(400);

    for (const [query, field] of [
      ["?owner=someone", "owner"],
      ["?from=2031-13-01", "from"],
      ["?to=yesterday", "to"],
      ["?from=2031-05-01&to=2031-04-01", "to"],
      ["?ids=abc", "ids.0"],
      ["?colour=red", ""],
    ]) {
      const answer = await call<Details>("GET", `/crm/opportunities/board${query}`);
      expect(answer.status, query).toBe(400);
      if (field)
        expect(
          answer.body.details?.map((d) => d.field),
          query,
        ).toContain(field);
    }
  });

  it("needs the CRM module on every board route", async () => {
    const deal = await create("Guarded deal");
    expect((await s.api("GET", "/crm/opportunities/board")).status).toBe(401);
    const user = await call("POST", "/api/users", {
      first_name: "No",
      last_name: "Crm",
      email: `nocrm-${driver}@example.com`,
      password: "No-crm-passw0rd",
      role: 3,
      modules: [2],
    });
    expect(user.status).toBe(201);
    const token = (await s.signIn(`nocrm-${driver}@example.com`, "No-crm-passw0rd")).accessToken;
    expect((await s.api("GET", "/crm/opportunities/board", { token })).status).toBe(403);
    const moved = await s.api("POST", `/crm/opportunities/${deal.id}/move`, {
      token,
      body: { stage: "proposal" },
    });
    expect(moved.status).toBe(403);
    expect((await call("GET", `/crm/opportunities/${deal.id}`)).body.stage).toBe("new");
  });
});
