/**
 * insertRows (server/db/insert-rows.ts): many rows in one statement whose text is the same for
 * any number of them, so it runs prepared, on both databases. Rows keep their order, values
 * their types; a jsonb column's null is JSON null; a lone surrogate becomes U+FFFD as a text
 * parameter's does. On PGlite every statement with values runs prepared (pglite-dialect.ts),
 * the least recently used let go past the connection's bound. Inserts gathered in an Inserts go
 * as one statement.
 */
import { PGlite } from "@electric-sql/pglite";
import { CompiledQuery, Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Inserts, insertRows } from "../../server/db/insert-rows";
import { PGliteDialect } from "../../server/db/pglite-dialect";
import { PreparingClient } from "../../server/db/prepared";
import { createTestDatabase, type TestDatabase } from "./pg";

const pgUrl = inject("pgUrl");
type Db = Kysely<Record<string, Record<string, unknown>>>;

const COLUMNS = {
  id: "uuid",
  title: "text",
  n: "integer",
  done: "boolean",
  doc: "jsonb",
  at: "timestamptz",
} as const;
const ID = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;

/** The same checks on each database: `db` has an empty `things` table of COLUMNS' columns. */
function behaves(open: () => { db: Db; prepared: () => Promise<string[]> }) {
  it("inserts any number of rows, in order, by one text run prepared", async () => {
    const { db, prepared } = open();
    const rows = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({
        id: ID(from + i),
        title: `thing ${from + i}`,
        n: from + i,
        done: i % 2 === 0,
        doc: { tags: ["a", `b${i}`], nested: { quote: 'say "hi"\\' } },
        at: new Date(Date.UTC(2026, 10, 29, 4, 5, i)),
      }));
    const tail = "returning id, n, doc, at";
    const first = await db.executeQuery(insertRows("things", COLUMNS, rows(1, 3), tail));
    const second = await db.executeQuery(insertRows("things", COLUMNS, rows(4, 40), tail));
    expect(first.rows.map((r) => (r as { n: number }).n)).toEqual([1, 2, 3]);
    expect(second.rows.map((r) => (r as { n: number }).n)).toEqual(
      Array.from({ length: 40 }, (_, i) => 4 + i),
    );
    expect(first.rows[1]).toEqual({
      id: ID(2),
      n: 2,
      doc: { tags: ["a", "b1"], nested: { quote: 'say "hi"\\' } },
      at: new Date(Date.UTC(2026, 10, 29, 4, 5, 1)),
    });
    const texts = (await prepared()).filter((t) => t.startsWith('insert into "things"'));
    expect(texts).toHaveLength(1);
  });

  it("writes JSON null for a jsonb null, SQL null elsewhere, and U+FFFD for a lone surrogate", async () => {
    const { db } = open();
    await db.executeQuery(
      insertRows("things", COLUMNS, [
        { id: ID(100), title: "broken \ud83d emoji", n: null, done: null, doc: null },
      ]),
    );
    const row = (
      await sql<
        Record<string, unknown>
      >`select title, n, done, doc, doc is null as sql_null, at from things where id = ${ID(100)}`.execute(db)
    ).rows[0];
    expect(row).toEqual({
      title: "broken \ufffd emoji",
      n: null,
      done: null,
      doc: null,
      sql_null: false,
      at: null,
    });
  });

  it("runs its tail: a conflict skipped answers nothing for that row", async () => {
    const { db } = open();
    const { rows } = await db.executeQuery(
      insertRows(
        "things",
        COLUMNS,
        [
          { id: ID(1), title: "again" },
          { id: ID(101), title: "new" },
        ],
        "on conflict (id) do nothing returning title",
      ),
    );
    expect(rows).toEqual([{ title: "new" }]);
  });

  it("sends inserts gathered in Inserts as one statement, prepared, a foreign key between them checked at its end", async () => {
    const { db, prepared } = open();
    const together = new Inserts();
    // The part that names a row goes first: its row is checked only at the statement's end.
    together.add(
      insertRows("thing_notes", NOTE_COLUMNS, [{ id: ID(301), thing_id: ID(300), note: "first" }]),
    );
    together.add(insertRows("things", COLUMNS, [{ id: ID(300), title: "noted", n: 300 }]));
    await together.send(db);
    const { rows } = await sql<{ title: string; note: string }>`
      select t.title, n.note from things t join thing_notes n on n.thing_id = t.id where t.id = ${ID(300)}`.execute(
      db,
    );
    expect(rows).toEqual([{ title: "noted", note: "first" }]);
    expect(
      (await prepared()).filter((t) => t.startsWith('with "together_0" as (insert into "thing_notes"')),
    ).toHaveLength(1);
    // Sent: nothing is left to send again.
    await together.send(db);
    // A note naming no thing fails the whole statement: neither row is written.
    const broken = new Inserts();
    broken.add(insertRows("things", COLUMNS, [{ id: ID(302), title: "orphan's thing" }]));
    broken.add(insertRows("thing_notes", NOTE_COLUMNS, [{ id: ID(303), thing_id: ID(399), note: "orphan" }]));
    await expect(broken.send(db)).rejects.toThrow(/foreign key/);
    const left = await sql<{
      n: number;
    }>`select count(*)::int as n from things where id = ${ID(302)}`.execute(db);
    expect(left.rows[0].n).toBe(0);
    // Only insertRows statements (one parameter, $1) go together.
    expect(() =>
      together.add(CompiledQuery.raw("delete from things where id = $1 or id = $2", [ID(1), ID(2)])),
    ).toThrow(/only statements of insertRows/);
  });
}

const NOTE_COLUMNS = { id: "uuid", thing_id: "uuid", note: "text" } as const;

const DDL = `create table things (id uuid primary key, title text, n int, done boolean, doc jsonb, at timestamptz);
  create table thing_notes (id uuid primary key, thing_id uuid not null references things (id), note text)`;

describe.skipIf(!pgUrl)("insertRows on PostgreSQL", () => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase(pgUrl as string);
    // One connection: its prepared statements are the ones looked at.
    const pool = new pg.Pool({ connectionString: database.url, max: 1, Client: PreparingClient });
    db = new Kysely({ dialect: new PostgresDialect({ pool }) });
    await sql.raw(DDL).execute(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });
  behaves(() => ({
    db,
    prepared: async () =>
      (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)).rows.map(
        (r) => r.statement,
      ),
  }));
});

describe("insertRows on PGlite", () => {
  let pglite: PGlite;
  let db: Db;
  beforeAll(async () => {
    pglite = await PGlite.create("memory://");
    db = new Kysely({ dialect: new PGliteDialect(pglite) });
    await sql.raw(DDL).execute(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await pglite?.close();
  });
  const prepared = async () =>
    (await pglite.query<{ statement: string }>("select statement from pg_prepared_statements")).rows.map(
      (r) => r.statement,
    );
  behaves(() => ({ db, prepared }));

  it("runs every statement with values prepared, letting the least recently used go past its bound", async () => {
    const kept = "select title from things where id = $1";
    await db.executeQuery(CompiledQuery.raw(kept, [ID(1)]));
    expect(await prepared()).toContain(kept);
    // Six hundred texts more, the kept one used between them: it stays, the oldest go.
    for (let i = 0; i < 600; i++) {
      await db.executeQuery(CompiledQuery.raw(`select $1::int + ${i} as n`, [i]));
      if (i % 100 === 0) await db.executeQuery(CompiledQuery.raw(kept, [ID(2)]));
    }
    const texts = await prepared();
    expect(texts.length).toBeLessThanOrEqual(500);
    expect(texts).toContain(kept);
    expect(texts).toContain("select $1::int + 599 as n");
    expect(texts).not.toContain("select $1::int + 0 as n");
    expect((await db.executeQuery(CompiledQuery.raw("select $1::int + 0 as n", [1]))).rows).toEqual([
      { n: 1 },
    ]);
  });
});
