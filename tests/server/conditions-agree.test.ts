/**
 * One condition language, two readings (ARCHITECTURE §3): the pure evaluator the browser and the
 * server share (schemas/conditions.ts) and the SQL a list filter becomes (server/http/list-query.ts)
 * pick the same records, over runtime-defined fields held in jsonb (CMS entries).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CrudFilter, matches } from "../../schemas/conditions";
import { DRIVERS, startServer, type TestServer } from "./harness";

type Rec = Record<string, unknown> & { id: string };

const PEOPLE = [
  { name: "Asha Rao", score: 42, day: "2026-11-20", vip: true },
  { name: "Bob Stone", score: 7, day: "2026-10-02", vip: false },
  { name: "asha menon", score: 99, day: "2026-12-31", vip: false },
  { name: "Chen Li", score: 42, day: "2025-01-15", vip: true },
  { name: "Dana", score: 0, day: "2026-11-21" },
];

const CASES: CrudFilter[][] = [
  [{ field: "name", operator: "eq", value: "Asha Rao" }],
  [{ field: "name", operator: "ne", value: "Asha Rao" }],
  [{ field: "name", operator: "contains", value: "ASHA" }],
  [{ field: "name", operator: "ncontains", value: "a" }],
  [{ field: "name", operator: "startswith", value: "asha" }],
  [{ field: "name", operator: "nstartswith", value: "asha" }],
  [{ field: "name", operator: "endswith", value: "LI" }],
  [{ field: "name", operator: "nendswith", value: "o" }],
  [{ field: "score", operator: "gt", value: 10 }],
  [{ field: "score", operator: "lte", value: "42" }],
  [{ field: "score", operator: "between", value: [5, 42] }],
  [{ field: "score", operator: "in", value: [0, 99] }],
  [{ field: "score", operator: "nin", value: [42] }],
  [{ field: "day", operator: "gte", value: "2026-11-20" }],
  [{ field: "day", operator: "between", value: ["2026-01-01", "2026-11-30"] }],
  [{ field: "vip", operator: "eq", value: true }],
  [{ field: "vip", operator: "null" }],
  [{ field: "vip", operator: "nnull" }],
  [{ field: "name", operator: "eq", value: "" }],
  [
    {
      operator: "or",
      value: [
        { field: "score", operator: "gte", value: 90 },
        {
          operator: "and",
          value: [
            { field: "vip", operator: "eq", value: true },
            { field: "day", operator: "lt", value: "2026-01-01" },
          ],
        },
      ],
    },
  ],
];

describe.each(DRIVERS)("conditions read alike in SQL and in the evaluator on %s", (driver) => {
  let s: TestServer;
  let token: string;
  const records: Rec[] = [];
  const call = <T = Rec>(method: string, path: string, body?: unknown) =>
    s.api<T>(method, path, { token, body });

  beforeAll(async () => {
    s = await startServer(driver);
    token = (await s.signIn()).accessToken;
    const made = await call("POST", "/cms/content-types", {
      kind: "collection",
      apiName: "person",
      name: "Person",
      properties: {
        name: { "x-kind": "text", title: "Name" },
        score: { "x-kind": "integer", title: "Score" },
        day: { "x-kind": "date", title: "Day" },
        vip: { "x-kind": "boolean", title: "VIP" },
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    for (const person of PEOPLE) {
      const res = await call("POST", "/cms/entries/person", person);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      records.push(res.body);
    }
  });
  afterAll(() => s?.close());

  it.each(CASES.map((c) => [JSON.stringify(c), c] as const))("%s", async (_, filters) => {
    const listed = await call<{ data: Rec[] }>(
      "GET",
      `/cms/entries/person?pageSize=50&filters=${encodeURIComponent(JSON.stringify(filters))}`,
    );
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const bySql = listed.body.data.map((r) => r.name).sort();
    const byEvaluator = records
      .filter((r) => matches(r, filters))
      .map((r) => r.name)
      .sort();
    expect(byEvaluator).toEqual(bySql);
  });
});
