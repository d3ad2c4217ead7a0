// Statements kept by shape with their values bound by name (server/db/statements.ts BoundStatements).
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from "kysely";
import { describe, expect, it } from "vitest";
import { BoundStatements, type Slots } from "../../server/db/statements";

interface Tables {
  runs: { id: string; status: string; steps: number };
}

// Compiles as PostgreSQL does; sends nothing.
const db = new Kysely<Tables>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe("BoundStatements", () => {
  it("builds a shape once and binds each call's values in the order its text asks for them", () => {
    const statements = new BoundStatements();
    let builds = 0;
    const move = (values: { id: string; status: string; steps: number }) =>
      statements.bind("move", values, (v: Slots) => {
        builds++;
        // Written in another order than the values object's: the text decides.
        return db
          .updateTable("runs")
          .set({ status: v("status"), steps: sql`steps + ${v("steps")}` })
          .where("id", "=", v<string>("id"))
          .where("status", "=", sql.lit("running"))
          .compile();
      });
    const first = move({ id: "a", status: "waiting", steps: 1 });
    const second = move({ steps: 3, id: "b", status: "finished" });
    expect(builds).toBe(1);
    expect(second.sql).toBe(first.sql);
    expect(first.sql).toContain("'running'");
    expect(first.parameters).toEqual(["waiting", 1, "a"]);
    expect(second.parameters).toEqual(["finished", 3, "b"]);
  });

  it("refuses a value written into the text instead of a slot, and a slot given no value", () => {
    const statements = new BoundStatements();
    expect(() =>
      statements.bind("baked", { id: "a" }, () =>
        db.selectFrom("runs").selectAll().where("id", "=", "a").compile(),
      ),
    ).toThrow(/binds a value that is not a slot/);
    expect(() =>
      statements.bind("missing", { id: "a" }, (v) =>
        db.selectFrom("runs").selectAll().where("status", "=", v<string>("status")).compile(),
      ),
    ).toThrow(/no value for "status"/);
  });
});
