/**
 * Walks the route table: every route declares an access rule, and every module-gated
 * route refuses (403) a user without that module and (401) a caller without a token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODULES } from "../../resources/modules";
import type { Access } from "../../server/auth/access";
import { DRIVERS, startServer, type TestServer } from "./harness";

describe.each(DRIVERS)("route table on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startServer(driver);
    admin = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  const routes = () => s.routes.filter((r) => r.method !== "HEAD");
  const concrete = (url: string) =>
    url
      .replace(/:id/g, "00000000-0000-4000-8000-000000000000")
      .replace(/:deviceId/g, "dev")
      .replace(/\*/g, "x");

  it("gives every route an access rule", () => {
    const missing = routes().filter((r) => !r.access);
    expect(missing).toEqual([]);
    expect(routes().length).toBeGreaterThan(15);
  });

  it("marks every JSON create route idempotent (Idempotency-Key), listing the exceptions", () => {
    // POSTs with a JSON body that create nothing, or keep their own protocol. A new JSON
    // create route gets `config: { idempotent: true }` instead of a line here.
    const notCreates = [
      /^\/api\/auth\//, // sign-in, refresh, password reset: no record
      /^\/clients\/logout$/,
      /^\/api\/users\/me\/password$/, // changes a password
      /^\/api\/users\/me\/second-factor\//, // codes are single use: a replayed answer would hand out recovery codes again
      /\/(delete|move|download)$/, // bulk actions on existing records
      /\/(publish|unpublish|schedule|restore)$/, // an existing entry's life (CMS)
      /^\/cms\/entries\/:type\/:id\/preview$/, // a preview token, stored nowhere: a replay store would keep it
      /^\/api\/analytics\//, // reports: queries sent as a body
      /^\/api\/pdfs\/uploads$/, // resumable uploads: their own session protocol
      // A visitor's answers so far, an upsert by their resume token (a retry saves the same state);
      // its answer is that token, a secret no replay store may keep.
      /^\/forms\/f\/:slug\/partial$/,
      // Failed runs run again: a second try of the same run is refused (it is failed no more).
      /^\/api\/automation-runs\/:id\/retry$/,
      /^\/api\/automations\/:id\/runs\/retry$/,
      // A test run of a draft keeps nothing but the person's last test (replaced each time).
      /^\/api\/automations\/:id\/test$/,
    ];
    const jsonPosts = routes().filter((r) => r.method === "POST" && r.jsonBody);
    expect(jsonPosts.length).toBeGreaterThan(5);
    const unmarked = jsonPosts.filter((r) => !r.idempotent && !notCreates.some((re) => re.test(r.url)));
    expect(unmarked.map((r) => r.url)).toEqual([]);
    const marked = jsonPosts.filter((r) => r.idempotent).map((r) => r.url);
    expect(marked).toEqual(expect.arrayContaining(["/api/users", "/api/products", "/dam/folders"]));
    // Only POSTs with a JSON body carry the flag (multipart keeps its own protocol).
    expect(routes().filter((r) => r.idempotent && (r.method !== "POST" || !r.jsonBody))).toEqual([]);
  });

  it("answers 401 without a token on every non-public route", async () => {
    for (const r of routes().filter((r) => (r.access as Access).kind !== "public")) {
      const res = await s.api(
        r.method,
        concrete(r.url),
        r.method === "GET" || r.method === "DELETE" ? {} : { body: {} },
      );
      expect(res.status, `${r.method} ${r.url}`).toBe(401);
    }
  });

  it("answers 403 on every module route to a user lacking that module (403 matrix)", async () => {
    const moduleRoutes = routes().filter((r) => (r.access as Access).kind === "module");
    expect(moduleRoutes.length).toBeGreaterThan(0);
    for (const mod of MODULES) {
      const others = MODULES.filter((m) => m.moduleID !== mod.moduleID).map((m) => m.moduleID);
      const email = `no-${mod.key}@example.com`;
      // An admin granted every module but this one.
      const created = await s.api("POST", "/api/users", {
        token: admin,
        body: {
          first_name: "No",
          last_name: mod.name,
          email,
          password: "Passw0rd-123",
          role: 2,
          modules: others,
        },
      });
      expect(created.status).toBe(201);
      const { accessToken } = await s.signIn(email, "Passw0rd-123");
      for (const r of moduleRoutes.filter(
        (r) => (r.access as { moduleID: number }).moduleID === mod.moduleID,
      )) {
        const res = await s.api(
          r.method,
          concrete(r.url),
          r.method === "GET" || r.method === "DELETE"
            ? { token: accessToken }
            : { token: accessToken, body: {} },
        );
        expect(res.status, `${r.method} ${r.url} without ${mod.name}`).toBe(403);
      }
    }
  });

  it("publishes every API route in the OpenAPI document", async () => {
    const doc = await s.api<{ paths: Record<string, Record<string, unknown>> }>("GET", "/api/docs/json");
    expect(doc.status).toBe(200);
    const api = routes().filter(
      (r) =>
        (r.url.startsWith("/api/") || r.url.startsWith("/clients/")) &&
        !r.url.startsWith("/api/docs") &&
        r.url !== "/api/health",
    );
    for (const r of api) {
      const path = r.url.replace(/:(\w+)/g, "{$1}");
      expect(doc.body.paths[path]?.[r.method.toLowerCase()], `${r.method} ${path}`).toBeDefined();
    }
    const page = await fetch(`${s.baseUrl}/api/docs`, { redirect: "follow" });
    expect(page.status).toBe(200);
  });

  it("answers unknown routes with the error shape", async () => {
    const res = await s.api("GET", "/api/nope");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ statusCode: 404, error: "Not Found" });
  });
});
