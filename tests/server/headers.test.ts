/**
 * Security headers, caching and compression (issue 10) on the real server: the CSP of each kind
 * of page (admin, SPA fallback, reset, catalogue viewer with its hotspots' origins), nosniff,
 * Referrer-Policy, HSTS by PUBLIC_URL, no-store on auth answers, precompressed build assets by
 * Accept-Encoding, and compressed large JSON. The client build is a tiny fake one in a temp
 * folder (index.html with an inline script, viewer.html, one hashed asset and its .br/.gz).
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config";
import { makeCataloguePdf } from "../fixtures/make-pdf";
import { DRIVERS, startServer, type TestServer } from "./harness";

const INLINE_SCRIPT = "window.__atelierBoot = Date.now();";
const ASSET = `export const big = ${JSON.stringify("atelier ".repeat(800))};\n`;
const ASSET_BR = brotliCompressSync(ASSET);
const ASSET_GZ = gzipSync(ASSET);
const CDN = "https://cdn.example.test";
const API_HOST = "https://api.example.test";

/** A built client as vite.config.ts would write it, minus the real bundle. */
function fakeClientDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "atelier-fake-client-"));
  mkdirSync(path.join(dir, "assets"));
  writeFileSync(
    path.join(dir, "index.html"),
    `<!doctype html><html><head><script>${INLINE_SCRIPT}</script>` +
      `<script type="module" src="/manage/assets/x-abc123.js"></script></head><body><div id="root"></div></body></html>`,
  );
  writeFileSync(path.join(dir, "viewer.html"), "<!doctype html><title>Catalogue</title><div id=root></div>");
  writeFileSync(path.join(dir, "assets", "x-abc123.js"), ASSET);
  writeFileSync(path.join(dir, "assets", "x-abc123.js.br"), ASSET_BR);
  writeFileSync(path.join(dir, "assets", "x-abc123.js.gz"), ASSET_GZ);
  writeFileSync(path.join(dir, "csp-sources.json"), JSON.stringify({ connect: [API_HOST], img: [CDN] }));
  return dir;
}

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request with exactly the headers given (fetch would add Accept-Encoding and decode). */
function raw(
  base: string,
  pathname: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Raw> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers = { ...(options.headers ?? {}), ...(payload ? { "content-type": "application/json" } : {}) };
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${pathname}`, { method: options.method ?? "GET", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

/** A CSP header as directive → sources. */
function parseCsp(header: string | string[] | undefined): Record<string, string[]> {
  expect(typeof header, "a Content-Security-Policy header").toBe("string");
  return Object.fromEntries(
    String(header)
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("FRAME_ANCESTORS", () => {
  it("takes origins and 'self', and refuses anything else with the variable's name", () => {
    expect(loadConfig({}).frameAncestors).toBe("'self'");
    expect(
      loadConfig({ FRAME_ANCESTORS: "self https://shop.example.com https://*.example.org/" }).frameAncestors,
    ).toBe("'self' https://shop.example.com https://*.example.org");
    expect(loadConfig({ FRAME_ANCESTORS: "'none'" }).frameAncestors).toBe("'none'");
    for (const bad of ["javascript:alert(1)", "https://a.com;script-src", "'none' https://a.com", "*"]) {
      expect(() => loadConfig({ FRAME_ANCESTORS: bad }), bad).toThrow(/FRAME_ANCESTORS/);
    }
  });
});

describe.each(DRIVERS)("security headers on %s", (driver) => {
  let s: TestServer;
  let clientDir: string;
  let token: string;

  beforeAll(async () => {
    clientDir = fakeClientDir();
    s = await startServer(driver, {
      CLIENT_DIR: clientDir,
      FRAME_ANCESTORS: "'self' https://shop.example.com",
    });
    token = (await s.signIn()).accessToken;
  });
  afterAll(async () => {
    await s?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  const get = (pathname: string, headers: Record<string, string> = {}) =>
    raw(s.baseUrl, pathname, { headers });

  function expectCommon(res: Raw) {
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  }

  function expectAdminPolicy(res: Raw) {
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expectCommon(res);
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    const csp = parseCsp(res.headers["content-security-policy"]);
    expect(csp["default-src"]).toEqual(["'self'"]);
    // The one inline script is allowed by its hash, and nothing else inline.
    expect(csp["script-src"]).toEqual(["'self'", "'unsafe-eval'", sha256(INLINE_SCRIPT)]);
    expect(csp["style-src"]).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp["img-src"]).toEqual(["'self'", "data:", "blob:", CDN]);
    expect(csp["connect-src"]).toEqual(["'self'", "wss://atelier.example.test", API_HOST]);
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    expect(csp["object-src"]).toEqual(["'none'"]);
    expect(csp["base-uri"]).toEqual(["'self'"]);
    expect(csp["form-action"]).toEqual(["'self'"]);
    return csp;
  }

  it("gives the admin app and its client routes (SPA fallback) the admin policy", async () => {
    expectAdminPolicy(await get("/manage/"));
    const fallback = await get("/manage/products/list?page=2");
    expectAdminPolicy(fallback);
    expect(fallback.body.toString()).toContain(INLINE_SCRIPT);
    expect(fallback.headers["cache-control"]).toBe("no-cache");
  });

  it("serves the reset pages with no referrer, no store and no framing", async () => {
    for (const url of [
      "/manage/resetpassword/0123456789abcdef",
      "/manage/resetpassword/32/0123456789abcdef",
    ]) {
      const res = await get(url);
      expectCommon(res);
      expect(res.status, url).toBe(200);
      expect(res.body.toString()).toContain('<div id="root">');
      expect(res.headers["referrer-policy"], url).toBe("no-referrer");
      expect(res.headers["cache-control"], url).toBe("no-store");
      const csp = parseCsp(res.headers["content-security-policy"]);
      expect(csp["frame-ancestors"]).toEqual(["'none'"]);
      expect(csp["script-src"]).toEqual(["'self'", "'unsafe-eval'", sha256(INLINE_SCRIPT)]);
    }
  });

  it("gives other HTML (the API reference) a policy too, and every JSON answer nosniff", async () => {
    const docs = await get("/api/docs");
    expect(docs.status).toBe(200);
    expect(docs.headers["content-type"]).toMatch(/^text\/html/);
    expect(docs.body.toString()).not.toMatch(/<script>/);
    const docsCsp = parseCsp(docs.headers["content-security-policy"]);
    expect(docsCsp["frame-ancestors"]).toEqual(["'none'"]);
    expect(docsCsp["script-src"]).toEqual(["'self'", "'unsafe-eval'"]);
    const health = await get("/api/health");
    expectCommon(health);
    expect(health.headers["content-security-policy"]).toBeUndefined();
    const missing = await get("/api/nothing-here");
    expect(missing.status).toBe(404);
    expectCommon(missing);
  });

  it("gives socket.io's own answers (they bypass Fastify) nosniff and no-store", async () => {
    const handshake = await get("/socket.io/?EIO=4&transport=polling", {
      origin: "https://atelier.example.test",
    });
    expect(handshake.status).toBe(200);
    expect(handshake.headers["x-content-type-options"]).toBe("nosniff");
    expect(handshake.headers["cache-control"]).toBe("no-store");
  });

  it("sends Cache-Control: no-store on auth answers and /api/users/me", async () => {
    const signin = await raw(s.baseUrl, "/api/auth/signin", {
      method: "POST",
      body: {
        email: "admin@example.com",
        password: "wrong-password",
        deviceInfo: { deviceId: "d", deviceName: "x" },
      },
    });
    expect(signin.status).toBe(401);
    expect(signin.headers["cache-control"]).toBe("no-store");
    const ok = await s.api("POST", "/api/auth/signin", {
      body: {
        email: "admin@example.com",
        password: "Admin-Passw0rd!",
        deviceInfo: { deviceId: "h-2", deviceName: "x" },
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    const me = await get("/api/users/me", { authorization: `Bearer ${token}` });
    expect(me.status).toBe(200);
    expect(me.headers["cache-control"]).toBe("no-store");
    expect((await get("/api/users/me")).headers["cache-control"]).toBe("no-store");
    const logout = await raw(s.baseUrl, "/clients/logout", {
      method: "POST",
      headers: { authorization: `Bearer ${(ok.body as { accessToken: string }).accessToken}` },
      body: {},
    });
    expect(logout.status).toBe(204);
    expect(logout.headers["cache-control"]).toBe("no-store");
    // Other API answers keep their own caching.
    const modules = await get("/api/modules", { authorization: `Bearer ${token}` });
    expect(modules.status).toBe(200);
    expect(modules.headers["cache-control"]).not.toBe("no-store");
  });

  it("serves hashed assets precompressed by Accept-Encoding, immutable, varying on it", async () => {
    const url = "/manage/assets/x-abc123.js";
    const cases: Array<[string | undefined, string | undefined, Buffer]> = [
      ["br, gzip", "br", ASSET_BR],
      ["gzip, deflate", "gzip", ASSET_GZ],
      [undefined, undefined, Buffer.from(ASSET)],
      ["identity", undefined, Buffer.from(ASSET)],
    ];
    for (const [accept, encoding, body] of cases) {
      const res = await get(url, accept ? { "accept-encoding": accept } : {});
      expect(res.status, accept).toBe(200);
      expectCommon(res);
      expect(res.headers["content-encoding"], accept).toBe(encoding);
      expect(res.headers["content-type"], accept).toMatch(/javascript/);
      expect(res.headers["cache-control"], accept).toBe("public, max-age=31536000, immutable");
      expect(res.headers.vary, accept).toMatch(/accept-encoding/i);
      expect(res.body.equals(body), `${accept}: the prebuilt file as it is`).toBe(true);
    }
  });

  it("compresses JSON answers above 1 KiB, and leaves small ones and non-accepting clients alone", async () => {
    const big = await get("/api/docs/json", { "accept-encoding": "br" });
    expect(big.status).toBe(200);
    expect(big.headers["content-encoding"]).toBe("br");
    expect(big.headers.vary).toMatch(/accept-encoding/i);
    const doc = JSON.parse(brotliDecompressSync(big.body).toString()) as { openapi: string };
    expect(doc.openapi).toMatch(/^3\./);

    const gz = await get("/api/docs/json", { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(doc);

    const plain = await get("/api/docs/json");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(plain.body.toString())).toEqual(doc);

    const small = await get("/api/health", { "accept-encoding": "br, gzip" });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toMatchObject({ status: "ok" });

    // A signed-in API answer above the threshold: compressed too, and still whole.
    const modules = await get("/api/modules", {
      "accept-encoding": "gzip",
      authorization: `Bearer ${token}`,
    });
    expect(modules.status).toBe(200);
    const decoded = gunzipSync(modules.body);
    expect(decoded.length).toBeGreaterThan(1024);
    expect(modules.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(decoded.toString())).toBeTruthy();
  });

  it("serves stored files as stored: no compression, so ranges and lengths stay true", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><!-- ${"pad ".repeat(600)} --><rect width="10" height="10"/></svg>`;
    const form = new FormData();
    form.append("file", new Blob([svg], { type: "image/svg+xml" }), "mark.svg");
    const res = await fetch(`${s.baseUrl}/dam/assets`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const uploaded = (await res.json()) as { data: { url: string }[] };
    expect(res.status, JSON.stringify(uploaded)).toBe(201);
    const url = uploaded.data[0].url;
    const whole = await get(url, { "accept-encoding": "br, gzip" });
    expect(whole.status).toBe(200);
    expect(whole.headers["content-encoding"]).toBeUndefined();
    expect(whole.headers["content-length"]).toBe(String(Buffer.byteLength(svg)));
    expect(whole.body.toString()).toBe(svg);
    const part = await get(url, { "accept-encoding": "br, gzip", range: "bytes=0-9" });
    expect(part.status).toBe(206);
    expect(part.headers["content-encoding"]).toBeUndefined();
    expect(part.body.toString()).toBe(svg.slice(0, 10));
  });

  it("lets the viewer frame YouTube and its iframe hotspots' sites, and embeds it where configured", async () => {
    const call = <T = Record<string, unknown>>(method: string, pathname: string, body?: unknown) =>
      s.api<T>(method, pathname, { token, body });
    const category = await call<{ id: string }>("POST", "/api/categories", { name: `Headers ${driver}` });
    const product = await call<{ id: string }>("POST", "/api/products", {
      sku_code: `HDR-${driver.toUpperCase()}`,
      name: "Brass lamp",
      price: 49,
      category_id: category.body.id,
      images: ["https://images.example.net/lamp.jpg"],
    });
    expect(product.status, JSON.stringify(product.body)).toBe(201);

    const form = new FormData();
    const pdfFile = await makeCataloguePdf({ pages: 1, photos: false });
    form.append("file", new Blob([new Uint8Array(pdfFile)], { type: "application/pdf" }), "Headers.pdf");
    const created = await fetch(`${s.baseUrl}/api/pdfs`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(created.status).toBe(201);
    const pdf = (await created.json()) as { id: string; slug: string };
    await expect
      .poll(
        async () =>
          (await call<{ pdflist_status: string }>("GET", `/api/pdfs/${pdf.id}`)).body.pdflist_status,
        {
          timeout: 60_000,
          interval: 100,
        },
      )
      .toBe("ready");
    const saved = await call("PUT", `/api/pdfs/${pdf.id}/pages/1/links`, {
      revision: 0,
      links: [
        {
          x: 0.1,
          y: 0.1,
          w: 0.2,
          h: 0.1,
          kind: "iframe",
          target: { url: "https://embed.example.org/spring?x=1" },
        },
        { x: 0.4, y: 0.1, w: 0.2, h: 0.1, kind: "video", target: { youtubeId: "dQw4w9WgXcQ" } },
        { x: 0.1, y: 0.4, w: 0.2, h: 0.1, kind: "addProduct", target: { productId: product.body.id } },
        { x: 0.4, y: 0.4, w: 0.2, h: 0.1, kind: "link", target: { url: "https://not-framed.example.com/" } },
      ],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    // Unpublished: the page answers, but names no hotspot's site.
    const before = parseCsp((await get(`/view/${pdf.slug}`)).headers["content-security-policy"]);
    expect(before["frame-src"]).toEqual([
      "'self'",
      "https://www.youtube.com",
      "https://www.youtube-nocookie.com",
    ]);

    expect((await call("PATCH", `/api/pdfs/${pdf.id}`, { pdfstatus: true })).status).toBe(200);
    for (const ref of [pdf.slug, pdf.id]) {
      const res = await get(`/view/${ref}`);
      expect(res.status).toBe(200);
      expectCommon(res);
      expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      const csp = parseCsp(res.headers["content-security-policy"]);
      expect(csp["frame-src"]).toEqual([
        "'self'",
        "https://www.youtube.com",
        "https://www.youtube-nocookie.com",
        "https://embed.example.org",
      ]);
      expect(csp["img-src"]).toEqual(["'self'", "data:", "blob:", CDN, "https://images.example.net"]);
      expect(csp["frame-ancestors"]).toEqual(["'self'", "https://shop.example.com"]);
      expect(csp["script-src"]).toEqual(["'self'"]);
      expect(csp["object-src"]).toEqual(["'none'"]);
    }
    // A reference that names nothing still gets the page, and a policy.
    const odd = await get(`/view/${encodeURIComponent("no such; catalogue")}`);
    expect(odd.status).toBe(200);
    expect(parseCsp(odd.headers["content-security-policy"])["frame-ancestors"]).toEqual([
      "'self'",
      "https://shop.example.com",
    ]);
  });
});

describe("HSTS follows PUBLIC_URL", () => {
  it("is absent when PUBLIC_URL is http", async () => {
    const s = await startServer("pglite", { PUBLIC_URL: "http://localhost:8080" });
    try {
      const res = await raw(s.baseUrl, "/api/health");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["strict-transport-security"]).toBeUndefined();
    } finally {
      await s.close();
    }
  });
});
