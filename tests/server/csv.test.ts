/**
 * CSV export and import for every resource, from its schema (issue 12), on a throwaway entity
 * with a field of every kind. The catalogue's resources (relations by label, an ID-keyed
 * resource, one without a generic create route) are csv-catalogue.test.ts; the 100,000-row
 * export is csv-stream.test.ts.
 */
import { stringify } from "csv-stringify/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResourceChange } from "../../server/realtime/events";
import { csvServerOptions, exportFile, importFile } from "./csv-fixtures";
import { DRIVERS, startServer, type TestServer } from "./harness";

type Rec = Record<string, unknown> & { id: string };
type List = { data: Rec[]; total: number };
type Err = { row: number; field: string; message: string };
const byRowAndField = (a: Err, b: Err) => a.row - b.row || a.field.localeCompare(b.field);
const csv = (rows: string[][]) => stringify(rows);

describe.each(DRIVERS)("CSV for every resource on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let lamps: Rec;
  const post = async (path: string, body: unknown) => {
    const res = await s.api<Rec>("POST", path, { token: admin, body });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const gadgetNamed = async (title: string) =>
    (
      await s.api<List>("GET", `/api/gadgets?q=${encodeURIComponent(title)}`, { token: admin })
    ).body.data.find((g) => g.title === title);
  const count = async (path: string) =>
    (await s.api<List>("GET", `${path}?pageSize=1`, { token: admin })).body.total;

  beforeAll(async () => {
    s = await startServer(driver, {}, csvServerOptions);
    admin = (await s.signIn()).accessToken;
    lamps = await post("/api/categories", { name: "Lamps" });
    await post("/api/gadgets", {
      title: "Anvil",
      note: '=HYPERLINK("http://evil.example","click")',
      weight: -5,
      price: 12.5,
      in_stock: false,
      kind: "a",
      made_on: "2024-02-29",
      checked_at: "2024-03-05T14:30:00+05:30",
      photos: ["https://img.example/a.jpg", "https://img.example/b.jpg"],
      category_id: lamps.id,
    });
    await post("/api/gadgets", { title: "Bolt", note: "-5", weight: 20, price: 3, kind: "b" });
    await post("/api/gadgets", { title: "Cog", note: "+1 spare" });
  });
  afterAll(() => s?.close());

  const anvilCells = [
    "Anvil",
    `'=HYPERLINK("http://evil.example","click")`,
    "-5",
    "12.50",
    "false",
    "a",
    "2024-02-29",
    "2024-03-05T09:00:00.000Z",
    "https://img.example/a.jpg | https://img.example/b.jpg",
    "Lamps",
  ];

  it("exports in the list's order: titles as headers, ISO dates, labels, escaped formulas, a BOM", async () => {
    const file = await exportFile(s, admin, "/api/gadgets", "sort=-weight");
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(file.headers.get("content-disposition")).toBe('attachment; filename="gadgets.csv"');
    // A BOM, so that Excel reads UTF-8 (fetch's text() drops it: read the bytes).
    expect([...file.bytes.subarray(0, 9)]).toEqual([0xef, 0xbb, 0xbf, ...Buffer.from("Title,")]);
    expect(file.rows).toEqual([
      ["Title", "Note", "Weight", "Price", "In stock", "Kind", "Made on", "Checked at", "Photos", "Category"],
      // Descending puts empty weights first, as the list does.
      ["Cog", "'+1 spare", "", "", "true", "", "", "", "", ""],
      // "-5" in a text field is a number to a spreadsheet, not a formula: left alone.
      ["Bolt", "-5", "20", "3.00", "true", "b", "", "", "", ""],
      anvilCells,
    ]);
  });

  it("honours filters and search like the list", async () => {
    const filters = encodeURIComponent(JSON.stringify([{ field: "in_stock", operator: "eq", value: true }]));
    const file = await exportFile(s, admin, "/api/gadgets", `filters=${filters}&sort=title&q=o`);
    expect(file.rows.slice(1).map((r) => r[0])).toEqual(["Bolt", "Cog"]);
    const bad = await exportFile(s, admin, "/api/gadgets", "sort=colour");
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).details).toEqual([{ field: "sort", message: "Cannot sort by 'colour'" }]);
  });

  it("reads its own export back: a dry run writes nothing, then the import upserts by the unique key", async () => {
    const exported = await exportFile(s, admin, "/api/gadgets", "sort=title");
    const rows = exported.rows.map((r) => [...r]);
    rows[1][2] = "7"; // Anvil's weight
    rows.push(["Dyno", "'@import", "1", "0.29", "no", "Alpha", "", "2024-05-01 08:00", "", "lamps"]);
    const file = `\ufeff${csv(rows)}`;

    const dry = await importFile(s, admin, "/api/gadgets", file, true);
    expect(dry).toEqual({
      status: 200,
      body: {
        message: "Ready to import: 1 gadget to create, 3 to update",
        created: 1,
        updated: 3,
        errors: [],
      },
    });
    expect(await count("/api/gadgets")).toBe(3);
    expect(await gadgetNamed("Anvil")).toMatchObject({ weight: -5 });

    const done = await importFile(s, admin, "/api/gadgets", file);
    expect(done).toEqual({
      status: 200,
      body: { message: "Imported: 1 gadget created, 3 updated", created: 1, updated: 3, errors: [] },
    });
    expect(await gadgetNamed("Anvil")).toMatchObject({
      note: '=HYPERLINK("http://evil.example","click")',
      weight: 7,
      price: 12.5,
      in_stock: false,
      made_on: "2024-02-29",
      checked_at: "2024-03-05T09:00:00.000Z",
      photos: ["https://img.example/a.jpg", "https://img.example/b.jpg"],
      category_id: lamps.id,
    });
    expect(await gadgetNamed("Dyno")).toMatchObject({
      note: "@import",
      price: 0.29,
      in_stock: false,
      kind: "a",
      checked_at: "2024-05-01T08:00:00.000Z",
      category_id: lamps.id,
    });
    expect(await gadgetNamed("Cog")).toMatchObject({ note: "+1 spare", weight: null, in_stock: true });
    const again = await exportFile(s, admin, "/api/gadgets", "sort=title");
    expect(again.rows[1]).toEqual(anvilCells.map((c, i) => (i === 2 ? "7" : c)));
  });

  it("reports every bad row by its spreadsheet row and column title, and writes nothing", async () => {
    const before = await count("/api/gadgets");
    const lines = [
      "Title,Weight,Price,Kind,Category,Made on,In stock",
      "Ember,5,1.999,a,Lamps,2024-02-30,maybe",
      "Flux,heavy,1,Gamma,Nowhere,,",
      "Gear,2,1,Beta,,,",
      "Ember,1,1,a,,,",
      ",1,1,a,,,",
      "",
      '"Hub",1,1,a,lamps,,yes',
      "Iris,1,1,a,,,,extra",
    ];
    const expected: Err[] = [
      { row: 2, field: "Price", message: "Price must have at most 2 decimal places" },
      { row: 2, field: "Made on", message: "Made on must be a real date written YYYY-MM-DD" },
      { row: 2, field: "In stock", message: "In stock must be true or false" },
      { row: 3, field: "Weight", message: "Weight must be a whole number" },
      { row: 3, field: "Kind", message: "Kind must be one of Alpha (a), Beta (b)" },
      { row: 3, field: "Category", message: "No category has the name or ID 'Nowhere'" },
      { row: 4, field: "Weight", message: "Weight must be at least 10 for kind b" },
      { row: 5, field: "Title", message: "Title repeats row 2: a file may hold each gadget once" },
      { row: 6, field: "Title", message: "Title is required" },
      { row: 9, field: "(row)", message: "This row has 8 cells, but the header has 7 columns" },
    ].sort(byRowAndField);

    const dry = await importFile(s, admin, "/api/gadgets", lines, true);
    expect(dry.status).toBe(200);
    expect(dry.body.message).toBe("The file has 10 errors; correct them before importing it");
    expect(dry.body.created).toBe(1); // Hub, the one good row
    expect([...dry.body.errors].sort(byRowAndField)).toEqual(expected);

    const res = await importFile(s, admin, "/api/gadgets", lines);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      statusCode: 400,
      message: "Nothing was imported: the file has 10 errors",
      created: 0,
      updated: 0,
    });
    expect([...res.body.errors].sort(byRowAndField)).toEqual(expected);
    expect(res.body.details).toEqual(res.body.errors);
    expect(await count("/api/gadgets")).toBe(before);
    expect(await gadgetNamed("Hub")).toBeUndefined();
  });

  it("refuses a file it cannot read, naming the columns it cannot import", async () => {
    const header = await importFile(s, admin, "/api/gadgets", [
      "Title,Created,Colour,weight,WEIGHT",
      "X1,,,1,1",
    ]);
    expect(header.status).toBe(400);
    expect(header.body.message).toMatch(/^These columns cannot be imported: Created, Colour, WEIGHT\./);
    expect(header.body.details).toEqual([
      { field: "Created", message: "Column 'Created' is read-only and cannot be imported" },
      { field: "Colour", message: "Column 'Colour' is not a field of gadgets" },
      { field: "WEIGHT", message: "Column 'WEIGHT' names the same field as column 4" },
    ]);
    const refused = async (body: string | Blob, type = "text/csv") => {
      const res = await fetch(`${s.baseUrl}/api/gadgets/import`, {
        method: "POST",
        headers: { authorization: `Bearer ${admin}`, "content-type": type },
        body,
      });
      expect(res.status).toBe(400);
      return ((await res.json()) as { message: string }).message;
    };
    expect(await refused('Title,Note\nX1,"never closed\n')).toBe(
      "The file is not valid CSV: a quoted cell opened on line 2 is never closed",
    );
    expect(await refused(new Blob([Buffer.from("Title\n\xe9\n", "latin1")]))).toMatch(
      /^The file is not UTF-8 text/,
    );
    expect(await refused("")).toBe("The file is empty: its first row must name the columns");
    expect(await refused("Title\n\n")).toBe("The file has no rows to import, only a header");
    expect(await refused(JSON.stringify({ title: "X" }), "application/json")).toBe(
      "Send the file as the request body, with Content-Type: text/csv",
    );
    const tooMany = ["Title", ...Array.from({ length: 50_001 }, (_, i) => `T${i}`)].join("\n");
    expect(await refused(tooMany)).toBe(
      "The file has 50,001 rows; at most 50,000 can be imported at once. Split it into smaller files.",
    );
  });

  it("publishes the written ids as live events, and nothing for a dry run or a refused file", async () => {
    const seen: ResourceChange[] = [];
    const stop = s.ctx.events.subscribe((change) => {
      if (change.resource === "gadgets") seen.push(change);
    });
    try {
      const file = ["Title,Weight", "Anvil,8", "Jet,1"];
      await importFile(s, admin, "/api/gadgets", file, true);
      await importFile(s, admin, "/api/gadgets", ["Title,Weight", "Kite,x"]);
      expect(seen).toEqual([]);
      await importFile(s, admin, "/api/gadgets", file);
      const anvil = await gadgetNamed("Anvil");
      const jet = await gadgetNamed("Jet");
      expect(seen.map(({ type, ids }) => ({ type, ids }))).toEqual([
        { type: "created", ids: [jet?.id] },
        { type: "updated", ids: [anvil?.id] },
      ]);
    } finally {
      stop();
    }
  });

  it("gives every resource both routes, static (never the record route), module-gated and documented", async () => {
    const doc = await s.api<{ paths: Record<string, unknown> }>("GET", "/api/docs/json");
    for (const def of csvServerOptions.resources ?? []) {
      const path = `/${def.base}/${def.name}`;
      for (const [method, url] of [
        ["GET", `${path}/export.csv`],
        ["POST", `${path}/import`],
      ]) {
        const route = s.routes.find((r) => r.method === method && r.url === url);
        expect(route?.access, `${method} ${url}`).toEqual({ kind: "module", moduleID: def.moduleID });
        expect(Object.keys(doc.body.paths), url).toContain(url);
      }
    }
    // `export.csv` is not taken for an id (which would answer 400 "must be a valid uuid").
    const file = await exportFile(s, admin, "/api/gadgets", "");
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toMatch(/^text\/csv/);
  });

  it("needs the resource's module on both routes", async () => {
    await post("/api/users", {
      first_name: "No",
      last_name: "Products",
      email: "nop@example.com",
      password: "Passw0rd-123",
      role: 3,
      modules: [1],
    });
    const { accessToken } = await s.signIn("nop@example.com", "Passw0rd-123");
    for (const path of ["/api/gadgets", "/api/products"]) {
      expect((await exportFile(s, accessToken, path)).status).toBe(403);
      const res = await importFile(s, accessToken, path, ["Title", "Nope"]);
      expect(res.status).toBe(403);
      expect((await fetch(`${s.baseUrl}${path}/export.csv`)).status).toBe(401);
    }
    expect(await gadgetNamed("Nope")).toBeUndefined();
  });
});
