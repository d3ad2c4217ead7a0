/**
 * Issue 12's CSV routes and field formats attacked as a hostile user and a careless admin
 * would, through real HTTP on PGlite and PostgreSQL. Each case states the right behaviour:
 * no input answers a 5xx or hangs; bad input is a 4xx in a person's words, row by row, and
 * writes nothing; the module is checked; exports escape formulas and leak nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResourceChange } from "../../server/realtime/events";
import { exportFile, importFile } from "./csv-fixtures";
import { DRIVERS, startServer, type TestServer } from "./harness";
import { hostileServerOptions, ODDITY_NOTE_MAX, sendImport } from "./hostile-issue12-fixtures";

type Rec = Record<string, unknown> & { id: string };
type List = { data: Rec[]; total: number };
const ODD = "/api/oddities";

describe.each(DRIVERS)("hostile checks of issue 12's CSV and formats on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let desks: Rec[];
  const post = async (path: string, body: unknown) => {
    const res = await s.api<Rec>("POST", path, { token: admin, body });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const all = async () =>
    (await s.api<List>("GET", `${ODD}?pageSize=200&sort=number`, { token: admin })).body.data;
  const byNumber = async (n: number) => (await all()).find((r) => r.number === n);
  const send = (body: BodyInit, type?: string) => sendImport(s, admin, ODD, body, type);
  /** Imports and expects a refusal: 400, nothing written, the errors row by row. */
  const refused = async (lines: string[] | string) => {
    const before = await all();
    const res = await importFile(s, admin, ODD, lines);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(await all()).toEqual(before);
    return res.body;
  };

  beforeAll(async () => {
    s = await startServer(driver, {}, hostileServerOptions);
    admin = (await s.signIn()).accessToken;
    const office = await post("/api/categories", { name: "Office" });
    const home = await post("/api/categories", { name: "Home" });
    // Two sub-categories with one name: a label that names two records.
    desks = [
      await post("/api/sub-categories", { name: "Desk", category_id: office.id }),
      await post("/api/sub-categories", { name: "Desk", category_id: home.id }),
    ];
    await post("/api/sub-categories", { name: '=HYPERLINK("http://evil")', category_id: office.id });
  });
  afterAll(() => s?.close());

  it("checks the token and the module on both routes, and a refused import writes nothing", async () => {
    await post("/api/users", {
      first_name: "No",
      last_name: "Catalogue",
      email: `nocat-${driver}@example.com`,
      password: "Passw0rd-123",
      role: 3,
      modules: [1],
    });
    const { accessToken } = await s.signIn(`nocat-${driver}@example.com`, "Passw0rd-123");
    const file = ["Number,Name", "900,Sneaky"];
    expect((await exportFile(s, accessToken, ODD)).status).toBe(403);
    expect((await importFile(s, accessToken, ODD, file)).status).toBe(403);
    expect((await importFile(s, accessToken, ODD, file, true)).status).toBe(403);
    expect((await importFile(s, "not-a-token", ODD, file)).status).toBe(401);
    const anonymous = await fetch(`${s.baseUrl}${ODD}/import`, {
      method: "POST",
      headers: { "content-type": "text/csv" },
      body: "Number,Name\n901,Anon\n",
    });
    expect(anonymous.status).toBe(401);
    expect(await byNumber(900)).toBeUndefined();
    expect(await byNumber(901)).toBeUndefined();
  });

  it("keeps export.csv and import apart from the record route: other methods answer 4xx", async () => {
    for (const [method, path] of [
      ["GET", `${ODD}/import`],
      ["HEAD", `${ODD}/export.csv`],
      ["PUT", `${ODD}/export.csv`],
      ["DELETE", `${ODD}/export.csv`],
      ["PATCH", `${ODD}/import`],
      ["GET", "/api/products/export.csv/"],
      ["GET", "/api/products/EXPORT.CSV"],
      ["GET", "/api/users/export.csv"],
    ] as const) {
      const res = await fetch(`${s.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${admin}` },
      });
      const text = await res.text();
      expect(res.status, `${method} ${path}: ${text}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(500);
      expect(text).not.toMatch(/password|argon|\$2[aby]\$/i);
    }
  });

  it("refuses a bad export query with a 400 before any byte, ignores paging, never answers 5xx", async () => {
    await post(ODD, { number: 10, name: "Ten" });
    await post(ODD, { number: 11, name: "Eleven" });
    const f = (field: string, operator: string, value: string) =>
      `filters=${encodeURIComponent(`[{"field":"${field}","operator":"${operator}","value":"${value}"}]`)}`;
    const bad = [
      "filters=not-json",
      f("created_by", "eq", "x"),
      f("day", "eq", "2024-13-45"),
      f("clock", "gt", "25:00"),
      f("number", "eq", "1e400"),
      f("name", "eq", "a\\u0000b"),
      "sort=created_by",
      "sort=-",
      "sort=note",
      "sort=name;drop table x",
      "q=a%00b",
      `q=${"x".repeat(201)}`,
      "nope=1",
    ];
    for (const query of bad) {
      const file = await exportFile(s, admin, ODD, query);
      expect(file.status, `${query}: ${file.text}`).toBe(400);
      expect(JSON.parse(file.text).details?.length, query).toBeGreaterThan(0);
    }
    // Paging is ignored: every matching row, whatever page was asked for.
    const whole = (await exportFile(s, admin, ODD)).rows.length;
    expect(whole).toBe(3);
    for (const query of ["page=3&pageSize=1", "pageSize=200", "sort=-number,name,-number"]) {
      const file = await exportFile(s, admin, ODD, query);
      expect(file.status, `${query}: ${file.text}`).toBe(200);
      expect(file.rows.length, query).toBe(whole);
    }
    expect((await exportFile(s, admin, ODD, "q=%25_\\")).status).toBe(200);
  });

  it("escapes formulas on export, also after leading spaces, and reads them back unchanged", async () => {
    const notes = [
      "=1+1",
      "+cmd|' /C calc'!A0",
      "-2+3",
      "@SUM(A1)",
      "\t=1",
      "\r=1",
      "  =1+1",
      "'=x",
      "-5",
      "x=1",
    ];
    for (const [i, note] of notes.entries()) {
      await post(ODD, { number: 100 + i, name: `Formula ${i}`, note, sub_category_id: null });
    }
    const [plain] = (await s.api<List>("GET", "/api/sub-categories?q=HYPERLINK", { token: admin })).body.data;
    await post(ODD, { number: 120, name: "@evil", sub_category_id: plain.id });
    const file = await exportFile(
      s,
      admin,
      ODD,
      `filters=${encodeURIComponent('[{"field":"number","operator":"between","value":[100,120]}]')}`,
    );
    expect(file.status).toBe(200);
    const col = (title: string) => file.rows[0].indexOf(title);
    const notesOut = file.rows.slice(1, -1).map((r) => r[col("Note")]);
    expect(notesOut).toEqual([
      "'=1+1",
      "'+cmd|' /C calc'!A0",
      "'-2+3",
      "'@SUM(A1)",
      "'\t=1",
      "'\r=1",
      "'  =1+1",
      "''=x",
      "-5",
      "x=1",
    ]);
    const last = file.rows[file.rows.length - 1];
    expect(last[col("Name")]).toBe("'@evil");
    expect(last[col("Sub-category")]).toBe(`'=HYPERLINK("http://evil")`);
    // The file as downloaded, imported again: nothing changes, every value reads back.
    const before = await all();
    const again = await importFile(s, admin, ODD, file.text);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ created: 0, errors: [] });
    const after = await all();
    expect(after.map(({ updated_at, ...r }) => r)).toEqual(before.map(({ updated_at, ...r }) => r));
  });

  it("exports only the writable fields: no audit columns, no IDs of a keyed resource", async () => {
    const file = await exportFile(s, admin, ODD);
    expect(file.rows[0]).toEqual([
      "Number",
      "Name",
      "Note",
      "E-mail",
      "Site",
      "Token",
      "Day",
      "At",
      "Clock",
      "Ratio",
      "Free",
      "OK",
      "Level",
      "Sub-category",
    ]);
    const products = await exportFile(s, admin, "/api/products");
    expect(products.rows[0].join(",")).not.toMatch(/created|updated|^ID,/i);
  });

  it("reads cells as a spreadsheet writes them: spaces, exponents, yes/TRUE/1, labels, D-M-YYYY, 9:30", async () => {
    const res = await importFile(s, admin, ODD, [
      "Number,Name,Ratio,Free,OK,Level,Day,At,Clock,Token,E-mail,Sub-category",
      ` 200 ,Spacey,1e3, 12 ,yes,HIGH,5-3-2024,2024-03-05 14:30,9:30,${desks[0].id.toUpperCase()},a@b.example,${desks[1].id}`,
      "201,Shouty,-0.5,0,TRUE,High,29-02-2024,05-03-2024 14:30:15,23:59:59,,,",
      "202,Binary,,,1,low,2024-02-29,,,,,",
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ created: 3, updated: 0 });
    expect(await byNumber(200)).toMatchObject({
      ratio: 1000,
      free: 12,
      ok: true,
      level: "high",
      day: "2024-03-05",
      at: "2024-03-05T14:30:00.000Z",
      clock: "09:30:00",
      token: desks[0].id,
      sub_category_id: desks[1].id,
    });
    expect(await byNumber(201)).toMatchObject({
      ratio: -0.5,
      free: 0,
      day: "2024-02-29",
      at: "2024-03-05T14:30:15.000Z",
    });
    expect(await byNumber(202)).toMatchObject({ ok: true, day: "2024-02-29", token: null, at: null });
    // Empty cells on an existing record: nullable fields cleared, a default restored.
    const cleared = await importFile(s, admin, ODD, [
      "Number,Ratio,Free,OK,Level,Day,Token,Sub-category",
      "200,,,,,,,",
    ]);
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(await byNumber(200)).toMatchObject({
      ratio: null,
      free: null,
      ok: null,
      level: "low",
      day: null,
      token: null,
      sub_category_id: null,
    });
  });

  it("refuses bad cells row by row in a person's words, keys that are not keys included", async () => {
    const body = await refused([
      "Number,Name,Ratio,Free,OK,Level,Day,At,Clock,Token,E-mail,Site,Sub-category",
      '300,Comma,"1,5",,,,,,,,,,',
      "301,Huge,,1e400,,,,,,,,,",
      "302,Bool,,,ja,medium,31-02-2024,yesterday,25:00,nope,not-an-email,not a uri,Desk",
      `303,Missing,,,,,,,,,,,${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}`,
      "abc,Not a number key,,,,,,,,,,,",
      "99999999999,Too big a key,,,,,,,,,,,",
      "1.5,Half a key,,,,,,,,,,,",
      "304,,,,,,,,,,,,",
      "305,Dup,,,,,,,,,,,",
      "305,Dup again,,,,,,,,,,,",
    ]);
    const errors = body.errors.map((e) => `${e.row} ${e.field}: ${e.message}`);
    expect(errors).toEqual([
      "2 Ratio: Ratio must be a number",
      "3 Free: Free must be a number",
      "4 Sub-category: 2 sub-category records are named 'Desk'; write the ID of the one you mean",
      "4 E-mail: E-mail must be a valid email address",
      "4 Site: Site must be a full web address, such as https://example.com/page",
      "4 Token: Token must be a valid ID (a UUID such as 0b7c5a3e-9d1f-4c2a-8e6b-1f2d3c4b5a69)",
      "4 Day: Day must be a real date written YYYY-MM-DD",
      "4 At: At must be a date and time with its time zone, such as 2024-03-05T14:30:00Z",
      "4 Clock: Clock must be a time of day written HH:MM or HH:MM:SS (00:00 to 23:59), without a time zone",
      "4 OK: OK must be true or false",
      "4 Level: Level must be one of low, high",
      "5 Sub-category: No sub-category has the name or ID '00000000-0000-4000-8000-000000000000'",
      "6 Number: Number must be a whole number",
      "7 Number: Number must be 1,000,000 or less",
      "8 Number: Number must be a whole number",
      "9 Name: Name is required",
      "11 Number: Number repeats row 10: a file may hold each oddity once",
    ]);
    for (const e of body.errors) expect(e.message).not.toMatch(/must match|pattern|\/properties|#\/|^[a-z]/);
  });

  it("survives CSV oddities: BOM, CRLF, quoted newlines, semicolons, trailing commas, odd headers", async () => {
    const ok = await importFile(
      s,
      admin,
      ODD,
      '\ufeffNumber;Name;Note\r\n400;"Two\r\nlines";"a;b"\r\n\r\n401;Semi;\r\n',
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await byNumber(400)).toMatchObject({ name: "Two\r\nlines", note: "a;b" });
    // Row numbers as a spreadsheet shows them: the quoted line break is one row.
    const late = await refused(["Number,Name", '402,"a\nb"', "403,"]);
    expect(late.errors).toEqual([{ row: 3, field: "Name", message: "Name is required" }]);
    const cases: Array<[string, RegExp]> = [
      ["Number,Name,name\n1,a,b\n", /Name|name/],
      ["Number,,Name\n1,,a\n", /Column 2/],
      ["Number,Name\n", /no rows/],
      ["Number,Name\n,\n,,\n", /no rows/],
      ["Number,Name,Colour\n1,a,red\n", /Colour/],
      ["Number,Name,Created at\n1,a,2024-01-01\n", /Created at/],
      ["ID,Number,Name\n,1,a\n", /ID/],
      ['Number,Name\n1,"never closed\n', /never closed/],
      ["", /empty/],
      ["\ufeff", /empty/],
      ["Number,Name\n1,a,b,c\n", /cells/],
    ];
    for (const [text, pattern] of cases) {
      const res = await send(text);
      expect(res.status, `${JSON.stringify(text)}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(JSON.stringify(res.body), JSON.stringify(text)).toMatch(pattern);
    }
  });

  it("refuses bytes that are not a UTF-8 text file, NUL characters and huge cells, writing nothing", async () => {
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
    expect((await send(garbage)).status).toBe(400);
    const latin1 = Buffer.concat([
      Buffer.from("Number,Name\n500,Caf"),
      Buffer.from([0xe9]),
      Buffer.from("\n"),
    ]);
    const notUtf8 = await send(latin1);
    expect(notUtf8.status).toBe(400);
    expect(notUtf8.body.message).toMatch(/UTF-8/);
    expect(await byNumber(500)).toBeUndefined();
    // NUL in a plain cell, in the key, in a relation cell: the file is refused before any row
    // is read (the platform's guard on every body), never a database error.
    const nul = await refused([
      "Number,Name,Sub-category",
      "501,a\u0000b,",
      "5\u000002,c,",
      "503,d,De\u0000sk",
    ]);
    expect(nul.message).toMatch(/NUL/);
    // A cell far longer than its field: refused on its field, and the message does not echo it.
    const long = "x".repeat(1_000_000);
    const huge = await refused(["Number,Name,Note,Sub-category", `504,ok,${long},`, `505,ok2,,${long}`]);
    expect(huge.errors.map((e) => [e.row, e.field])).toEqual([
      [2, "Note"],
      [3, "Sub-category"],
    ]);
    expect(huge.errors[0].message).toBe(
      `Note must be at most ${ODDITY_NOTE_MAX.toLocaleString("en-US")} characters`,
    );
    expect(JSON.stringify(huge).length).toBeLessThan(2000);
  });

  it("refuses a body over 20 MB with 413 and a file over 50,000 rows with 400", async () => {
    const big = Buffer.alloc(20 * 1024 * 1024 + 1, 0x61);
    big.write("Number,Name\n1,", 0);
    const tooBig = await send(big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toMatch(/large|MB|size/i);
    const rows = Array.from({ length: 50_001 }, (_, i) => `${i + 1},n${i}`);
    const tooMany = await send(`Number,Name\n${rows.join("\n")}\n`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/50,001 rows; at most 50,000/);
    const wrongType = await send("Number,Name\n1,a\n", "application/vnd.ms-excel");
    expect(wrongType.status).toBe(415);
  });

  it("writes nothing and publishes nothing when a late row fails, or on a dry run", async () => {
    const seen: ResourceChange[] = [];
    const stop = s.ctx.events.subscribe((change) => {
      if (change.resource === "oddities") seen.push(change);
    });
    try {
      await post(ODD, { number: 600, name: "Taken" });
      // 700 rows: the first chunk of 500 is written, then row 690 breaks the second unique key.
      const rows = Array.from({ length: 700 }, (_, i) => `${1000 + i},Bulk ${i}`);
      rows[688] = "1688,Taken";
      const late = await refused(["Number,Name", ...rows]);
      expect(late.errors).toEqual([
        { row: 690, field: "Name", message: expect.stringMatching(/already|exists|taken/i) },
      ]);
      expect(late).toMatchObject({ created: 0, updated: 0 });
      const dry = await importFile(s, admin, ODD, ["Number,Name", ...rows.slice(0, 600)], true);
      expect(dry.status).toBe(200);
      expect(dry.body).toMatchObject({ created: 600, updated: 0, errors: [] });
      expect(await byNumber(1000)).toBeUndefined();
      // Only the one record posted above was announced.
      expect(seen.map(({ type, ids }) => ({ type, n: ids.length }))).toEqual([{ type: "created", n: 1 }]);
    } finally {
      stop();
    }
  });

  it("answers parallel imports of the same new keys with one record each and never a 5xx", async () => {
    const file = ["Number,Name", ...Array.from({ length: 50 }, (_, i) => `${2000 + i},Race ${i}`)];
    const answers = await Promise.all([1, 2, 3].map(() => importFile(s, admin, ODD, file)));
    for (const a of answers) expect([200, 400], JSON.stringify(a.body)).toContain(a.status);
    const raced = (await s.api<List>("GET", `${ODD}?q=Race&pageSize=200`, { token: admin })).body;
    expect(raced.total).toBe(50);
  });
});
