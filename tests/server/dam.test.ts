/**
 * The asset manager end to end over HTTP, on both databases and both storage drivers:
 * folders, uploads checked by content, files served with their renditions, moves that
 * cannot make loops, deletes that take the files along, zips, search, the module gate and
 * the `/dam` socket.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import sharp from "sharp";
import { io } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DamAsset, DamChange, DamFolder, DamFolderDetails, DamUploadResponse } from "../../schemas/dam";
import { DRIVERS, type Driver, type StorageKind, startServer, type TestServer } from "./harness";

const png = (width = 800, height = 600, color = "#c33") =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
const jpeg = (width = 1200, height = 900) =>
  sharp({ create: { width, height, channels: 3, background: "#39c" } })
    .jpeg()
    .toBuffer();
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
const SVG = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="red"/></svg>',
);

const COMBOS: [Driver, StorageKind][] = [
  ["pglite", "local"],
  ["pglite", "s3"],
  ...(DRIVERS.includes("postgres") ? ([["postgres", "s3"]] as [Driver, StorageKind][]) : []),
];

describe.each(COMBOS)("asset manager on %s with %s storage", (driver, storage) => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startServer(driver, {}, { storage });
    token = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  const call = <T = Record<string, unknown>>(method: string, p: string, body?: unknown) =>
    s.api<T>(method, p, { token, body });

  async function upload(
    files: { name: string; data: Buffer }[],
    folderId?: string | null,
    method = "POST",
    p = "/dam/assets",
  ) {
    const form = new FormData();
    if (folderId) form.append("folderId", folderId);
    for (const f of files) form.append("file", new Blob([new Uint8Array(f.data)]), f.name);
    const res = await fetch(`${s.baseUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return {
      status: res.status,
      body: (await res.json()) as DamUploadResponse & DamAsset & { message?: string; details?: unknown[] },
    };
  }
  const folder = async (name: string, parentId: string | null = null) => {
    const res = await call<DamFolder>("POST", "/dam/folders", { name, parentId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };

  it("nests folders, names them uniquely per parent, and tells their path, counts and size", async () => {
    const brand = await folder("Brand");
    const logos = await folder("Logos", brand.id);
    const dark = await folder("Dark", logos.id);
    expect((await call("POST", "/dam/folders", { name: "logos", parentId: brand.id })).status).toBe(409);
    expect((await call("POST", "/dam/folders", { name: "Logos" })).status).toBe(201); // another parent
    expect((await call("POST", "/dam/folders", { name: "brand" })).status).toBe(409); // top level too
    for (const name of ["..", " ", "a/b"]) {
      const bad = await call("POST", "/dam/folders", { name });
      expect(bad.status, name).toBe(400);
    }
    const up = await upload([{ name: "mark.png", data: await png() }], dark.id);
    expect(up.status).toBe(201);
    const details = await call<DamFolderDetails>("GET", `/dam/folders/${brand.id}`);
    expect(details.body.path.map((p) => p.name)).toEqual(["Brand"]);
    const deep = await call<DamFolderDetails>("GET", `/dam/folders/${dark.id}`);
    expect(deep.body.path.map((p) => p.name)).toEqual(["Brand", "Logos", "Dark"]);
    expect(details.body).toMatchObject({ folderCount: 1, assetCount: 1, totalSize: up.body.data[0].size });
    const children = await call<{ data: DamFolder[]; total: number }>(
      "GET",
      `/dam/folders?parentId=${brand.id}`,
    );
    expect(children.body.data.map((f) => f.name)).toEqual(["Logos"]);
    expect(children.body.data[0].hasChildren).toBe(true);
    const leaves = await call<{ data: DamFolder[] }>(
      "GET",
      `/dam/folders?parentId=${children.body.data[0].id}`,
    );
    expect(leaves.body.data.map((f) => [f.name, f.hasChildren])).toEqual([["Dark", false]]);
  });

  it("refuses to move a folder into itself or its own sub-folder", async () => {
    const a = await folder("Move A");
    const b = await folder("Move B", a.id);
    const c = await folder("Move C", b.id);
    for (const target of [a.id, c.id]) {
      const res = await call("PATCH", `/dam/folders/${a.id}`, { parentId: target });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([
        { field: "parentId", message: "Cannot move a folder into itself or its own sub-folder" },
      ]);
    }
    const bulk = await call("POST", "/dam/move", { folderIds: [a.id], assetIds: [], targetFolderId: b.id });
    expect(bulk.status).toBe(400);
    const ok = await call<DamFolder>("PATCH", `/dam/folders/${c.id}`, { parentId: null, name: "Move C top" });
    expect(ok.body).toMatchObject({ parentId: null, name: "Move C top" });
  });

  it("uploads several files, checks each by content, and serves them with renditions", async () => {
    const f = await folder("Uploads");
    const up = await upload(
      [
        { name: "hero.png", data: await png(800, 600) },
        { name: "photo.jpg", data: await jpeg() },
        { name: "sheet.pdf", data: PDF },
        { name: "icon.svg", data: SVG },
        { name: "fake.png", data: PDF },
        { name: "notes.txt", data: Buffer.from("hello") },
        { name: "../../etc/passwd.png", data: await png(10, 10) },
      ],
      f.id,
    );
    expect(up.status).toBe(201);
    expect(up.body.data.map((a) => [a.name, a.mime, a.width, a.height])).toEqual([
      ["hero.png", "image/png", 800, 600],
      ["photo.jpg", "image/jpeg", 1200, 900],
      ["sheet.pdf", "application/pdf", null, null],
      ["icon.svg", "image/svg+xml", 120, 80],
      ["passwd.png", "image/png", 10, 10],
    ]);
    expect(up.body.errors.map((e) => e.name)).toEqual(["fake.png", "notes.txt"]);
    expect(up.body.errors[0].message).toMatch(/does not match the file's extension/);
    expect(up.body.errors[1].message).toMatch(/not allowed/);

    const hero = up.body.data[0];
    expect(hero.url).toMatch(/^\/assets\/dam\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.png$/);
    const file = await fetch(`${s.baseUrl}${hero.url}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const etag = file.headers.get("etag") ?? "";
    expect(Buffer.from(await file.arrayBuffer()).length).toBe(hero.size);
    expect((await fetch(`${s.baseUrl}${hero.url}`, { headers: { "if-none-match": etag } })).status).toBe(304);
    const part = await fetch(`${s.baseUrl}${hero.url}`, { headers: { range: "bytes=0-7" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-7/${hero.size}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect(
      (await fetch(`${s.baseUrl}${hero.url}`, { headers: { range: `bytes=${hero.size}-` } })).status,
    ).toBe(416);

    const thumb = await fetch(`${s.baseUrl}${hero.thumbnailUrl}`);
    expect(thumb.headers.get("content-type")).toBe("image/webp");
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 320, 240]);
    const big = await fetch(`${s.baseUrl}${hero.url}?w=2400&format=jpeg`);
    expect((await sharp(Buffer.from(await big.arrayBuffer())).metadata()).width).toBe(800); // never upscaled
    expect((await fetch(`${s.baseUrl}${hero.url}?w=333`)).status).toBe(400);

    const svg = up.body.data[3];
    const svgFile = await fetch(`${s.baseUrl}${svg.url}`);
    expect(svgFile.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(svgFile.headers.get("content-security-policy")).toContain("sandbox");
    const svgThumb = await fetch(`${s.baseUrl}${svg.thumbnailUrl}`);
    expect((await sharp(Buffer.from(await svgThumb.arrayBuffer())).metadata()).format).toBe("webp");
    expect((await fetch(`${s.baseUrl}${up.body.data[2].url}?w=320`)).status).toBe(400); // a PDF

    for (const bad of [
      "/assets/../../etc/passwd",
      "/assets/%2e%2e/%2e%2e/etc/passwd",
      "/assets/dam/nope.png",
    ]) {
      expect([400, 404]).toContain((await fetch(`${s.baseUrl}${bad}`)).status);
    }
    const none = await upload([{ name: "x.txt", data: Buffer.from("x") }], f.id);
    expect(none.status).toBe(400);
  });

  it("searches by name and tag across folders, sorts, and edits an asset", async () => {
    const f1 = await folder("Search 1");
    const f2 = await folder("Search 2", f1.id);
    const a = (await upload([{ name: "zebra-sofa.png", data: await png(100, 100) }], f1.id)).body.data[0];
    const b = (await upload([{ name: "apple-sofa.png", data: await png(300, 300) }], f2.id)).body.data[0];
    const tagged = await call<DamAsset>("PATCH", `/dam/assets/${a.id}`, {
      tags: ["spring", "sofa", "spring"],
      alt: "A striped sofa",
      name: "Zebra sofa",
    });
    expect(tagged.body).toMatchObject({
      tags: ["spring", "sofa"],
      alt: "A striped sofa",
      name: "Zebra sofa",
    });
    const found = await call<{ data: DamAsset[] }>("GET", "/dam/assets?q=sofa&sort=name");
    expect(found.body.data.map((x) => x.id)).toEqual([b.id, a.id]);
    const bySize = await call<{ data: DamAsset[] }>("GET", "/dam/assets?q=sofa&sort=-size");
    expect(bySize.body.data[0].id).toBe(b.id);
    const byTag = await call<{ data: DamAsset[] }>("GET", "/dam/assets?tag=spring");
    expect(byTag.body.data.map((x) => x.id)).toEqual([a.id]);
    const inFolder = await call<{ data: DamAsset[]; total: number }>("GET", `/dam/assets?folderId=${f2.id}`);
    expect(inFolder.body).toMatchObject({ total: 1 });
    // The picker narrows by kind: a PDF beside the images is not an image.
    const brochure = (await upload([{ name: "sofa-brochure.pdf", data: PDF }], f1.id)).body.data[0];
    const images = await call<{ data: DamAsset[] }>("GET", "/dam/assets?q=sofa&type=image&sort=name");
    expect(images.body.data.map((x) => x.id)).toEqual([b.id, a.id]);
    const pdfs = await call<{ data: DamAsset[] }>("GET", `/dam/assets?folderId=${f1.id}&type=pdf`);
    expect(pdfs.body.data.map((x) => x.id)).toEqual([brochure.id]);
    expect((await call("GET", "/dam/assets?type=spreadsheet")).status).toBe(400);
    expect((await call("GET", "/dam/assets?sort=password")).status).toBe(400);
    expect((await call("PATCH", `/dam/assets/${a.id}`, { storage_key: "x" })).status).toBe(400);
  });

  it("replaces a file under a new URL and deletes the old one", async () => {
    const a = (await upload([{ name: "old.png", data: await png(50, 50) }])).body.data[0];
    await fetch(`${s.baseUrl}${a.thumbnailUrl}`); // make a rendition too
    const replaced = await upload(
      [{ name: "new.jpg", data: await jpeg(64, 32) }],
      null,
      "PUT",
      `/dam/assets/${a.id}/file`,
    );
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body).toMatchObject({
      id: a.id,
      name: "old.png",
      mime: "image/jpeg",
      width: 64,
      height: 32,
    });
    expect(replaced.body.url).not.toBe(a.url);
    expect((await fetch(`${s.baseUrl}${a.url}`)).status).toBe(404);
    expect((await fetch(`${s.baseUrl}${a.thumbnailUrl}`)).status).toBe(404);
    expect((await fetch(`${s.baseUrl}${replaced.body.url}`)).status).toBe(200);
  });

  it("moves and deletes selections, taking the files along, and zips them", async () => {
    const box = await folder("Box");
    const inner = await folder("Inner", box.id);
    const target = await folder("Target");
    const [x, y] = (
      await upload(
        [
          { name: "x.png", data: await png(20, 20) },
          { name: "y.png", data: await png(30, 30) },
        ],
        inner.id,
      )
    ).body.data;
    const loose = (await upload([{ name: "loose.pdf", data: PDF }])).body.data[0];

    const zip = await fetch(`${s.baseUrl}/dam/download`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ folderIds: [box.id], assetIds: [loose.id] }),
    });
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    const dir = mkdtempSync(path.join(os.tmpdir(), "atelier-zip-"));
    writeFileSync(path.join(dir, "a.zip"), Buffer.from(await zip.arrayBuffer()));
    const listing = execFileSync("python3", [
      "-c",
      "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); print('\\n'.join(sorted(z.namelist()))); z.testzip()",
      path.join(dir, "a.zip"),
    ]).toString();
    rmSync(dir, { recursive: true, force: true });
    expect(listing.trim().split("\n")).toEqual(["Box/Inner/x.png", "Box/Inner/y.png", "loose.pdf"]);

    const moved = await call("POST", "/dam/move", {
      folderIds: [box.id],
      assetIds: [loose.id],
      targetFolderId: target.id,
    });
    expect(moved.body).toEqual({ moved: { folders: 1, assets: 1 } });
    expect(
      (await call<DamFolderDetails>("GET", `/dam/folders/${inner.id}`)).body.path.map((p) => p.name),
    ).toEqual(["Target", "Box", "Inner"]);
    const deleted = await call("POST", "/dam/delete", { folderIds: [target.id], assetIds: [] });
    expect(deleted.body).toEqual({ deleted: { folders: 1, assets: 0 } });
    for (const a of [x, y, loose]) {
      expect((await call("GET", `/dam/assets/${a.id}`)).status).toBe(404);
      expect((await fetch(`${s.baseUrl}${a.url}`)).status).toBe(404);
    }
    expect((await call("GET", `/dam/folders/${inner.id}`)).status).toBe(404);
  });

  it("keeps users without the DAM module out", async () => {
    const email = `nodam-${Date.now()}@example.com`;
    await call("POST", "/api/users", {
      first_name: "No",
      last_name: "Dam",
      email,
      password: "NoDam-passw0rd",
      role: 3,
      modules: [2],
    });
    const other = await s.signIn(email, "NoDam-passw0rd", { deviceId: "nodam", deviceName: "Linux Chrome" });
    for (const [method, p] of [
      ["GET", "/dam/folders"],
      ["POST", "/dam/folders"],
      ["GET", "/dam/assets"],
      ["POST", "/dam/assets"],
      ["POST", "/dam/move"],
      ["POST", "/dam/delete"],
      ["POST", "/dam/download"],
    ]) {
      const body = method === "GET" ? undefined : {};
      expect((await s.api(method, p, { token: other.accessToken, body })).status, `${method} ${p}`).toBe(403);
    }
    expect((await s.api("GET", "/dam/folders")).status).toBe(401);
  });

  it("pushes changes on the /dam socket namespace", async () => {
    const socket = io(`${s.baseUrl}/dam`, {
      path: "/socket.io",
      auth: { token },
      transports: ["websocket"],
      extraHeaders: { origin: "https://atelier.example.test" },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on("connect", () => resolve());
        socket.on("connect_error", reject);
      });
      const seen = new Promise<DamChange>((resolve) => socket.on("dam:change", resolve));
      const f = await folder(`Live ${Date.now()}`);
      expect(await seen).toMatchObject({ kind: "folder", type: "created", ids: [f.id], folderIds: [null] });
    } finally {
      socket.close();
    }
  });
});

describe("a large upload", () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startServer("pglite", {}, { storage: "local" });
    token = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  it("streams 100 MB to storage with flat memory, and refuses files over the limit", async () => {
    const size = 100 * 1024 * 1024;
    const head = await jpeg(16, 16);
    const boundary = "----atelier-test-boundary";
    const pre = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    );
    const post = Buffer.from(`\r\n--${boundary}--\r\n`);
    const chunk = Buffer.alloc(1024 * 1024, 7);
    async function* body() {
      yield pre;
      yield head;
      for (let sent = head.length; sent < size; sent += chunk.length)
        yield chunk.subarray(0, Math.min(chunk.length, size - sent));
      yield post;
    }
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const timer = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const res = await fetch(`${s.baseUrl}/dam/assets`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      body: Readable.toWeb(Readable.from(body())),
      duplex: "half",
    } as RequestInit);
    clearInterval(timer);
    const answer = (await res.json()) as DamUploadResponse;
    expect(res.status, JSON.stringify(answer)).toBe(201);
    expect(answer.data[0].size).toBe(size);
    const growth = (peak - before) / 1024 / 1024;
    console.log(`100 MB upload: RSS grew ${growth.toFixed(1)} MB at peak`);
    expect(growth).toBeLessThan(80);
  }, 120_000);

  it("answers 413 over UPLOAD_MAX_MB and keeps nothing", async () => {
    const small = await startServer("pglite", { UPLOAD_MAX_MB: "1" }, { storage: "local" });
    try {
      const t = (await small.signIn()).accessToken;
      const data = Buffer.concat([await jpeg(16, 16), Buffer.alloc(2 * 1024 * 1024, 1)]);
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(data)]), "huge.jpg");
      const res = await fetch(`${small.baseUrl}/dam/assets`, {
        method: "POST",
        headers: { authorization: `Bearer ${t}` },
        body: form,
      });
      expect(res.status).toBe(413);
      const list = await small.api<{ total: number }>("GET", "/dam/assets", { token: t });
      expect(list.body.total).toBe(0);
    } finally {
      await small.close();
    }
  });
});
