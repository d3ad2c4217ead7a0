/**
 * Fuzz: about 3,000 generated bad requests (split over the drivers) against every route the
 * server has — those of the OpenAPI document and the undocumented ones that take input
 * (`/view/…`, `/assets/*`, the SPA) — signed in as admin and not, with broken paths, query
 * strings, JSON bodies, content types and multipart uploads (fuzz-requests.ts). No answer may
 * be a 5xx, and the server must still be healthy afterwards.
 *
 * Reproduce a run with `FUZZ_SEED=<seed printed below>`; `FUZZ_REQUESTS` changes the total.
 * A failure lists each failing request in full (method, path, headers, body).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODULE_IDS } from "../../resources/modules";
import { makeCataloguePdf } from "../fixtures/make-pdf";
import { brokenMultipart, brokenRawBody, type FuzzRequest, pathValue, queryString } from "./fuzz-requests";
import { brokenJson, type Pools, Rng, type Schema } from "./fuzz-values";
import { CHROME_UA, DRIVERS, startServer, type TestServer } from "./harness";

const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 3000);
const PER_DRIVER = Math.ceil(TOTAL / DRIVERS.length);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
/** Requests in flight at once: enough to keep the server busy, few enough for 2 cores. */
const CONCURRENCY = 6;
/** The SPA, viewer and form pages (and the forms embed script), so their routes answer as in production rather than 503 "not built". */
/** Stands for the admin's current access token, filled in when the request is sent. */
const ADMIN_TOKEN = "Bearer <admin>";
const STUB_PAGE = "<!doctype html><html><head><title>stub</title></head><body></body></html>";

console.log(`fuzz: seed ${SEED} (FUZZ_SEED=${SEED} to replay), ${PER_DRIVER} requests per driver`);

interface Operation {
  method: string;
  /** Fastify form: `/api/users/:id`, `/assets/*`. */
  url: string;
  pathParams: string[];
  queryNames: string[];
  jsonBody?: Schema;
  consumes: string[];
}

interface Failure {
  request: FuzzRequest;
  status: number | string;
  answer: string;
}

/** Every route to fuzz: the OpenAPI document's operations, then the route table's others. */
function operationsOf(doc: Schema, routes: TestServer["routes"]): Operation[] {
  const ops: Operation[] = [];
  const seen = new Set<string>();
  for (const [p, methods] of Object.entries<Schema>(doc.paths)) {
    const url = p.replace(/\{\*\}/g, "*").replace(/\{([^}]+)\}/g, ":$1");
    for (const [method, op] of Object.entries<Schema>(methods)) {
      const params: Schema[] = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      ops.push({
        method: method.toUpperCase(),
        url,
        pathParams: [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]),
        queryNames: params.filter((x) => x.in === "query").map((x) => x.name),
        jsonBody: content["application/json"]?.schema,
        consumes: Object.keys(content).length ? Object.keys(content) : (op.consumes ?? []),
      });
      seen.add(`${method.toUpperCase()} ${url}`);
    }
  }
  for (const route of routes) {
    const key = `${route.method} ${route.url}`;
    if (seen.has(key) || route.method === "HEAD" || route.url.startsWith("/socket.io")) continue;
    seen.add(key);
    ops.push({
      method: route.method,
      url: route.url,
      pathParams: [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]),
      queryNames: [],
      consumes: [],
    });
  }
  return ops;
}

/** Multipart routes have no body schema in the document, only `consumes`. */
function isMultipart(op: Operation, doc: Schema): boolean {
  const docPath = op.url.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/\*$/, "{*}");
  const consumes: string[] = doc.paths[docPath]?.[op.method.toLowerCase()]?.consumes ?? op.consumes;
  return consumes.some((c) => c.startsWith("multipart/"));
}

function buildRequest(rng: Rng, op: Operation, doc: Schema, pools: Pools): FuzzRequest {
  const labels: string[] = [];
  let p = op.url.replace(/:([A-Za-z0-9_]+)/g, () => pathValue(rng, pools));
  if (p.endsWith("*")) p = p.slice(0, -1) + (rng.chance(0.5) ? rng.pick(pools.refs) : pathValue(rng, pools));
  if (op.method === "GET" || rng.chance(0.3)) {
    const qs = queryString(rng, op.queryNames, pools);
    p += `?${qs}`;
  }
  const headers: Record<string, string> = { "user-agent": CHROME_UA };
  if (rng.chance(0.6)) {
    headers.authorization = ADMIN_TOKEN;
    labels.push("admin");
  } else if (rng.chance(0.15)) {
    headers.authorization = rng.pick([
      "Bearer garbage",
      "Bearer ",
      "Basic YTpi",
      `Bearer ${"x".repeat(5000)}`,
    ]);
    labels.push("bad token");
  } else labels.push("anonymous");
  let body: Uint8Array | undefined;
  if (op.method !== "GET" && op.method !== "DELETE") {
    if (isMultipart(op, doc) && rng.chance(0.8)) {
      const mp = brokenMultipart(rng, pools);
      headers["content-type"] = mp.contentType;
      body = mp.body;
      labels.push(mp.label);
    } else if (op.url.endsWith("/chunks/:index") && rng.chance(0.7)) {
      headers["content-type"] = "application/octet-stream";
      body = new Uint8Array(rng.pick([0, 10, 70_000]));
      labels.push("chunk");
    } else if (op.url === "/api/products/import" && rng.chance(0.7)) {
      headers["content-type"] = "text/csv";
      body = Buffer.concat([
        Buffer.from("sku_code,name,price,category\n"),
        Buffer.from(
          `A1,${rng.pick(["a\u0000b", "x", "\ufffd"])},${rng.pick(["1e400", "-1", "abc", "1.005"])},c\n`,
        ),
        rng.chance(0.3) ? Buffer.from([0xff, 0xfe, 0x2c, 0x0a]) : Buffer.alloc(0),
      ]);
      labels.push("csv");
    } else {
      const json = JSON.stringify(brokenJson(op.jsonBody, rng, pools)) ?? "null";
      if (rng.chance(0.75)) {
        headers["content-type"] = "application/json";
        body = new TextEncoder().encode(json);
        labels.push("broken JSON fields");
      } else {
        const raw = brokenRawBody(rng, json);
        headers["content-type"] = raw.contentType;
        body = raw.body;
        labels.push(raw.label);
      }
    }
  }
  return { method: op.method, path: p, headers, body, label: labels.join(", ") };
}

async function send(
  baseUrl: string,
  request: FuzzRequest,
  token: string,
): Promise<{ status: number; answer: string }> {
  const headers = { ...request.headers };
  if (headers.authorization === ADMIN_TOKEN) headers.authorization = `Bearer ${token}`;
  const res = await fetch(baseUrl + request.path, {
    method: request.method,
    headers,
    body: request.body ? new Blob([new Uint8Array(request.body)]) : undefined,
    redirect: "manual",
    signal: AbortSignal.timeout(30_000),
  });
  const answer = await res.text();
  return { status: res.status, answer };
}

function describeFailure(f: Failure): string {
  const body = f.request.body
    ? Buffer.from(f.request.body.slice(0, 600))
        .toString("latin1")
        .replace(/[^\x20-\x7e]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`)
    : "";
  return [
    `${f.request.method} ${f.request.path.slice(0, 400)} [${f.request.label}] -> ${f.status}`,
    `  headers: ${JSON.stringify({ ...f.request.headers, authorization: f.request.headers.authorization?.slice(0, 20) })}`,
    body ? `  body (${f.request.body?.length} bytes): ${body}` : "",
    `  answer: ${f.answer.slice(0, 300)}`,
  ]
    .filter(Boolean)
    .join("\n");
}

describe.each(DRIVERS)("fuzz on %s", (driver) => {
  let s: TestServer;
  let clientDir: string;
  let token: string;
  const pools: Pools = { ids: [], refs: [], fields: [] };

  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(os.tmpdir(), "atelier-fuzz-client-"));
    writeFileSync(path.join(clientDir, "index.html"), STUB_PAGE);
    writeFileSync(path.join(clientDir, "viewer.html"), STUB_PAGE);
    writeFileSync(path.join(clientDir, "form.html"), STUB_PAGE);
    mkdirSync(path.join(clientDir, "assets"));
    writeFileSync(path.join(clientDir, "assets", "embed.js"), "/* stub */");
    s = await startServer(driver, {
      CLIENT_DIR: clientDir,
      // Thousands of sign-in attempts from one address are the point here, not an attack.
      AUTH_MAX_ATTEMPTS: "1000000",
      AUTH_MAX_ATTEMPTS_IP: "1000000",
      LOG_LEVEL: "silent",
    });
    token = (await s.signIn()).accessToken;
    await seed();
  });
  afterAll(async () => {
    await s?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  /** Seed data whose ids, slugs and keys the fuzzer puts into paths and bodies. */
  async function seed() {
    const ok = async (method: string, p: string, body?: unknown) => {
      const res = await s.api<Record<string, unknown>>(method, p, { token, body });
      if (res.status >= 300)
        throw new Error(`seeding ${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const category = await ok("POST", "/api/categories", { name: "Fuzz category" });
    const sub = await ok("POST", "/api/sub-categories", { name: "Fuzz sub", category_id: category.id });
    const product = await ok("POST", "/api/products", {
      sku_code: "FZ-1",
      name: "Fuzz product",
      price: 9.99,
      category_id: category.id,
    });
    const user = await ok("POST", "/api/users", {
      first_name: "Fuzz",
      last_name: "Victim",
      email: "victim@example.com",
      password: "Victim-Passw0rd!",
      role: 2,
      modules: [MODULE_IDS.products, MODULE_IDS.dam],
    });
    const folder = await ok("POST", "/dam/folders", { name: "Fuzz folder" });
    const form = new FormData();
    form.append("folderId", String(folder.id));
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#c33" } })
      .png()
      .toBuffer();
    form.append("file", new Blob([new Uint8Array(png)]), "fuzz.png");
    const uploaded = await fetch(`${s.baseUrl}/dam/assets`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    }).then((r) => r.json() as Promise<{ data: Array<{ id: string; url: string }> }>);
    const asset = uploaded.data[0];
    const pdfForm = new FormData();
    pdfForm.append("name", "Fuzz catalogue");
    pdfForm.append("file", new Blob([new Uint8Array(await makeCataloguePdf({ pages: 1 }))]), "fuzz.pdf");
    const pdf = await fetch(`${s.baseUrl}/api/pdfs`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: pdfForm,
    }).then((r) => r.json() as Promise<{ id: string; slug: string }>);
    const upload = await ok("POST", "/api/pdfs/uploads", { fileName: "fuzz.pdf", size: 100_000 });
    pools.ids.push(
      ...[category.id, sub.id, product.id, user.id, folder.id, asset.id, pdf.id, upload.id].map(String),
    );
    pools.refs.push(pdf.slug, asset.url.replace(/^\/assets\//, ""), "device-victim", "1", "2");
    pools.fields.push(
      "name",
      "price",
      "sku_code",
      "created_at",
      "updated_at",
      "status",
      "id",
      "category_id",
      "email",
    );
  }

  it(`answers ${PER_DRIVER} bad requests with no 5xx and stays healthy`, async () => {
    const doc = (await s.api<Schema>("GET", "/api/docs/json")).body;
    // Not the second-factor policy: a valid body ("everyone") locks the fuzzing admin out behind
    // enrolment for the rest of the run, which no re-sign-in undoes. Its refusals of bad bodies
    // are tested in second-factor.test.ts.
    const ops = operationsOf(doc, s.routes).filter(
      (op) => !(op.method === "PUT" && op.url === "/api/second-factor/policy"),
    );
    expect(ops.length).toBeGreaterThan(50);
    const driverSeed = SEED + DRIVERS.indexOf(driver);
    const rng = new Rng(driverSeed);
    const requests = Array.from({ length: PER_DRIVER }, () => buildRequest(rng, rng.pick(ops), doc, pools));

    const failures: Failure[] = [];
    const statuses = new Map<number, number>();
    let signIns = 0;
    let signingIn: Promise<void> | null = null;
    /** A fuzzed sign-out (or a revoked device) ends the admin's session: sign in again, once. */
    const renewAdmin = (stale: string) => {
      if (stale !== token || signingIn) return signingIn;
      signingIn = s
        .signIn()
        .then((answer) => {
          token = answer.accessToken;
          signIns++;
        })
        .finally(() => {
          signingIn = null;
        });
      return signingIn;
    };
    let resent = 0;
    /**
     * Sends a request; when the keep-alive socket it went out on had just been closed by the
     * server (after an answer that ends the connection, such as a 413 or 431), sends it once
     * more on a new connection. A request that gets no answer twice is a failure.
     */
    const sendOnce = async (request: FuzzRequest, used: string) => {
      try {
        return await send(s.baseUrl, request, used);
      } catch (error) {
        if ((error as { cause?: { code?: string } }).cause?.code !== "UND_ERR_SOCKET") throw error;
        resent++;
        return send(s.baseUrl, request, used);
      }
    };
    let next = 0;
    const started = Date.now();
    const worker = async () => {
      while (next < requests.length) {
        const request = requests[next++];
        const used = token;
        try {
          const { status, answer } = await sendOnce(request, used);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status >= 500) failures.push({ request, status, answer });
          if (request.headers.authorization === ADMIN_TOKEN && (status === 401 || status === 406))
            await renewAdmin(used);
        } catch (error) {
          const cause = (error as { cause?: { code?: string; message?: string } }).cause;
          failures.push({
            request,
            status: "no answer",
            answer: `${String(error)}${cause ? ` (${cause.code ?? ""} ${cause.message ?? ""})` : ""}`,
          });
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `fuzz on ${driver}: ${requests.length} requests over ${ops.length} routes in ${seconds.toFixed(1)} s, ` +
        `seed ${driverSeed}; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}` +
        (signIns ? `; admin signed in again ${signIns} times after fuzzed sign-outs` : "") +
        (resent ? `; ${resent} sent again after a closed keep-alive socket` : ""),
    );
    expect(
      failures.length,
      `seed ${SEED} (driver seed ${driverSeed}), ${failures.length} failing requests:\n${failures
        .slice(0, 15)
        .map(describeFailure)
        .join("\n")}`,
    ).toBe(0);

    const health = await s.api("GET", "/api/health");
    expect(health.status).toBe(200);
    const fresh = await s.signIn();
    const list = await s.api<{ data: unknown[] }>("GET", "/api/products?page=1&pageSize=10", {
      token: fresh.accessToken,
    });
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body.data)).toBe(true);
  }, 120_000);
});
