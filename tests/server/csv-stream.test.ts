/**
 * The CSV export streams: 100,000 rows come out whole and in the list's order (mixed sort
 * directions, empty values, ties down to the microsecond), chunk by chunk, and the database
 * is free for other requests while a download waits. Its memory is measured by
 * bench/csv-export.ts (a figure, not a test).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvServerOptions, exportFile } from "./csv-fixtures";
import { DRIVERS, startServer, type TestServer } from "./harness";

const ROWS = 100_000;

describe.each(DRIVERS)("a 100,000-row CSV export on %s", (driver) => {
  let s: TestServer;
  let admin: string;

  beforeAll(async () => {
    s = await startServer(driver, {}, csvServerOptions);
    admin = (await s.signIn()).accessToken;
    // Weights repeat (and 1 in 7 is empty), days repeat (1 in 5 empty), and rows share their
    // updated_at three by three, one microsecond apart from the next three: every key of the
    // keyset meets ties, nulls and sub-millisecond differences.
    await sql`
      insert into csv_gadgets (title, weight, made_on, kind, price, updated_at)
      select 'G' || lpad(i::text, 6, '0'),
             case when i % 7 = 0 then null else (i * 37) % 101 - 50 end,
             case when i % 5 = 0 then null else date '2024-01-01' + (i % 30) end,
             case when i % 3 = 0 then 'b' else 'a' end,
             (i % 1000) / 100.0,
             timestamptz '2024-01-01 00:00:00+00' + make_interval(secs => (i / 3) / 1000000.0)
      from generate_series(1, ${ROWS}) as i`.execute(s.database.db);
  });
  afterAll(() => s?.close());

  const expectedTitles = async (orderBy: string, where = "true") =>
    (
      await sql<{
        title: string;
      }>`select title from csv_gadgets where ${sql.raw(where)} order by ${sql.raw(orderBy)}`.execute(
        s.database.db,
      )
    ).rows.map((r) => r.title);

  it("exports every row once, in the list's order, across mixed directions and empty values", async () => {
    const file = await exportFile(s, admin, "/api/gadgets", "sort=-weight,made_on");
    expect(file.status).toBe(200);
    expect(file.headers.get("content-length")).toBeNull(); // streamed, not built whole
    const titles = file.rows.slice(1).map((r) => r[0]);
    expect(titles.length).toBe(ROWS);
    expect(titles).toEqual(await expectedTitles("weight desc, made_on asc, id asc"));
  });

  it("keeps microsecond ties apart, with a filter", async () => {
    const filters = encodeURIComponent(JSON.stringify([{ field: "kind", operator: "eq", value: "a" }]));
    const file = await exportFile(s, admin, "/api/gadgets", `sort=-updated_at&filters=${filters}`);
    const titles = file.rows.slice(1).map((r) => r[0]);
    const expected = await expectedTitles("updated_at desc, id asc", "kind = 'a'");
    expect(titles.length).toBe(expected.length);
    expect(titles).toEqual(expected);
  });

  it("leaves the database free for other requests while a download waits", async () => {
    const res = await fetch(`${s.baseUrl}/api/gadgets/export.csv?sort=title`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    // The client reads no further; the server must still answer everything else.
    const list = await s.api<{ total: number }>("GET", "/api/gadgets?pageSize=1", { token: admin });
    expect(list.status).toBe(200);
    const created = await s.api("POST", "/api/gadgets", { token: admin, body: { title: "During export" } });
    expect(created.status).toBe(201);
    await reader.cancel();
  });
});
