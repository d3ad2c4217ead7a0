/**
 * A list's total and its rows agree (issue 26): both come from one snapshot of the database
 * (server/http/list-page.ts), so rows committed while a list is read never make an answer whose
 * `data` and `total` disagree. Under load on PostgreSQL the carts list once answered
 * `total: 1` with `data: []`: its rows and its count were two statements, two moments.
 *
 * Writers insert while readers list, through the real routes: an engine resource (products,
 * CRM clients) and module lists (store carts, form submissions). Every answer must hold
 * `data.length === clamp(total - offset, 0, pageSize)`. Two kinds of read: a first page of 50
 * rows, and the page just past the last total seen (pageSize 1, the next row that
 * may or may not exist yet): the answer that races an insert there is the one a two-statement
 * list gets wrong.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXACT_COUNT_CAP, pageWithTotal } from "../../server/http/list-page";
import { DRIVERS, startServer, type TestServer } from "./harness";

// biome-ignore lint/suspicious/noExplicitAny: list answers are inspected loosely.
type Any = any;

/** Reads per reader, and readers per list. */
const READS = 60;
const READERS = 2;
const WRITERS = 3;
/** A bound on the rows a list's writers add, whatever the machine's speed. */
const MAX_INSERTS = 400;

interface Answer {
  data: unknown[];
  total: number;
  totalExact?: boolean;
}

describe.each(DRIVERS)("list totals and rows from one snapshot on %s", (driver) => {
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    s = await startServer(driver);
    token = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  const get = async (path: string): Promise<Answer> => {
    const res = await s.api<Answer>("GET", path, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  /**
   * Lists `path` READS times from each of READERS readers while WRITERS writers call `insert`,
   * and returns every answer that disagreed with its own total (none, when rows and total share
   * a snapshot).
   */
  async function listWhileInserting(path: string, insert: (n: number) => Promise<unknown>) {
    const sep = path.includes("?") ? "&" : "?";
    let reading = true;
    let inserted = 0;
    const writer = async () => {
      while (reading && inserted < MAX_INSERTS) await insert(++inserted);
    };
    const wrong: string[] = [];
    let answers = 0;
    const reader = async () => {
      let seen = 0;
      for (let i = 0; i < READS; i++) {
        const edge = i % 2 === 1;
        const pageSize = edge ? 1 : 50;
        const page = edge ? seen + 1 : 1;
        const body = await get(`${path}${sep}page=${page}&pageSize=${pageSize}`);
        answers++;
        expect(body.totalExact ?? true).toBe(true);
        const offset = (page - 1) * pageSize;
        const expected = Math.max(0, Math.min(pageSize, body.total - offset));
        if (body.data.length !== expected) {
          wrong.push(`page ${page} ×${pageSize}: ${body.data.length} rows, total ${body.total}`);
        }
        seen = body.total;
      }
    };
    const readers = Array.from({ length: READERS }, reader);
    const writers = Array.from({ length: WRITERS }, writer);
    try {
      await Promise.all(readers);
    } finally {
      reading = false;
      await Promise.all(writers);
    }
    expect(answers).toBe(READS * READERS);
    // The lists did run while rows arrived (else the test proves nothing).
    expect(inserted).toBeGreaterThan(WRITERS);
    return wrong;
  }

  it("products (the resource engine): every answer's rows agree with its total", async () => {
    const category = await s.api<{ id: string }>("POST", "/api/categories", {
      token,
      body: { name: "Snapshot" },
    });
    expect(category.status).toBe(201);
    const wrong = await listWhileInserting(
      `/api/products?filters=${encodeURIComponent(
        JSON.stringify([{ field: "category_id", operator: "eq", value: category.body.id }]),
      )}`,
      async (n) => {
        const res = await s.api("POST", "/api/products", {
          token,
          body: { sku_code: `SNAP-${n}`, name: `Snapshot ${n}`, price: 10, category_id: category.body.id },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      },
    );
    expect(wrong).toEqual([]);
  });

  it("CRM clients: every answer's rows agree with its total", async () => {
    const wrong = await listWhileInserting("/crm/clients", async (n) => {
      const res = await s.api("POST", "/crm/clients", {
        token,
        body: { name: `Snapshot client ${n}`, email: `snapshot.${n}@example.com` },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    });
    expect(wrong).toEqual([]);
  });

  it("store carts (a module list): every answer's rows agree with its total", async () => {
    const wrong = await listWhileInserting("/api/store/carts", (n) =>
      s.database.db
        .insertInto("store_carts")
        .values({
          source: "catalogue",
          status: "abandoned",
          currency: "INR",
          customer_name: `Cart ${n}`,
          items: "[]",
          total_minor: 0,
          item_count: 0,
        })
        .execute(),
    );
    expect(wrong).toEqual([]);
  });

  it("form submissions (a module list): every answer's rows agree with its total", async () => {
    const form = await s.api<{ id: string }>("POST", "/forms/forms", {
      token,
      body: { name: "Snapshot form", slug: "snapshot-form" },
    });
    expect(form.status).toBe(201);
    const wrong = await listWhileInserting(`/forms/forms/${form.body.id}/submissions`, (n) =>
      sql`insert into form_submissions (form_id, version, answers, tracking)
          values (${form.body.id}, 1, ${JSON.stringify({ n })}::jsonb, '{}'::jsonb)`.execute(s.database.db),
    );
    expect(wrong).toEqual([]);
  });

  it("a page past the end is empty with a total at most its offset, and the first page has every row", async () => {
    const before = await get("/api/store/carts?pageSize=1");
    const far = await get(`/api/store/carts?page=${before.total + 5}&pageSize=1`);
    expect(far.data).toEqual([]);
    expect(far.total).toBe(before.total);
    const all = await get("/api/store/carts?pageSize=200&filters=[]");
    expect(all.data.length).toBe(Math.min(200, all.total));
  });
});

describe.each(DRIVERS)("a total past the exact count's cap on %s", (driver) => {
  let s: TestServer;
  const ROWS = EXACT_COUNT_CAP + 50;

  beforeAll(async () => {
    s = await startServer(driver);
    await sql`create table snapshot_rows (id integer primary key)`.execute(s.database.db);
    await sql`insert into snapshot_rows select generate_series(1, ${ROWS})`.execute(s.database.db);
    await sql`analyze snapshot_rows`.execute(s.database.db);
  });
  afterAll(() => s?.close());

  const pageAt = (offset: number, limit: number) =>
    pageWithTotal(
      // biome-ignore lint/suspicious/noExplicitAny: a table of this test only.
      s.database.db as any,
      // biome-ignore lint/suspicious/noExplicitAny: see above.
      (s.database.db as any).selectFrom("snapshot_rows").select("id").orderBy("id"),
      { limit, offset },
    );

  it("is the planner's estimate, never fewer than the rows up to the page's end", async () => {
    const first = await pageAt(0, 10);
    expect(first.rows).toEqual(Array.from({ length: 10 }, (_, i) => ({ id: i + 1 })));
    expect(first.totalExact).toBe(false);
    expect(first.total).toBeGreaterThan(EXACT_COUNT_CAP);
    const deep = await pageAt(ROWS - 30, 10);
    expect(deep.rows.length).toBe(10);
    expect(deep.total).toBeGreaterThanOrEqual(ROWS - 20);
  });

  it("is exact on the last page (the rows end within it)", async () => {
    const last = await pageAt(ROWS - 5, 20);
    expect(last.rows.map((r: Any) => r.id)).toEqual([ROWS - 4, ROWS - 3, ROWS - 2, ROWS - 1, ROWS]);
    expect(last).toMatchObject({ total: ROWS, totalExact: true });
  });

  it("is at most an empty page's offset past the end", async () => {
    const past = await pageAt(ROWS + 1000, 10);
    expect(past.rows).toEqual([]);
    expect(past.totalExact).toBe(false);
    expect(past.total).toBeGreaterThan(EXACT_COUNT_CAP);
    expect(past.total).toBeLessThanOrEqual(ROWS + 1000);
  });
});
