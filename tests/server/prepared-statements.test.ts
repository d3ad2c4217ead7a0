/**
 * The statements every request sends run as named prepared statements on PostgreSQL
 * (server/db/prepared.ts): parsed once per connection, and sent unnamed again on a connection
 * whose prepared form went stale (a column added by another instance's migration) or is gone.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
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
});
