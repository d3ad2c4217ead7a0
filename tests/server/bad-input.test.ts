/**
 * Bad input gets a clear 4xx and changes nothing (issue 10): one plain test per case the
 * fuzzer (fuzz.test.ts) found or the issue names — paging, NUL characters, invalid UTF-8,
 * unknown content types, broken filters, deep nesting, broken multipart bodies, pixel bombs
 * and damaged images — each checking the answer and that the database (and the files) did
 * not change.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, startServer, type TestServer } from "./harness";

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#c33" } })
    .png()
    .toBuffer();

/** A PNG whose header declares `width` × `height`, with no real pixel data behind it. */
function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write("IHDR", 4, "latin1");
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 2, 0, 0, 0], 16);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    ihdr,
    Buffer.alloc(64, 7),
  ]);
}

/** A multipart body by hand, so it can be cut short or carry raw bytes. */
function multipart(
  boundary: string,
  parts: Array<{ name: string; filename?: string; data: Buffer | string }>,
) {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ""}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`, "latin1"));
    chunks.push(Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data));
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** Every file under a folder, recursively (the local storage's objects). */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

describe.each(DRIVERS)("bad input on %s", (driver) => {
  let s: TestServer;
  let token: string;
  let categoryId: string;

  beforeAll(async () => {
    s = await startServer(driver);
    token = (await s.signIn()).accessToken;
    const category = await s.api<{ id: string }>("POST", "/api/categories", {
      token,
      body: { name: "Shoes" },
    });
    categoryId = category.body.id;
  });
  afterAll(() => s?.close());

  const count = async (table: string) =>
    (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(s.database.db))
      .rows[0].n;
  const storedFiles = () => filesUnder(path.join(s.ctx.config.dataDir, "storage"));
  /** A request with a raw body and content type. */
  const raw = async (method: string, p: string, contentType: string | null, body?: Buffer | string) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (contentType) headers["content-type"] = contentType;
    const res = await fetch(s.baseUrl + p, {
      method,
      headers,
      body: body === undefined ? undefined : new Blob([new Uint8Array(Buffer.from(body))]),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {} };
  };
  const get = (p: string) => raw("GET", p, null);

  it("refuses huge, negative, fractional and non-numeric page and pageSize with a 400 per field", async () => {
    for (const list of ["/api/products", "/api/users", "/dam/assets", "/dam/folders", "/api/outbox"]) {
      for (const value of ["99999999999999999999", "1e300", "4611686018427387904", "-1", "0", "1.5", "abc"]) {
        for (const param of ["page", "pageSize"]) {
          const res = await get(`${list}?${param}=${value}`);
          expect(res.status, `${list}?${param}=${value}: ${JSON.stringify(res.body)}`).toBe(400);
          expect(res.body.details).toEqual([expect.objectContaining({ field: param })]);
        }
      }
    }
    // The highest page is still a page: empty, not an error.
    const last = await get("/api/products?page=1000000&pageSize=200");
    expect(last.status).toBe(200);
    expect(last.body.data).toEqual([]);
  });

  it("refuses NUL characters in query, path and body with a per-field message and stores nothing", async () => {
    const before = await count("categories");
    const q = await get("/api/products?q=a%00b");
    expect(q.status).toBe(400);
    expect(q.body.details).toEqual([{ field: "q", message: "Search text must not contain NUL characters" }]);
    expect((await get("/dam/assets?q=%00")).status).toBe(400);

    const slug = await get("/public/pdfs/a%00b");
    expect(slug.status).toBe(400);
    expect(slug.body.details).toEqual([{ field: "ref", message: "Ref must not contain NUL characters" }]);
    expect((await get("/assets/dam/a%00.png")).status).toBe(400);

    const created = await s.api("POST", "/api/categories", {
      token,
      body: { name: "Bad\u0000name", description: "fine" },
    });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({
      statusCode: 400,
      error: "Bad Request",
      details: [{ field: "name", message: "Name must not contain NUL characters" }],
    });
    const patched = await s.api("PATCH", `/api/categories/${categoryId}`, {
      token,
      body: { description: "x\u0000" },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.details).toEqual([
      { field: "description", message: "Description must not contain NUL characters" },
    ]);
    expect(await count("categories")).toBe(before);
    const row = await s.api<{ name: string; description: string | null }>(
      "GET",
      `/api/categories/${categoryId}`,
      {
        token,
      },
    );
    expect(row.body.description).toBeNull();

    // Nested fields are named by their path.
    const folder = await s.api("POST", "/dam/folders", { token, body: { name: "ok", parentId: null } });
    expect(folder.status).toBe(201);
    const nested = await s.api("POST", "/dam/move", {
      token,
      body: { folderIds: [], assetIds: ["a\u0000"], targetFolderId: null },
    });
    expect(nested.status).toBe(400);
    expect(nested.body.details).toEqual([
      { field: "assetIds.0", message: "Asset IDs must not contain NUL characters" },
    ]);
  });

  it("refuses NUL characters inside list filters", async () => {
    const filters = encodeURIComponent(JSON.stringify([{ field: "name", operator: "eq", value: "a\u0000" }]));
    const res = await get(`/api/products?filters=${filters}`);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { field: "filters.name", message: "Name must not contain NUL characters" },
    ]);
  });

  it("answers 400 for paths and query strings that are not valid UTF-8", async () => {
    const badPath = await get("/api/products/%C3%28");
    expect(badPath.status).toBe(400);
    expect(badPath.body).toEqual({
      statusCode: 400,
      error: "Bad Request",
      message: expect.stringContaining("not valid"),
    });
    const badQuery = await get("/api/products?q=%FF");
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.details).toEqual([{ field: "q", message: "Search text is not valid UTF-8" }]);
    expect((await get("/dam/assets?q=%E2%82")).status).toBe(400);
  });

  it("answers 400 for a JSON body with invalid UTF-8 bytes and creates nothing", async () => {
    const before = await count("categories");
    const body = Buffer.concat([Buffer.from('{"name":"Caf'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const res = await raw("POST", "/api/categories", "application/json", body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("The body is not valid UTF-8 text");
    expect(await count("categories")).toBe(before);
  });

  it("answers 415 for an unknown content type and 400 for truncated JSON, creating nothing", async () => {
    const before = await count("categories");
    const xml = await raw("POST", "/api/categories", "application/xml", "<name>x</name>");
    expect(xml.status).toBe(415);
    expect(xml.body).toMatchObject({ statusCode: 415, error: "Unsupported Media Type" });
    const truncated = await raw("POST", "/api/categories", "application/json", '{"name":"Sh');
    expect(truncated.status).toBe(400);
    expect(truncated.body.statusCode).toBe(400);
    expect(await count("categories")).toBe(before);
  });

  it("refuses JSON nested deeper than 64 levels", async () => {
    const deep = `{"name":"x","description":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    const res = await raw("POST", "/api/categories", "application/json", deep);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("nested more than 64 levels");
  });

  it("refuses malformed filters: non-objects, prototype operators, deep groups, out-of-range values", async () => {
    const cases: Array<[string, string, unknown[], string]> = [
      ["/api/products", "[null]", [], "filters"],
      ["/api/products", JSON.stringify([{ operator: "or", value: [null] }]), [], "filters"],
      [
        "/api/products",
        JSON.stringify([{ field: "name", operator: "constructor", value: "x" }]),
        [],
        "filters",
      ],
      ["/api/products", JSON.stringify([{ field: "name", operator: "toString", value: "x" }]), [], "filters"],
      [
        "/api/products",
        JSON.stringify([{ field: "created_at", operator: "gte", value: "+275760-09-13" }]),
        [],
        "filters.created_at",
      ],
      [
        "/api/users",
        JSON.stringify([{ field: "role", operator: "eq", value: 99999999999 }]),
        [],
        "filters.role",
      ],
      ["/api/users", JSON.stringify([{ field: "role", operator: "eq", value: 1.5 }]), [], "filters.role"],
      [
        "/api/categories",
        JSON.stringify([{ field: "products_cat_id", operator: "eq", value: 2 ** 40 }]),
        [],
        "filters.products_cat_id",
      ],
    ];
    let nested: unknown = { field: "name", operator: "eq", value: "x" };
    for (let i = 0; i < 20; i++) nested = { operator: "or", value: [nested] };
    cases.push(["/api/products", JSON.stringify([nested]), [], "filters"]);
    for (const [list, filters, , field] of cases) {
      const res = await get(`${list}?filters=${encodeURIComponent(filters)}`);
      expect(res.status, `${list} ${filters}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.details?.[0]?.field).toBe(field);
    }
  });

  it("refuses null for a field with a default (its column is NOT NULL) and creates nothing", async () => {
    const before = await count("products");
    const res = await s.api("POST", "/api/products", {
      token,
      body: { sku_code: "NUL-1", name: "Boot", price: 10, category_id: categoryId, status: null },
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toContainEqual({ field: "status", message: "Status must be text" });
    expect(await count("products")).toBe(before);
  });

  it("answers 400 for truncated and malformed multipart uploads and keeps nothing", async () => {
    const assets = await count("dam_assets");
    const pdfs = await count("pdfs");
    const files = storedFiles().length;
    const full = multipart("XX", [{ name: "file", filename: "a.png", data: await png(20, 20) }]);
    const cases: Array<[string, string, Buffer]> = [
      ["/dam/assets", "multipart/form-data; boundary=XX", full.subarray(0, 80)],
      ["/dam/assets", "multipart/form-data; boundary=XX", full.subarray(0, full.length - 10)],
      ["/dam/assets", "multipart/form-data", full],
      ["/dam/assets", "multipart/form-data; boundary=YY", full],
      ["/dam/assets", "multipart/form-data; boundary=XX", Buffer.from("garbage")],
      ["/api/pdfs", "multipart/form-data; boundary=XX", full.subarray(0, 80)],
      ["/api/pdfs", "multipart/form-data; boundary=XX", Buffer.from("garbage")],
    ];
    for (const [p, type, body] of cases) {
      const res = await raw("POST", p, type, body);
      expect(res.status, `${p} ${type} (${body.length} bytes): ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.message).toBeTruthy();
    }
    expect(await count("dam_assets")).toBe(assets);
    expect(await count("pdfs")).toBe(pdfs);
    expect(storedFiles().length).toBe(files);
  });

  it("keeps nothing of a DAM upload whose body breaks after a complete file", async () => {
    const assets = await count("dam_assets");
    const files = storedFiles().length;
    const body = multipart("XX", [
      { name: "file", filename: "one.png", data: await png(30, 30) },
      { name: "file", filename: "two.png", data: await png(30, 30) },
    ]);
    // Cut inside the second file: the first one was complete and stored, then taken back.
    const cut = body.subarray(0, body.length - 40);
    const res = await raw("POST", "/dam/assets", "multipart/form-data; boundary=XX", cut);
    expect(res.status).toBe(400);
    expect(await count("dam_assets")).toBe(assets);
    expect(storedFiles().length).toBe(files);
  });

  it("replaces a DAM asset's file only once the whole body is read", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(await png(10, 10))]), "keep.png");
    const created = await fetch(`${s.baseUrl}/dam/assets`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    }).then((r) => r.json() as Promise<{ data: Array<{ id: string; url: string }> }>);
    const asset = created.data[0];
    const files = storedFiles().length;
    const two = multipart("XX", [
      { name: "file", filename: "a.png", data: await png(12, 12) },
      { name: "file", filename: "b.png", data: await png(12, 12) },
    ]);
    const res = await raw("PUT", `/dam/assets/${asset.id}/file`, "multipart/form-data; boundary=XX", two);
    expect(res.status).toBe(400);
    const after = await s.api<{ url: string; width: number }>("GET", `/dam/assets/${asset.id}`, { token });
    expect(after.body.url).toBe(asset.url);
    expect(after.body.width).toBe(10);
    expect(storedFiles().length).toBe(files);
  });

  it("refuses a NUL in a PDF's name field and keeps no file", async () => {
    const pdfs = await count("pdfs");
    const files = storedFiles().length;
    const body = multipart("XX", [
      { name: "file", filename: "c.pdf", data: "%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n" },
      { name: "name", data: "Spring\u0000" },
    ]);
    const res = await raw("POST", "/api/pdfs", "multipart/form-data; boundary=XX", body);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: "name", message: "Name must not contain NUL characters" }]);
    expect(await count("pdfs")).toBe(pdfs);
    expect(storedFiles().length).toBe(files);
  });

  it("refuses an image whose header declares too many pixels, without decoding it", async () => {
    const assets = await count("dam_assets");
    const files = storedFiles().length;
    const body = multipart("XX", [{ name: "file", filename: "bomb.png", data: pngHeader(100_000, 100_000) }]);
    const res = await raw("POST", "/dam/assets", "multipart/form-data; boundary=XX", body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      "bomb.png: the image is 100000 × 100000 pixels (10000 megapixels), more than the limit of 100 megapixels",
    );
    expect(await count("dam_assets")).toBe(assets);
    expect(storedFiles().length).toBe(files);
  });

  it("answers 422, not 500, for a rendition of a damaged image", async () => {
    const damaged = Buffer.concat([pngHeader(50, 50), Buffer.alloc(200, 3)]);
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(damaged)]), "damaged.png");
    const created = await fetch(`${s.baseUrl}/dam/assets`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    }).then((r) => r.json() as Promise<{ data: Array<{ url: string }> }>);
    const res = await get(`${created.data[0].url}?w=160`);
    expect(res.status).toBe(422);
    expect(res.body.message).toContain("cannot be read");
  });
});

describe("IMAGE_MAX_PIXELS", () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startServer("pglite", { IMAGE_MAX_PIXELS: "10000" });
    token = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  const upload = async (name: string, data: Buffer) => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(data)]), name);
    const res = await fetch(`${s.baseUrl}/dam/assets`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as { message?: string } };
  };

  it("accepts an image at the limit and refuses one past it, whatever the format", async () => {
    expect((await upload("at.png", await png(100, 100))).status).toBe(201);
    const base = sharp({ create: { width: 101, height: 100, channels: 3, background: "#39c" } });
    const over: Array<[string, Buffer]> = [
      ["over.png", await base.clone().png().toBuffer()],
      ["over.webp", await base.clone().webp().toBuffer()],
      ["over.webp", await base.clone().webp({ lossless: true }).toBuffer()],
      ["over.gif", await base.clone().gif().toBuffer()],
      ["over.avif", await base.clone().avif().toBuffer()],
      // The frame header comes after 60 kB of EXIF: read past the first bytes to find it.
      [
        "over.jpg",
        await base
          .clone()
          .withExif({ IFD0: { ImageDescription: "x".repeat(60_000) } })
          .jpeg()
          .toBuffer(),
      ],
    ];
    for (const [name, data] of over) {
      const res = await upload(name, data);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.message).toBe(
        `${name}: the image is 101 × 100 pixels (0.0101 megapixels), more than the limit of 0.01 megapixels`,
      );
    }
    const list = await s.api<{ total: number }>("GET", "/dam/assets", { token });
    expect(list.body.total).toBe(1);
  });
});
