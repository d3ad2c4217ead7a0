/**
 * The statements every request sends run as named prepared statements on PostgreSQL
 * (server/db/prepared.ts): parsed once per connection, and sent unnamed again on a connection
 * whose prepared form went stale (a column added by another instance's migration) or is gone;
 * on PGlite too (server/db/pglite-dialect.ts), prepared again once stale.
 */
import { PGlite } from "@electric-sql/pglite";
import { CompiledQuery, Kysely, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PGliteDialect } from "../../server/db/pglite-dialect";
import { PreparingClient, prepareStatement } from "../../server/db/prepared";
import { createTestDatabase, type TestDatabase } from "./pg";

const pgUrl = inject("pgUrl");

describe.skipIf(!pgUrl)("prepared statements on PostgreSQL", () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await createTestDatabase(pgUrl as string);
    pool = new pg.Pool({ connectionString: database.url, max: 1, Client: PreparingClient });
    await pool.query("create table gadgets (id int primary key, title text not null)");
    await pool.query("insert into gadgets values (1, 'one'), (2, 'two')");
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  /** The prepared statements of the pool's one connection, by their text. */
  const preparedTexts = async () =>
    (await pool.query<{ statement: string }>("select statement from pg_prepared_statements")).rows.map(
      (r) => r.statement,
    );

  it("prepares a marked statement once and sends others unnamed", async () => {
    const text = "select * from gadgets where id = $1";
    prepareStatement(text);
    expect((await pool.query(text, [1])).rows).toEqual([{ id: 1, title: "one" }]);
    expect((await pool.query(text, [2])).rows).toEqual([{ id: 2, title: "two" }]);
    await pool.query("select title from gadgets where id = $1", [1]);
    expect(await preparedTexts()).toEqual([text]);
  });

  it("reads a named statement's every answer as its first (parsers kept per connection)", async () => {
    const text = "select $1::jsonb as doc, $2::timestamptz as at, $3::int as n, $4::text as note";
    prepareStatement(text);
    const at = "2026-11-29T04:05:06.789Z";
    for (const [doc, n, note] of [
      [{ a: 1 }, 1, "x"],
      [{ b: [2] }, null, null],
      [[3], 3, "z"],
    ] as const)
      expect((await pool.query(text, [JSON.stringify(doc), at, n, note])).rows).toEqual([
        { doc, at: new Date(at), n, note },
      ]);
  });

  it("answers with the new column once its table changed, instead of failing", async () => {
    const text = "select * from gadgets where id = $1";
    await pool.query(text, [1]);
    // As a migration of another instance would, on another connection.
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    await other.query("alter table gadgets add column weight int");
    await other.end();
    expect((await pool.query(text, [1])).rows).toEqual([{ id: 1, title: "one", weight: null }]);
    expect((await pool.query(text, [2])).rows).toEqual([{ id: 2, title: "two", weight: null }]);
  });

  it("answers when the server forgot the statement (as behind a pooler in transaction mode)", async () => {
    const text = "select title from gadgets where id = $1";
    prepareStatement(text);
    expect((await pool.query(text, [1])).rows).toEqual([{ title: "one" }]);
    await pool.query("deallocate all");
    expect((await pool.query(text, [2])).rows).toEqual([{ title: "two" }]);
  });

  it("still reports a statement's own errors", async () => {
    const text = "insert into gadgets (id, title) values ($1, $2) returning *";
    prepareStatement(text);
    expect((await pool.query(text, [3, "three"])).rows).toEqual([{ id: 3, title: "three", weight: null }]);
    await expect(pool.query(text, [3, "again"])).rejects.toMatchObject({ code: "23505" });
  });

  it("hands a list statement's instants over as PostgreSQL's text, others' as Dates", async () => {
    const at = "select $1::timestamptz as at, $2::int as n";
    const asText = `${at} -- listed`;
    prepareStatement(asText, { instantsAsText: true });
    const value = "2026-11-29T04:05:06.789Z";
    expect((await pool.query(asText, [value, 1])).rows).toEqual([{ at: "2026-11-29 04:05:06.789+00", n: 1 }]);
    expect((await pool.query(at, [value, 1])).rows).toEqual([{ at: new Date(value), n: 1 }]);
  });

  it("sends unnamed statements itself too: rows, counts and errors as pg's own", async () => {
    // The client builds their Query as for named ones (its rows kept in a young array).
    const client = await pool.connect();
    try {
      const text = "select id, title from gadgets where id = any($1::int[]) order by id";
      expect((await client.query(text, [[1, 2, 3]])).rows).toEqual([
        { id: 1, title: "one" },
        { id: 2, title: "two" },
        { id: 3, title: "three" },
      ]);
      // With a callback, as pg.Pool#query calls it (the pool's one connection is held here).
      const viaCallback = await new Promise<pg.QueryResult>((resolve, reject) =>
        client.query(text, [[2]], (error, result) => (error ? reject(error) : resolve(result))),
      );
      expect(viaCallback.rows).toEqual([{ id: 2, title: "two" }]);
      expect((await client.query("update gadgets set weight = $1 where id < $2", [7, 3])).rowCount).toBe(2);
      await expect(client.query("select nope from gadgets where id = $1", [1])).rejects.toMatchObject({
        code: "42703",
      });
      expect(
        (await client.query("select count(*)::int as n from gadgets where weight = $1", [7])).rows,
      ).toEqual([{ n: 2 }]);
    } finally {
      client.release();
    }
  });
});

describe("prepared statements on PGlite", () => {
  let pglite: PGlite;
  let db: Kysely<Record<string, Record<string, unknown>>>;
  beforeAll(async () => {
    pglite = await PGlite.create("memory://");
    db = new Kysely({ dialect: new PGliteDialect(pglite) });
    await sql`create table widgets (id int primary key, title text not null, at timestamptz, tags jsonb, codes text[])`.execute(
      db,
    );
  });
  afterAll(async () => {
    await db?.destroy();
    await pglite?.close();
  });

  const run = (text: string, params: unknown[]) => db.executeQuery(CompiledQuery.raw(text, params));
  const preparedTexts = async () =>
    (await pglite.query<{ statement: string }>("select statement from pg_prepared_statements")).rows.map(
      (r) => r.statement,
    );

  it("prepares a marked statement once, with values and rows as PGlite's own query has them", async () => {
    const insert = "insert into widgets (id, title, at, tags, codes) values ($1, $2, $3, $4, $5) returning *";
    prepareStatement(insert);
    const at = new Date("2026-11-29T04:05:06.789Z");
    const values = [1, "one", at, JSON.stringify({ a: [1, "x"] }), ["p", "q r"]];
    const named = (await run(insert, values)).rows;
    const plain = (await pglite.query(insert, [2, ...values.slice(1)])).rows;
    expect(named).toEqual([{ ...(plain[0] as object), id: 1 }]);
    expect(named[0]).toMatchObject({ at, tags: { a: [1, "x"] }, codes: ["p", "q r"] });
    await run(insert, [3, "three", null, null, null]);
    expect(await preparedTexts()).toEqual([insert]);
  });

  it("answers with the new column once its table changed, and prepares it again", async () => {
    const text = "select * from widgets where id = $1";
    prepareStatement(text);
    expect((await run(text, [1])).rows).toMatchObject([{ id: 1, title: "one" }]);
    await sql`alter table widgets add column weight int`.execute(db);
    expect((await run(text, [1])).rows).toMatchObject([{ id: 1, title: "one", weight: null }]);
    expect((await run(text, [3])).rows).toMatchObject([{ id: 3, title: "three", weight: null }]);
  });

  it("reports a statement's own errors, and the connection goes on", async () => {
    const text = "update widgets set id = $2 where id = $1 returning id";
    prepareStatement(text);
    await expect(run(text, [3, 1])).rejects.toMatchObject({ code: "23505" });
    await db.transaction().execute(async (trx) => {
      expect((await trx.executeQuery(CompiledQuery.raw(text, [3, 4]))).rows).toEqual([{ id: 4 }]);
      expect((await trx.executeQuery(CompiledQuery.raw(text, [4, 5]))).numAffectedRows).toBe(1n);
    });
    expect((await run("select * from widgets where id = $1", [5])).rows).toHaveLength(1);
  });

  it("gives the event loop a turn while statements follow one another for long", async () => {
    // A chain of statements with no wait of its own between them, as a busy job queue sends:
    // PGlite answers within the call, so without the dialect's turns nothing else would run
    // (no connection or request taken in) until the chain ended.
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    let statementsBeforeTurn = 0;
    for (let i = 0; i < 2000 && !turned; i++) {
      await run("select $1::int as n", [i]);
      statementsBeforeTurn++;
    }
    expect(turned).toBe(true);
    expect(statementsBeforeTurn).toBeLessThan(2000);
  });
});
