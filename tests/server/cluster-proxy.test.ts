/**
 * `npm run start:cluster`'s launcher (scripts/cluster.ts) for real: two server processes on
 * one throwaway PostgreSQL database behind the launcher's proxy, and once behind a real nginx
 * running docs/deployment.md's configuration. Sign-in, list/create and health through the
 * front door; a live socket (the SPA's own client, providers/live-client.ts) receives changes
 * made through either instance; a killed instance is skipped and restarted; a rolling restart
 * under a steady stream of writes loses no acknowledged write and the socket comes back.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LiveEvent } from "@refinedev/core";
import pg from "pg";
import { io } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createLiveClient } from "../../providers/live-client";
import { SOCKET_PATH } from "../../schemas/realtime";
import { type Cluster, EXIT_CONFIG, startCluster } from "../../scripts/cluster";
import { waitFor } from "./child-server";
import { ADMIN, CHROME_UA, DEVICE } from "./harness";
import { findNginx, startNginx } from "./nginx";
import { createTestDatabase, type TestDatabase } from "./pg";

const ROOT = path.resolve(__dirname, "../..");
const pgUrl = inject("pgUrl");
/** Without nginx the nginx test is skipped on a developer's machine, but fails in CI. */
const skipNginx = !findNginx() && process.env.CI !== "true";
/** The socket client's reconnect delay: both socket.io's own and the live client's retry. */
const RECONNECT_MS = 500;
/** Slack on top of the reconnect delay for one handshake on a loaded machine. */
const HANDSHAKE_SLACK_MS = 15_000;

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Body = any;

async function call(
  base: string,
  method: string,
  urlPath: string,
  options: { token?: string; body?: unknown } = {},
) {
  const headers: Record<string, string> = { "user-agent": CHROME_UA };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await fetch(base + urlPath, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: Body = text;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    // not JSON (a proxy's own error page): kept as text
  }
  return { status: res.status, body };
}

async function signIn(base: string): Promise<string> {
  const res = await call(base, "POST", "/api/auth/signin", {
    body: { email: ADMIN.email, password: ADMIN.password, deviceInfo: DEVICE },
  });
  expect(res.status).toBe(200);
  return res.body.accessToken as string;
}

async function createCategory(base: string, token: string, name: string): Promise<string> {
  const res = await call(base, "POST", "/api/categories", { token, body: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

/** The SPA's live client on `base`, subscribed to categories, with a log of its connection. */
function liveClient(base: string, token: string) {
  const events: LiveEvent[] = [];
  let joined: readonly string[] = [];
  const drops: Array<{ at: number; back?: number; failedAttempts: number }> = [];
  const client = createLiveClient({
    createSocket: (auth) =>
      io(base, {
        path: SOCKET_PATH,
        autoConnect: false,
        auth,
        forceNew: true,
        reconnectionDelay: RECONNECT_MS,
        reconnectionDelayMax: RECONNECT_MS,
        randomizationFactor: 0,
      }),
    getAccessToken: () => token,
    refresh: async () => token,
    onLogout: () => {
      throw new Error("the live client signed out");
    },
    logError: () => {},
    retryDelayMs: RECONNECT_MS,
    onLiveResources: (resources) => {
      joined = resources;
    },
  });
  client.provider.subscribe({
    channel: "resources/categories",
    types: ["*"],
    callback: (e) => events.push(e),
  });
  const socket = client.socket;
  if (!socket) throw new Error("the live client opened no socket");
  socket.on("disconnect", () => drops.push({ at: Date.now(), failedAttempts: 0 }));
  socket.on("connect_error", () => {
    const last = drops.at(-1);
    if (last && last.back === undefined) last.failedAttempts++;
  });
  socket.on("connect", () => {
    const last = drops.at(-1);
    if (last && last.back === undefined) last.back = Date.now();
  });
  return {
    drops,
    disconnect: () => client.disconnect(),
    joined: () => waitFor("the socket to join categories", async () => joined.includes("categories"), 60_000),
    received: (id: string) =>
      waitFor(
        `a live event for category ${id}`,
        async () => events.some((e) => (e.payload.ids ?? []).map(String).includes(id)),
        30_000,
      ),
  };
}

describe.skipIf(!pgUrl)("cluster launcher: two instances on PostgreSQL", () => {
  let database: TestDatabase;
  let cluster: Cluster;
  let dataDir: string;
  const logs: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(pgUrl as string);
    dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-cluster-"));
    cluster = await startCluster({
      instances: 2,
      port: 0,
      healthIntervalMs: 200,
      log: (line) => logs.push(line),
      env: {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: "warn",
        CLIENT_DIR: "/nonexistent",
      },
    });
  }, 240_000);

  afterAll(async () => {
    await cluster?.stop();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  it("refuses more than one instance without DATABASE_URL (PGlite), exit code 78", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/cluster.ts", "--instances", "2"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(EXIT_CONFIG);
    expect(stderr).toContain("need DATABASE_URL");
    expect(stderr).toContain("PGlite");
  });

  it("serves health, sign-in, create and list through the proxy, on ports PORT+1 and PORT+2", async () => {
    const proxyPort = Number(new URL(cluster.url).port);
    expect(cluster.instances.map((i) => i.port)).toEqual([proxyPort + 1, proxyPort + 2]);
    const health = await call(cluster.url, "GET", "/api/health");
    expect(health).toEqual({ status: 200, body: { status: "ok", database: "up" } });

    const token = await signIn(cluster.url);
    const ids = [];
    for (let n = 0; n < 4; n++) ids.push(await createCategory(cluster.url, token, `Proxy category ${n}`));
    const list = await call(cluster.url, "GET", "/api/categories?pageSize=100", { token });
    expect(list.status).toBe(200);
    expect(list.body.total).toBeGreaterThanOrEqual(4);
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining(ids));
  });

  it("a live socket through the proxy receives changes made through either instance", async () => {
    // Signed in on the first instance; the token is honoured by the second one too.
    const token = await signIn(cluster.instances[0].url);
    const live = liveClient(cluster.url, token);
    try {
      await live.joined();
      // One of these two is the instance holding the socket, the other one is not.
      for (const instance of cluster.instances) {
        await live.received(await createCategory(instance.url, token, `Live via ${instance.name}`));
      }
      await live.received(await createCategory(cluster.url, token, "Live via the proxy"));
    } finally {
      live.disconnect();
    }
  });

  it.skipIf(skipNginx)("works the same through nginx with the documented configuration", async () => {
    const nginx = await startNginx(cluster.instances.map((i) => i.port));
    try {
      expect(await call(nginx.url, "GET", "/api/health")).toEqual({
        status: 200,
        body: { status: "ok", database: "up" },
      });
      const token = await signIn(nginx.url);
      const live = liveClient(nginx.url, token);
      try {
        await live.joined();
        const ids = [];
        for (const instance of cluster.instances) {
          const id = await createCategory(instance.url, token, `Nginx live via ${instance.name}`);
          await live.received(id);
          ids.push(id);
        }
        ids.push(await createCategory(nginx.url, token, "Nginx create"));
        await live.received(ids[2]);
        const list = await call(nginx.url, "GET", "/api/categories?pageSize=100", { token });
        expect(list.status).toBe(200);
        expect(list.body.data.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining(ids));
      } finally {
        live.disconnect();
      }
    } catch (error) {
      throw new Error(`${String(error)}\nnginx output:\n${nginx.output()}`);
    } finally {
      await nginx.stop();
    }
  });

  it("skips a killed instance and restarts it", async () => {
    const token = await signIn(cluster.url);
    const [first] = cluster.instances;
    first.kill("SIGKILL");
    await waitFor("the killed instance to exit", async () => !first.running(), 30_000);
    // It is out of the proxy from its exit: every request reaches the other instance.
    for (let n = 0; n < 6; n++) await createCategory(cluster.url, token, `While i1 is down ${n}`);
    expect((await call(cluster.url, "GET", "/api/health")).status).toBe(200);
    await waitFor("the launcher to restart the killed instance", async () => first.up(), 120_000, 200);
    expect(logs.join("\n")).toMatch(/\[cluster\] i1 exited \(SIGKILL\); restarting in \d+ ms/);
    expect((await call(first.url, "GET", "/api/health")).status).toBe(200);
  }, 240_000);

  it("rolling restart under writes: no acknowledged write lost, the socket reconnects", async () => {
    const token = await signIn(cluster.url);
    const live = liveClient(cluster.url, token);
    await live.joined();

    const acknowledged: string[] = [];
    const refused: number[] = [];
    let writing = true;
    let n = 0;
    const writer = async () => {
      while (writing) {
        const res = await call(cluster.url, "POST", "/api/categories", {
          token,
          body: { name: `Rolling ${n++}` },
        }).catch(() => ({ status: 0, body: {} }));
        if (res.status >= 200 && res.status < 300) acknowledged.push(res.body.id);
        else refused.push(res.status);
      }
    };
    const writers = [writer(), writer()];
    const progress = (what: string) => {
      const before = acknowledged.length;
      return waitFor(`writes to go on ${what}`, async () => acknowledged.length >= before + 5, 60_000, 50);
    };

    try {
      await progress("before the restart");
      for (const instance of cluster.instances) {
        await instance.stop();
        await progress(`while ${instance.name} is stopped`);
        await instance.start();
        await waitFor(`${instance.name} back in the proxy`, async () => instance.up(), 30_000, 50);
        await progress(`after ${instance.name} is back`);
      }
    } finally {
      writing = false;
      await Promise.all(writers);
    }

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const found = await client.query<{ id: string }>(
        "select id::text as id from categories where id = any($1::uuid[])",
        [acknowledged],
      );
      const missing = acknowledged.filter((id) => !found.rows.some((r) => r.id === id));
      expect(missing).toEqual([]);
    } finally {
      await client.end();
    }
    // A write the proxy could not deliver is answered 502, never acknowledged; report them.
    expect(refused.every((status) => status === 502 || status === 503)).toBe(true);

    try {
      // The socket was on one of the two: it dropped at least once and came back each time,
      // on its first attempt, within its reconnect delay plus one handshake.
      await waitFor(
        "the socket to be back",
        async () => live.drops.every((d) => d.back !== undefined),
        60_000,
      );
      expect(live.drops.length).toBeGreaterThanOrEqual(1);
      for (const drop of live.drops) {
        expect(drop.failedAttempts).toBe(0);
        expect((drop.back as number) - drop.at).toBeLessThan(RECONNECT_MS + HANDSHAKE_SLACK_MS);
      }
      await live.joined();
      await live.received(await createCategory(cluster.url, token, "After the rolling restart"));
    } finally {
      live.disconnect();
    }
  }, 600_000);
});
