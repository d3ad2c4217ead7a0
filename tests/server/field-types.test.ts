/**
 * Every field type and string format through the API, on each driver: nullable fields,
 * nullable enums and defaults, email/uri/uuid/date/date-time/time values that round-trip
 * (a day never shifts, whatever the server's time zone), bad values refused with per-field
 * messages in words, and filters and sorts over days, instants and times of day. The entity
 * is registered only here (tests/fixtures/every-field-type.ts).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCES } from "../../resources/index";
import { createTableSql } from "../../server/resources/ddl";
import { specimenSchema, specimens } from "../fixtures/every-field-type";
import { DRIVERS, startServer, type TestServer } from "./harness";

/** Runs `body` with the process (server included) in another time zone. */
async function inZone<T>(zone: string, body: () => Promise<T>): Promise<T> {
  const before = process.env.TZ;
  process.env.TZ = zone;
  try {
    return await body();
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
}

const GOOD = {
  title: "Complete",
  note: "kept",
  grade: "a",
  weight: 7,
  sealed: true,
  contact: "ada@example.com",
  homepage: "https://example.com/about?x=1",
  tracking_id: "0b7c5a3e-9d1f-4c2a-8e6b-1f2d3c4b5a69",
  born_on: "2024-03-05",
  starts_at: "2024-03-05T20:00:00+05:30",
  opens_at: "09:30",
};

type Specimen = Record<string, unknown> & { id: string };

describe.each(DRIVERS)("field types and formats on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  const create = (body: Record<string, unknown>) =>
    s.api<Specimen & { details?: { field: string; message: string }[] }>("POST", "/api/specimens", {
      token: admin,
      body,
    });
  const list = (query: string) =>
    s.api<{ data: Specimen[]; total: number; details?: unknown }>("GET", `/api/specimens?${query}`, {
      token: admin,
    });
  const filtered = (filters: unknown[], sort = "title") =>
    list(`filters=${encodeURIComponent(JSON.stringify(filters))}&sort=${sort}&pageSize=50`);
  const titles = (answer: { body: { data: Specimen[] } }) => answer.body.data.map((r) => r.title);

  beforeAll(async () => {
    s = await startServer(
      driver,
      {},
      {
        resources: [...RESOURCES, specimens],
        setupSql: createTableSql(specimenSchema, (name) => name),
      },
    );
    admin = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  it("stores each format in the column that holds it", async () => {
    const { rows } = await sql<{ column_name: string; udt_name: string; is_nullable: string }>`
      select column_name, udt_name, is_nullable from information_schema.columns
      where table_name = 'test_specimens'`.execute(s.database.db);
    const column = Object.fromEntries(rows.map((r) => [r.column_name, `${r.udt_name} ${r.is_nullable}`]));
    expect(column).toMatchObject({
      note: "text YES",
      grade: "text YES",
      weight: "int4 YES",
      sealed: "bool YES",
      contact: "text YES",
      homepage: "text YES",
      tracking_id: "uuid YES",
      born_on: "date YES",
      starts_at: "timestamptz YES",
      opens_at: "time YES",
      title: "text NO",
    });
  });

  it("round-trips good values, a day without shifting east of Greenwich", async () => {
    await inZone("Asia/Kolkata", async () => {
      const created = await create(GOOD);
      expect(created.status).toBe(201);
      const expected = {
        ...GOOD,
        starts_at: "2024-03-05T14:30:00.000Z",
        opens_at: "09:30:00",
      };
      expect(created.body).toMatchObject(expected);
      const read = await s.api<Specimen>("GET", `/api/specimens/${created.body.id}`, { token: admin });
      expect(read.body).toMatchObject(expected);

      const edges = await create({
        title: "Edges",
        note: null,
        born_on: "0001-01-01",
        starts_at: "9999-12-31T23:59:59Z",
        opens_at: "23:59:59",
      });
      expect(edges.status).toBe(201);
      expect(edges.body).toMatchObject({
        born_on: "0001-01-01",
        starts_at: "9999-12-31T23:59:59.000Z",
        opens_at: "23:59:59",
      });
      const leap = await s.api<Specimen>("PATCH", `/api/specimens/${edges.body.id}`, {
        token: admin,
        body: { born_on: "2024-02-29", opens_at: "00:00" },
      });
      expect(leap.body).toMatchObject({ born_on: "2024-02-29", opens_at: "00:00:00" });
    });
  });

  it("takes null for a nullable field, even a required one, and keeps required meaning 'sent'", async () => {
    const missing = await create({ title: "No note" });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([{ field: "note", message: "Note is required" }]);

    const nulls = await create({ title: "Nulls", note: null, grade: null, weight: null, sealed: null });
    expect(nulls.status).toBe(201);
    expect(nulls.body).toMatchObject({
      note: null,
      grade: null,
      weight: null,
      sealed: null,
      starts_at: null,
    });

    // Left out, a nullable field with a default takes the default.
    const defaulted = await create({ title: "Defaulted", note: "n" });
    expect(defaulted.body).toMatchObject({ weight: 1, grade: null });

    const id = nulls.body.id;
    const graded = await s.api<Specimen>("PATCH", `/api/specimens/${id}`, {
      token: admin,
      body: { grade: "b", note: "now set", starts_at: "2024-06-01T08:00:00Z" },
    });
    expect(graded.body).toMatchObject({ grade: "b", note: "now set", starts_at: "2024-06-01T08:00:00.000Z" });
    const cleared = await s.api<Specimen>("PATCH", `/api/specimens/${id}`, {
      token: admin,
      body: { grade: null, note: null, starts_at: null, weight: null },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ grade: null, note: null, starts_at: null, weight: null });

    const notNullable = await s.api("PATCH", `/api/specimens/${id}`, { token: admin, body: { title: null } });
    expect(notNullable.status).toBe(400);
    expect(notNullable.body.details).toEqual([{ field: "title", message: "Title must be text" }]);
  });

  it("refuses bad values with one message per field, in words", async () => {
    const bad = await create({
      title: "Bad",
      note: 5,
      grade: "c",
      weight: -1,
      contact: "ada@",
      homepage: "example.com/page",
      tracking_id: "1234",
      born_on: "2024-02-30",
      starts_at: "2024-03-05T14:30:00",
      opens_at: "09:30+01:00",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual(
      expect.arrayContaining([
        { field: "note", message: "Note must be text" },
        { field: "grade", message: "Grade must be one of Grade A (a), Grade B (b)" },
        { field: "contact", message: "Contact must be a valid email address" },
        {
          field: "homepage",
          message: "Homepage must be a full web address, such as https://example.com/page",
        },
        {
          field: "tracking_id",
          message: "Tracking ID must be a valid ID (a UUID such as 0b7c5a3e-9d1f-4c2a-8e6b-1f2d3c4b5a69)",
        },
        { field: "born_on", message: "Born on must be a real date written YYYY-MM-DD" },
        {
          field: "starts_at",
          message: "Starts at must be a date and time with its time zone, such as 2024-03-05T14:30:00Z",
        },
        {
          field: "opens_at",
          message:
            "Opens at must be a time of day written HH:MM or HH:MM:SS (00:00 to 23:59), without a time zone",
        },
      ]),
    );
    const fields = (bad.body.details ?? []).map((d) => d.field);
    expect(fields).toContain("weight");
    expect(new Set(fields).size).toBe(fields.length);

    for (const [field, value] of [
      ["born_on", "05-03-2024"],
      ["born_on", "0000-01-01"],
      ["starts_at", "0001-01-01T00:30:00+01:00"],
      ["opens_at", "24:00"],
      ["opens_at", "9:30"],
      // Past int4: named on its field by the schema, not left for the database to refuse.
      ["weight", 3_000_000_000],
    ] as const) {
      const answer = await create({ title: "Edge", note: null, [field]: value });
      expect(answer.status, `${field} = ${value}`).toBe(400);
      expect(answer.body.details?.map((d) => d.field)).toEqual([field]);
    }
  });

  describe("filters and sorts", () => {
    const ids: string[] = [];
    beforeAll(async () => {
      const rows = [
        {
          title: "F1",
          born_on: "2024-03-04",
          starts_at: "2024-03-04T23:30:00Z",
          opens_at: "08:00",
          grade: "a",
        },
        {
          title: "F2",
          born_on: "2024-03-05",
          starts_at: "2024-03-05T00:30:00Z",
          opens_at: "09:30",
          grade: "b",
        },
        { title: "F3", born_on: "2024-03-06", starts_at: "2024-03-06T12:00:00Z", opens_at: "18:15" },
      ];
      for (const row of rows)
        ids.push((await create({ ...row, note: "filter", contact: "f@example.com" })).body.id);
    });
    const onlyFilterRows = (extra: unknown[]) => [
      { field: "contact", operator: "eq", value: "f@example.com" },
      ...extra,
    ];

    it("compares days by the calendar day that was sent, west of Greenwich too", async () => {
      await inZone("America/New_York", async () => {
        const day = await filtered(
          onlyFilterRows([
            { field: "born_on", operator: "gte", value: "2024-03-05" },
            { field: "born_on", operator: "lte", value: "2024-03-05" },
          ]),
        );
        expect(day.status).toBe(200);
        expect(titles(day)).toEqual(["F2"]);
        const from = await filtered(
          onlyFilterRows([{ field: "born_on", operator: "gte", value: "2024-03-05" }]),
        );
        expect(titles(from)).toEqual(["F2", "F3"]);
      });
    });

    it("compares instants as instants", async () => {
      const range = await filtered(
        onlyFilterRows([
          { field: "starts_at", operator: "gte", value: "2024-03-05T00:00:00Z" },
          { field: "starts_at", operator: "lt", value: "2024-03-06T00:00:00Z" },
        ]),
      );
      expect(titles(range)).toEqual(["F2"]);
      // The same day seen from India starts 5½ hours earlier, and takes F1's evening in.
      const india = await filtered(
        onlyFilterRows([
          { field: "starts_at", operator: "gte", value: "2024-03-05T00:00:00+05:30" },
          { field: "starts_at", operator: "lt", value: "2024-03-06T00:00:00+05:30" },
        ]),
      );
      expect(titles(india)).toEqual(["F1", "F2"]);
    });

    it("compares times of day, and sorts by them", async () => {
      const morning = await filtered(
        onlyFilterRows([
          { field: "opens_at", operator: "gte", value: "09:00" },
          { field: "opens_at", operator: "lte", value: "12:00:00" },
        ]),
      );
      expect(titles(morning)).toEqual(["F2"]);
      const byTime = await filtered(onlyFilterRows([]), "-opens_at");
      expect(titles(byTime)).toEqual(["F3", "F2", "F1"]);
      const byDay = await filtered(onlyFilterRows([]), "-born_on");
      expect(titles(byDay)).toEqual(["F3", "F2", "F1"]);
    });

    it("finds cleared values with the null operator", async () => {
      const ungraded = await filtered(onlyFilterRows([{ field: "grade", operator: "null" }]));
      expect(titles(ungraded)).toEqual(["F3"]);
    });

    it("refuses a filter value of the wrong shape on its field", async () => {
      const badTime = await filtered([{ field: "opens_at", operator: "gte", value: "25:00" }]);
      expect(badTime.status).toBe(400);
      expect(badTime.body.details).toEqual([
        { field: "filters.opens_at", message: "Opens at must be a time of day written HH:MM or HH:MM:SS" },
      ]);
      const badDay = await filtered([{ field: "born_on", operator: "gte", value: "soon" }]);
      expect(badDay.status).toBe(400);
      expect(badDay.body.details).toEqual([{ field: "filters.born_on", message: "Born on must be a date" }]);
    });
  });
});
