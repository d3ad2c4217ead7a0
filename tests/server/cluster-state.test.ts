/**
 * Issue 11: state that must not live in one instance's memory. Two instances on one
 * PostgreSQL database and one s3rver bucket, as behind a load balancer: a resumable upload
 * moves between them mid-way, and the attempt counters (sign-in per account and per IP, the
 * public viewer's events) are one budget for the pair, not one each.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_EVENTS_PER_MINUTE } from "../../server/modules/pdf/public.routes";
import { makeCataloguePdf } from "../fixtures/make-pdf";
import { ADMIN, DRIVERS, type SignedIn, sleep, startInstances, type TestServer } from "./harness";

const MAX_ATTEMPTS = 4;
const MAX_ATTEMPTS_IP = 9;

describe.runIf(DRIVERS.includes("postgres"))("two instances on one database and one bucket", () => {
  let a: TestServer;
  let b: TestServer;
  let admin: SignedIn;
  beforeAll(async () => {
    [a, b] = await startInstances(
      2,
      { AUTH_MAX_ATTEMPTS: String(MAX_ATTEMPTS), AUTH_MAX_ATTEMPTS_IP: String(MAX_ATTEMPTS_IP) },
      { storage: "s3" },
    );
    admin = await a.signIn();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const sendChunk = (s: TestServer, id: string, index: number, bytes: Buffer) =>
    fetch(`${s.baseUrl}/api/pdfs/uploads/${id}/chunks/${index}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${admin.accessToken}`, "content-type": "application/octet-stream" },
      body: new Uint8Array(bytes),
    });

  it("continues a resumable upload started through A on B, and processes the PDF", async () => {
    const file = await makeCataloguePdf({ pages: 4, photos: true });
    const chunkSize = 64 * 1024;
    const count = Math.ceil(file.length / chunkSize);
    expect(count).toBeGreaterThanOrEqual(2);
    const chunk = (i: number) => file.subarray(i * chunkSize, (i + 1) * chunkSize);
    const started = await a.api<{ id: string }>("POST", "/api/pdfs/uploads", {
      token: admin.accessToken,
      body: { fileName: "cluster.pdf", size: file.length, chunkSize, name: "Cluster catalogue" },
    });
    expect(started.status).toBe(201);
    const { id } = started.body;

    // Chunks alternate between the instances, as a balancer without stickiness sends them.
    for (let i = 0; i < count; i++) {
      const res = await sendChunk(i % 2 ? b : a, id, i, chunk(i));
      expect(res.status, await res.text()).toBe(200);
    }
    // Each instance sees every chunk the other took.
    for (const s of [a, b]) {
      const state = await s.api<{ received: number[] }>("GET", `/api/pdfs/uploads/${id}`, {
        token: admin.accessToken,
      });
      expect(state.body.received).toEqual(Array.from({ length: count }, (_, i) => i));
    }
    const done = await b.api<{ id: string; version: number }>("POST", `/api/pdfs/uploads/${id}/complete`, {
      token: admin.accessToken,
    });
    expect(done.status).toBe(201);
    expect((await a.api("GET", `/api/pdfs/uploads/${id}`, { token: admin.accessToken })).status).toBe(404);

    // Processed by whichever instance's worker took the job; both answer the same result.
    const deadline = Date.now() + 120_000;
    let pdf: Record<string, unknown> = {};
    while (Date.now() < deadline) {
      pdf = (await a.api("GET", `/api/pdfs/${done.body.id}`, { token: admin.accessToken })).body;
      if (pdf.pdflist_status === "ready" || pdf.pdflist_status === "error") break;
      await sleep(100);
    }
    expect(pdf).toMatchObject({ pdflist_status: "ready", page_count: 4 });
    const viaB = await b.api<{ data: { images: Record<string, string> }[] }>(
      "GET",
      `/api/pdfs/${done.body.id}/pages`,
      { token: admin.accessToken },
    );
    expect(viaB.body.data).toHaveLength(4);
    // The page image, written by one instance into the shared bucket, is served by the other too.
    const image = viaB.body.data[0].images.screen;
    for (const s of [a, b]) expect((await fetch(s.baseUrl + image)).status).toBe(200);
    // Exactly one processing run for the upload (the job ran once across instances).
    const jobs = await a.database.db
      .selectFrom("jobs")
      .select(["state", "attempts"])
      .where(sql<string>`payload->>'pdfId'`, "=", done.body.id)
      .execute();
    expect(jobs).toEqual([{ state: "done", attempts: 1 }]);
  });

  /** Each limit is tested from zero (every test here comes from the same address). */
  const clearCounters = () => a.database.db.deleteFrom("rate_limits").execute();

  const signIn = (s: TestServer, email: string, password: string) =>
    s.api("POST", "/api/auth/signin", {
      body: { email, password, deviceInfo: { deviceId: "rate-device", deviceName: "Linux Chrome" } },
    });

  it("counts an account's failed sign-ins over both instances together", async () => {
    await clearCounters();
    const statuses: number[] = [];
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      statuses.push((await signIn(i % 2 ? b : a, ADMIN.email, "Wrong-passw0rd")).status);
    }
    expect(statuses).toEqual(Array(MAX_ATTEMPTS).fill(401));
    // The budget is spent on both instances, even with the right password.
    for (const s of [a, b]) expect((await signIn(s, ADMIN.email, ADMIN.password)).status).toBe(429);
  });

  it("counts an address's sign-in attempts over both instances together", async () => {
    await clearCounters();
    const statuses: number[] = [];
    // Different unknown accounts, so only the per-address counter can refuse.
    for (let i = 0; i < MAX_ATTEMPTS_IP; i++) {
      statuses.push((await signIn(i % 2 ? b : a, `nobody-${i}@example.com`, "Wrong-passw0rd")).status);
    }
    expect(statuses).toEqual(Array(MAX_ATTEMPTS_IP).fill(401));
    for (const s of [a, b]) {
      expect((await signIn(s, `nobody-next@example.com`, "Wrong-passw0rd")).status).toBe(429);
    }
  });

  it("counts the public viewer's events per address over both instances together", async () => {
    await clearCounters();
    // An unknown catalogue: each event is counted, then answered 404, and nothing is stored.
    const event = { pdfId: randomUUID(), type: "view", visitorId: "visitor-cluster" };
    const statuses: number[] = [];
    for (let i = 0; i < PUBLIC_EVENTS_PER_MINUTE; i++) {
      statuses.push((await (i % 2 ? b : a).api("POST", "/public/events", { body: event })).status);
    }
    expect(statuses.filter((s) => s !== 404)).toEqual([]);
    for (const s of [a, b]) expect((await s.api("POST", "/public/events", { body: event })).status).toBe(429);
  });
});
