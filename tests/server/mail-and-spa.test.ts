/** Mail over a real SMTP server on loopback, and the SPA/meta.json serving rules. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./child-server";
import { sleep, startServer, type TestServer } from "./harness";
import { startSmtp, type TestSmtp } from "./smtp";

describe("mail over SMTP", () => {
  let smtp: TestSmtp;
  let received: string[];
  let s: TestServer;

  beforeAll(async () => {
    smtp = await startSmtp();
    received = smtp.received;
    s = await startServer("pglite", { SMTP_URL: smtp.url, MAIL_FROM: "Atelier <atelier@example.test>" });
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });

  it("delivers the reset mail and marks it sent in the outbox", async () => {
    await s.api("POST", "/api/auth/forgot-password", { body: { email: "admin@example.com" } });
    for (let i = 0; i < 50 && !received.length; i++) await sleep(100);
    expect(received).toHaveLength(1);
    expect(received[0]).toContain("Subject: Reset your Atelier password");
    expect(received[0]).toMatch(/https:\/\/atelier\.example\.test\/manage\/resetpassword\//);
    const admin = (await s.signIn()).accessToken;
    let status = "";
    for (let i = 0; i < 50 && status !== "sent"; i++) {
      const res = await s.api<{ data: Array<{ status: string }> }>("GET", "/api/outbox", { token: admin });
      status = res.body.data[0]?.status;
      await sleep(50);
    }
    expect(status).toBe("sent");
  });
});

describe("mail to an SMTP server that is down", () => {
  let s: TestServer;
  beforeAll(async () => {
    const port = await freePort(); // nothing listens there
    s = await startServer("pglite", { SMTP_URL: `smtp://127.0.0.1:${port}` });
  });
  afterAll(() => s?.close());

  it("keeps the mail pending with the reason, and waits by the database's clock before trying again", async () => {
    await s.api("POST", "/api/auth/forgot-password", { body: { email: "admin@example.com" } });
    await s.ctx.mailer.flush();
    const row = await s.database.db
      .selectFrom("mail_outbox")
      .select(["status", "attempts", "error", sql<boolean>`locked_until > now()`.as("waiting")])
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "pending", waiting: true });
    expect(row.attempts).toBeGreaterThanOrEqual(1);
    expect(row.error).toMatch(/ECONNREFUSED|connect/i);
  });
});

describe("SPA serving", () => {
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "atelier-spa-"));
    mkdirSync(path.join(dir, "assets"));
    mkdirSync(path.join(dir, "images"));
    writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>Atelier</title>");
    writeFileSync(path.join(dir, "assets", "app-abc123.js"), "console.log(1)");
    writeFileSync(path.join(dir, "images", "logo.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    writeFileSync(path.join(dir, "meta.json"), JSON.stringify({ buildDateTime: "2026-11-22T10:00:00.000Z" }));
    s = await startServer("pglite", { CLIENT_DIR: dir });
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("falls back to index.html for client routes and serves files with cache rules", async () => {
    for (const route of [
      "/manage/",
      "/manage/login",
      "/manage/users/edit/1",
      "/manage/resetpassword/12/abc",
    ]) {
      const res = await fetch(s.baseUrl + route);
      expect(res.status, route).toBe(200);
      expect(await res.text()).toContain("<title>Atelier</title>");
    }
    const asset = await fetch(`${s.baseUrl}/manage/assets/app-abc123.js`);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    const image = await fetch(`${s.baseUrl}/manage/images/logo.svg`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toContain("image/svg+xml");
    expect((await fetch(`${s.baseUrl}/manage/assets/missing.js`)).status).toBe(404);
  });

  it("redirects the site root to the app and serves meta.json uncached", async () => {
    const root = await fetch(`${s.baseUrl}/`, { redirect: "manual" });
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/manage/");
    const meta = await fetch(`${s.baseUrl}/meta.json`);
    expect(meta.headers.get("cache-control")).toBe("no-store");
    expect(await meta.json()).toEqual({ buildDateTime: "2026-11-22T10:00:00.000Z" });
  });
});
