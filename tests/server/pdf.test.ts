/**
 * The PDF library over real HTTP, on PGlite and PostgreSQL, with the real renderer:
 * upload (multipart and resumable), processing to pages with images and searchable text,
 * the spec's view-image.dll answer, published-first order, hotspot links with their lock,
 * SKU suggestions, replace keeping links, broken and encrypted files, delete, permissions.
 */
import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNEXPECTED_FAILURE } from "../../server/modules/pdf/process.job";
import { catalogueHeading, makeCataloguePdf, makeCorruptPdf, makeEncryptedPdf } from "../fixtures/make-pdf";
import { DEVICE, DRIVERS, sleep, startServer, type TestServer } from "./harness";

interface Pdf {
  id: string;
  name: string;
  slug: string;
  pdfstatus: boolean;
  pdflist_status: string;
  processing_text: string;
  progress: number;
  error_message: string | null;
  error_detail: string | null;
  page_count: number;
  version: number;
  thumbnail_url: string;
}

describe.each(DRIVERS)("PDF library on %s", (driver) => {
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    s = await startServer(driver);
    token = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown, as = token) =>
    s.api<T>(method, path, { token: as, body });

  async function uploadMultipart(file: Buffer, fileName: string, name?: string) {
    const form = new FormData();
    if (name) form.append("name", name);
    form.append("file", new Blob([new Uint8Array(file)], { type: "application/pdf" }), fileName);
    const res = await fetch(`${s.baseUrl}/api/pdfs`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as Pdf & { message?: string } };
  }

  /** Resumable upload in chunks of `chunkSize`, sent in the order given (default: in order). */
  async function uploadResumable(
    file: Buffer,
    options: { pdfId?: string; chunkSize?: number; order?: number[] } = {},
  ) {
    const chunkSize = options.chunkSize ?? 64 * 1024;
    const started = await call<{ id: string; chunkSize: number; received: number[] }>(
      "POST",
      "/api/pdfs/uploads",
      {
        fileName: "catalogue.pdf",
        size: file.length,
        chunkSize,
        ...(options.pdfId ? { pdfId: options.pdfId } : {}),
      },
    );
    expect(started.status).toBe(201);
    const count = Math.ceil(file.length / chunkSize);
    const order = options.order ?? Array.from({ length: count }, (_, i) => i);
    for (const i of order) {
      const res = await fetch(`${s.baseUrl}/api/pdfs/uploads/${started.body.id}/chunks/${i}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
        body: new Uint8Array(file.subarray(i * chunkSize, (i + 1) * chunkSize)),
      });
      expect(res.status, await res.text()).toBe(200);
    }
    return { id: started.body.id, count };
  }

  async function waitFor(id: string, states = ["ready", "error"]): Promise<Pdf> {
    for (let i = 0; i < 600; i++) {
      const res = await call<Pdf>("GET", `/api/pdfs/${id}`);
      if (states.includes(res.body.pdflist_status)) return res.body;
      await sleep(100);
    }
    throw new Error(`PDF ${id} did not finish processing`);
  }

  let catalogue: Pdf;
  let productId: string;

  it("uploads a catalogue, processes every page to a thumbnail and a screen image, and finds its words", async () => {
    const category = await call<{ id: string }>("POST", "/api/categories", { name: `Lamps ${driver}` });
    const product = await call<{ id: string }>("POST", "/api/products", {
      sku_code: `LMP-${driver.toUpperCase()}-7`,
      name: "Brass lamp",
      price: 49,
      category_id: category.body.id,
    });
    productId = product.body.id;
    const pdf = await makeCataloguePdf({
      pages: 6,
      photos: false,
      skus: [{ page: 2, code: `LMP-${driver.toUpperCase()}-7`, x: 0.2, y: 0.6 }],
    });
    const created = await uploadMultipart(pdf, "Spring 2026.pdf");
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      name: "Spring 2026",
      slug: "spring-2026",
      pdfstatus: false,
      version: 1,
    });
    expect(["queued", "processing", "ready"]).toContain(created.body.pdflist_status);

    catalogue = await waitFor(created.body.id);
    expect(catalogue).toMatchObject({
      pdflist_status: "ready",
      page_count: 6,
      progress: 100,
      processing_text: "6 pages ready",
    });

    const pages = await call<{
      data: { page: number; images: Record<string, string>; text: string; width: number }[];
    }>("GET", `/api/pdfs/${catalogue.id}/pages`);
    expect(pages.body.data.map((p) => p.page)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pages.body.data[2].text).toContain(catalogueHeading(3));
    // Processing made the thumbnail and the screen size (JPEG); the zoom size (WebP) has its
    // address already and is made when first asked for.
    for (const [size, width, type] of [
      ["thumbnail", 320, "image/jpeg"],
      ["screen", 1200, "image/jpeg"],
      ["zoom", 2400, "image/webp"],
    ] as const) {
      const res = await fetch(s.baseUrl + pages.body.data[0].images[size]);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(type);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta.width).toBe(width);
    }
    expect(catalogue.thumbnail_url).toBe(pages.body.data[0].images.thumbnail);

    const found = await call<{ data: { page: number; snippet: string }[] }>(
      "GET",
      `/api/pdfs/${catalogue.id}/search?q=${encodeURIComponent(`page ${3}`)}`,
    );
    expect(found.body.data[0].page).toBe(3);
  });

  it("answers view-image.dll with 202, an etag and the path under the assets host", async () => {
    const res = await call<{ data: string }>(
      "GET",
      `/clients/view-image.dll?id=${catalogue.id}&count=2&imagesize=screen`,
    );
    expect(res.status).toBe(202);
    const etag = res.headers.get("etag");
    expect(etag).toMatch(/^".+"$/);
    expect(res.body.data).toMatch(new RegExp(`^pdfs/${catalogue.id}/v1/p2-w1200\\.jpg$`));
    const image = await fetch(`${s.baseUrl}/assets/${res.body.data}`);
    expect(image.status).toBe(200);
    expect(image.headers.get("etag")).toBe(etag);
    const byWidth = await call("GET", `/clients/view-image.dll?id=${catalogue.id}&count=1&imagesize=320`);
    expect(byWidth.status).toBe(202);
    expect((await call("GET", `/clients/view-image.dll?id=${catalogue.id}&count=99`)).status).toBe(404);
    expect(
      (await call("GET", `/clients/view-image.dll?id=${catalogue.id}&count=1&imagesize=huge`)).status,
    ).toBe(400);
  });

  it("lists published catalogues first", async () => {
    const other = await uploadMultipart(await makeCataloguePdf({ pages: 1, photos: false }), "b.pdf", "Zeta");
    expect(other.status).toBe(201);
    await waitFor(other.body.id);
    const patched = await call<Pdf>("PATCH", `/api/pdfs/${other.body.id}`, { pdfstatus: true });
    expect(patched.status).toBe(200);
    const list = await call<{ data: Pdf[] }>("GET", "/api/pdfs");
    expect(list.body.data[0].id).toBe(other.body.id);
    expect(list.body.data.map((p) => p.id)).toContain(catalogue.id);
    // What processing owns cannot be written through the API.
    expect((await call("PATCH", `/api/pdfs/${catalogue.id}`, { page_count: 1 })).status).toBe(400);
    expect((await call("POST", "/api/pdfs", { name: "no file" })).status).toBe(400);
  });

  it("saves a page's hotspots under a lock, refuses stale and bad ones, and suggests SKUs", async () => {
    const path = `/api/pdfs/${catalogue.id}/pages/1/links`;
    const empty = await call<{ revision: number; links: unknown[] }>("GET", path);
    expect(empty.body).toEqual({ revision: 0, links: [] });
    const links = [
      { x: 0.1, y: 0.1, w: 0.2, h: 0.1, kind: "pageLink", target: { page: 3 } },
      {
        x: 0.4,
        y: 0.1,
        w: 0.2,
        h: 0.1,
        kind: "link",
        target: { url: "https://example.com/a" },
        button: { icon: "External Link", size: "md", colour: "Primary" },
      },
      { x: 0.1, y: 0.3, w: 0.3, h: 0.2, kind: "video", target: { youtubeId: "dQw4w9WgXcQ" } },
      { x: 0.5, y: 0.3, w: 0.3, h: 0.2, kind: "iframe", target: { url: "https://example.com/embed" } },
      { x: 0.1, y: 0.6, w: 0.3, h: 0.1, kind: "text", target: { text: "Ask us about fabrics" } },
      { x: 0.5, y: 0.6, w: 0.3, h: 0.1, kind: "addProduct", target: { productId } },
    ];
    const saved = await call<{ revision: number; links: { id: string; kind: string }[] }>("PUT", path, {
      revision: 0,
      links,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.revision).toBe(1);
    expect(saved.body.links.map((l) => l.kind)).toEqual(links.map((l) => l.kind));
    expect(saved.body.links[0].id).toMatch(/^[0-9a-f-]{36}$/);

    const stale = await call("PUT", path, { revision: 0, links: [] });
    expect(stale.status).toBe(409);
    expect((await call<{ links: unknown[] }>("GET", path)).body.links).toHaveLength(6);

    const bad = await call<{ details: { field: string }[] }>("PUT", path, {
      revision: 1,
      links: [{ x: 0.9, y: 0.1, w: 0.2, h: 0.1, kind: "link", target: { url: "https://example.com" } }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe("links.0.w");
    expect(
      (
        await call("PUT", path, {
          revision: 1,
          links: [{ ...links[1], target: { url: "javascript:alert(1)" } }],
        })
      ).status,
    ).toBe(400);
    expect((await call("PUT", path, { revision: 1, links: [{ ...links[0], target: {} }] })).status).toBe(400);
    expect(
      (await call("PUT", path, { revision: 1, links: [{ ...links[0], kind: "teleport" }] })).status,
    ).toBe(400);

    const suggested = await call<{ data: { productId: string; skuCode: string; x: number; y: number }[] }>(
      "GET",
      `/api/pdfs/${catalogue.id}/pages/2/suggestions`,
    );
    expect(suggested.body.data).toHaveLength(1);
    expect(suggested.body.data[0]).toMatchObject({ productId, skuCode: `LMP-${driver.toUpperCase()}-7` });
    expect(suggested.body.data[0].x).toBeCloseTo(0.2, 1);
    expect(suggested.body.data[0].y).toBeCloseTo(0.6, 1);
  });

  it("serves published catalogues to the public, records their events, and counts them for analytics", async () => {
    const open = (path: string, init?: RequestInit) => fetch(s.baseUrl + path, init);
    expect((await open(`/public/pdfs/${catalogue.slug}`)).status).toBe(404);
    await call("PATCH", `/api/pdfs/${catalogue.id}`, { pdfstatus: true });
    const data = (await (await open(`/public/pdfs/${catalogue.slug}`)).json()) as {
      id: string;
      pages: { images: { screen: string } }[];
      links: { kind: string; target: { productId?: string } }[];
      products: Record<string, { name: string; price: number; currency: string }>;
    };
    expect(data.id).toBe(catalogue.id);
    expect(data.pages).toHaveLength(6);
    expect(data.links.map((l) => l.kind)).toContain("addProduct");
    expect(data.products[productId]).toMatchObject({ name: "Brass lamp", price: 49, currency: "INR" });
    expect((await open(`/public/pdfs/${catalogue.id}`)).status).toBe(200);
    const hits = (await (await open(`/public/pdfs/${catalogue.slug}/search?q=page%204`)).json()) as {
      data: { page: number }[];
    };
    expect(hits.data[0].page).toBe(4);

    const event = (body: Record<string, unknown>) =>
      open("/public/events", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    for (const visitorId of ["visitor-aaaa1", "visitor-aaaa1", "visitor-bbbb2"]) {
      expect((await event({ pdfId: catalogue.id, type: "view", visitorId, page: 1 })).status).toBe(204);
    }
    expect(
      (await event({ pdfId: catalogue.id, type: "search", visitorId: "visitor-bbbb2", word: "Sofa " }))
        .status,
    ).toBe(204);
    expect(
      (await event({ pdfId: catalogue.id, type: "search", visitorId: "visitor-aaaa1", word: "sofa" })).status,
    ).toBe(204);
    expect((await event({ pdfId: catalogue.id, type: "teleport", visitorId: "visitor-aaaa1" })).status).toBe(
      400,
    );
    await call("PATCH", `/api/pdfs/${catalogue.id}`, { pdfstatus: false });
    expect((await event({ pdfId: catalogue.id, type: "view", visitorId: "visitor-cccc3" })).status).toBe(404);

    const views = await call<{ data: { pdfId: string; count: number }[] }>("POST", "/api/analytics/views", {
      pdfId: catalogue.id,
    });
    expect(views.status).toBe(200);
    expect(views.body.data).toEqual([expect.objectContaining({ pdfId: catalogue.id, count: 3 })]);
    const visitors = await call<{ data: { count: number }[] }>("POST", "/api/analytics/visitors", {});
    expect(visitors.body.data.find((p) => p.count === 2)).toBeTruthy();
    const words = await call<{ data: { word: string; count: number }[] }>("POST", "/api/analytics/words", {
      pdfId: catalogue.id,
    });
    expect(words.body.data).toEqual([{ word: "sofa", count: 2 }]);
    expect(
      (await call("POST", "/api/analytics/views", { from: "2026-12-01", to: "2026-01-01" })).status,
    ).toBe(400);
  });

  it("replaces the file through a resumable upload, keeping the links", async () => {
    const before = await call<{ data: { images: Record<string, string> }[] }>(
      "GET",
      `/api/pdfs/${catalogue.id}/pages`,
    );
    const oldImage = before.body.data[0].images.screen;
    const file = await makeCataloguePdf({ pages: 4, photos: true });
    // Out of order, one chunk twice (a retry after a dropped connection), then complete.
    const count = Math.ceil(file.length / (64 * 1024));
    expect(count).toBeGreaterThan(1);
    const order = [...Array.from({ length: count }, (_, i) => count - 1 - i), 0];
    const { id, count: chunks } = await uploadResumable(file, { pdfId: catalogue.id, order });
    const state = await call<{ received: number[] }>("GET", `/api/pdfs/uploads/${id}`);
    expect(state.body.received).toEqual(Array.from({ length: chunks }, (_, i) => i));
    const done = await call<Pdf>("POST", `/api/pdfs/uploads/${id}/complete`);
    expect(done.status).toBe(200);
    expect(done.body.version).toBe(2);
    const replaced = await waitFor(catalogue.id);
    expect(replaced).toMatchObject({ pdflist_status: "ready", page_count: 4, version: 2 });
    expect(
      (await call<{ links: unknown[] }>("GET", `/api/pdfs/${catalogue.id}/pages/1/links`)).body.links,
    ).toHaveLength(6);
    expect((await fetch(s.baseUrl + oldImage)).status).toBe(404);
    expect((await call("GET", `/api/pdfs/uploads/${id}`)).status).toBe(404);
  });

  it("refuses an incomplete upload and a file that is not a PDF", async () => {
    const file = await makeCataloguePdf({ pages: 3, photos: true });
    const { id } = await uploadResumable(file, { order: [0] });
    const early = await call<{ message: string }>("POST", `/api/pdfs/uploads/${id}/complete`);
    expect(early.status).toBe(400);
    expect(early.body.message).toMatch(/chunks are still missing/);
    expect((await call("DELETE", `/api/pdfs/uploads/${id}`)).status).toBe(204);

    const started = await call<{ id: string }>("POST", "/api/pdfs/uploads", { fileName: "x.pdf", size: 10 });
    const png = await fetch(`${s.baseUrl}/api/pdfs/uploads/${started.body.id}/chunks/0`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
      body: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]),
    });
    expect(png.status).toBe(400);
    const wrongSize = await fetch(`${s.baseUrl}/api/pdfs/uploads/${started.body.id}/chunks/0`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
      body: new Uint8Array(Buffer.from("%PDF-1.4\n")),
    });
    expect(wrongSize.status).toBe(400);
    expect((await uploadMultipart(Buffer.from("GIF89a not a pdf"), "x.pdf")).status).toBe(400);
  });

  it("ends in the error state when recording the rendered pages fails, however the rendering went", async () => {
    // The writes that record each batch of pages run beside the rendering (process.job.ts):
    // their failure must still fail the job, not be lost.
    await sql`
      create function refuse_page_images() returns trigger language plpgsql as $$
      begin raise exception 'page images refused by the test'; end $$;
      create trigger refuse_page_images before update of images on pdf_pages
      for each row execute function refuse_page_images();`.execute(s.database.db);
    try {
      const pdf = await uploadMultipart(await makeCataloguePdf({ pages: 2, photos: false }), "refused.pdf");
      expect(pdf.status).toBe(201);
      const done = await waitFor(pdf.body.id);
      expect(done.pdflist_status).toBe("error");
      expect(done.error_message).toBe(UNEXPECTED_FAILURE);
      expect(done.error_detail).toContain("page images refused by the test");
    } finally {
      await sql`
        drop trigger refuse_page_images on pdf_pages;
        drop function refuse_page_images();`.execute(s.database.db);
    }
  });

  it("ends broken and password-protected PDFs in an error state with a reason", async () => {
    const locked = await uploadMultipart(makeEncryptedPdf(), "locked.pdf");
    expect(locked.status).toBe(201);
    const lockedDone = await waitFor(locked.body.id);
    expect(lockedDone.pdflist_status).toBe("error");
    expect(lockedDone.error_message).toBe("This PDF is protected by a password; upload a copy without one");

    const broken = await uploadMultipart(makeCorruptPdf(), "broken.pdf");
    expect(broken.status).toBe(201);
    const brokenDone = await waitFor(broken.body.id);
    expect(brokenDone.pdflist_status).toBe("error");
    // Plain words for the admin; the tool's own text kept apart as the detail line.
    expect(brokenDone.error_message).toBe("This PDF is damaged and could not be read");
    expect(brokenDone.error_detail).toMatch(/^(pdf(info|toppm|totext)|pdf\.js): \S/);
    expect(brokenDone.error_detail).not.toContain(brokenDone.error_message);
  });

  it("deletes a catalogue with its files, and keeps users without the module out", async () => {
    const pages = await call<{ data: { images: Record<string, string> }[] }>(
      "GET",
      `/api/pdfs/${catalogue.id}/pages`,
    );
    const image = pages.body.data[0].images.zoom;
    expect((await fetch(s.baseUrl + image)).status).toBe(200);
    expect((await call("DELETE", `/api/pdfs/${catalogue.id}`)).status).toBe(204);
    expect((await call("GET", `/api/pdfs/${catalogue.id}`)).status).toBe(404);
    expect((await fetch(s.baseUrl + image)).status).toBe(404);

    const email = `nopdf-${driver}@example.com`;
    await call("POST", "/api/users", {
      first_name: "No",
      last_name: "Pdf",
      email,
      password: "No-pdf-passw0rd",
      role: 3,
      active: true,
      modules: [2],
    });
    const other = await s.signIn(email, "No-pdf-passw0rd", { ...DEVICE, deviceId: "nopdf" });
    for (const [method, path] of [
      ["GET", "/api/pdfs"],
      ["POST", "/api/pdfs/uploads"],
      ["GET", `/clients/view-image.dll?id=${catalogue.id}&count=1`],
    ]) {
      expect(
        (
          await call(
            method,
            path,
            method === "POST" ? { fileName: "a.pdf", size: 1 } : undefined,
            other.accessToken,
          )
        ).status,
      ).toBe(403);
    }
  });
});
