/**
 * The server survives its PostgreSQL database: two real server processes share a database
 * on a throwaway cluster of their own, which the test then takes away from under them,
 * (1) by terminating every backend (pg_terminate_backend), (2) by stopping the cluster and
 * starting it again on the same port, politely (`fast`) and as a crash (`immediate`).
 *
 * Each time: both processes stay alive; while the database is down every request answers
 * 503 with Retry-After within a bound, and /api/health says "down"; when it is back they
 * recover by themselves (health 200, a session signed in before the outage works), and a
 * sign-out through one process reaches the other long before its session cache would expire,
 * which proves the LISTEN connection re-subscribed.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { findPgBin, type PgCluster, startPgCluster, withPgClient } from "../../scripts/pg-cluster";
import { makeCataloguePdf } from "../fixtures/make-pdf";
import { type ChildServer, freePort, GiveUp, spawnServer, waitFor } from "./child-server";
import { ADMIN } from "./harness";
import { freshBucket, s3Env } from "./s3";

const bin = findPgBin();
/** Long, so that only a NOTIFY can make the other process forget a session in time. */
const SESSION_CACHE_MS = 120_000;
/** Longest a request may take while the database is down (the pool's connect bound is 5 s). */
const OUTAGE_ANSWER_BOUND_MS = 10_000;
const UNAVAILABLE = "The database is unavailable right now. Please try again in a moment.";
const DB_NAME = "atelier_loss";

interface Session {
  accessToken: string;
}

const sidOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")).sid;

describe.skipIf(!bin)("the server survives its PostgreSQL database going away", () => {
  let cluster: PgCluster;
  let databaseUrl: string;
  /**
   * One bucket for every process, as instances behind a load balancer share their files: a
   * job another process takes must find the file the first one stored.
   */
  let storageEnv: Record<string, string>;
  const servers: ChildServer[] = [];
  let a: ChildServer;
  let b: ChildServer;

  async function start(): Promise<ChildServer> {
    const server = spawnServer(await freePort(), {
      ...storageEnv,
      DATABASE_URL: databaseUrl,
      SESSION_CACHE_MS: String(SESSION_CACHE_MS),
      AUTH_MAX_ATTEMPTS: "1000",
      AUTH_MAX_ATTEMPTS_IP: "10000",
      // info: the job queue says when it fails and when it takes jobs again.
      LOG_LEVEL: "info",
    });
    servers.push(server);
    await server.waitHealthy(90_000);
    return server;
  }

  async function signIn(server: ChildServer, deviceId: string): Promise<Session> {
    const res = await server.api("POST", "/api/auth/signin", {
      body: { email: ADMIN.email, password: ADMIN.password, deviceInfo: { deviceId, deviceName: "Test" } },
    });
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Session;
  }

  /** Neither process died, and nothing went unhandled in either. */
  function expectBothAlive() {
    for (const server of servers) {
      expect(server.running(), server.output()).toBe(true);
      expect(server.output()).not.toContain("unhandled promise rejection");
      expect(server.output()).not.toMatch(/Unhandled 'error' event|uncaughtException/);
    }
  }

  /** Whether the job queue's last word was a failure to take jobs (logged once per outage). */
  function queueFailing(server: ChildServer): boolean {
    const out = server.output();
    return (
      out.lastIndexOf("job queue: could not take jobs") > out.lastIndexOf("job queue: taking jobs again")
    );
  }

  async function waitQueue(failing: boolean) {
    for (const server of servers) {
      await waitFor(
        failing ? "the job queue to meet the outage" : "the job queue to take jobs again",
        async () => queueFailing(server) === failing,
        60_000,
      );
    }
  }

  /** Polls until `server` answers a signed-in request with 200; every answer meanwhile must be 200 or 503. */
  async function expectRecovers(server: ChildServer, token: string) {
    const seen = new Set<number>();
    let last: unknown;
    await waitFor(
      "a signed-in request to succeed again",
      async () => {
        if (!server.running()) throw new GiveUp(`the server process died:\n${server.output().slice(-4000)}`);
        const res = await server.api("GET", "/api/users?pageSize=1", { token });
        seen.add(res.status);
        last = res.body;
        return res.status === 200;
      },
      60_000,
    ).catch((error) => {
      throw new Error(`${error.message}; last answer ${JSON.stringify(last)}`);
    });
    expect([...seen].filter((status) => status !== 200 && status !== 503)).toEqual([]);
  }

  /**
   * A sign-out through `from` reaches `to`. First makes sure `to` caches sessions again
   * (it only does while its LISTEN connection is up): a session revoked behind its back, in
   * SQL without a NOTIFY, is still accepted from its cache. Then a real sign-out through
   * `from` must be refused by `to` well within SESSION_CACHE_MS: only the NOTIFY can do that.
   */
  async function expectRevocationReaches(from: ChildServer, to: ChildServer, label: string) {
    let round = 0;
    await waitFor(
      "the second process to cache sessions again (its LISTEN connection is back)",
      async () => {
        const probe = await signIn(from, `probe-${label}-${round++}`);
        if ((await to.api("GET", "/api/users/me", { token: probe.accessToken })).status !== 200) return false;
        await withPgClient(databaseUrl, (c) =>
          c.query("update sessions set revoked_at = now(), revoked_reason = 'test' where id = $1", [
            sidOf(probe.accessToken),
          ]),
        );
        return (await to.api("GET", "/api/users/me", { token: probe.accessToken })).status === 200;
      },
      60_000,
      250,
    );

    const session = await signIn(from, `revoke-${label}`);
    expect((await to.api("GET", "/api/users/me", { token: session.accessToken })).status).toBe(200);
    const out = await from.api("POST", "/clients/logout", { token: session.accessToken, body: {} });
    expect(out.status).toBe(204);
    const signedOutAt = Date.now();
    await waitFor(
      "the sign-out to reach the other process",
      async () => (await to.api("GET", "/api/users/me", { token: session.accessToken })).status === 406,
      SESSION_CACHE_MS / 4,
    );
    expect(Date.now() - signedOutAt).toBeLessThan(SESSION_CACHE_MS / 4);
  }

  beforeAll(async () => {
    if (!bin) return;
    cluster = await startPgCluster(bin, {
      tempPrefix: "atelier-pg-loss-",
      // No synchronous_commit=off: the `immediate` stop is a crash, and would lose the
      // sessions signed in just before it.
      settings: { fsync: "off", full_page_writes: "off" },
    });
    await withPgClient(cluster.url, (c) => c.query(`create database ${DB_NAME}`));
    const url = new URL(cluster.url);
    url.pathname = `/${DB_NAME}`;
    databaseUrl = url.toString();
    storageEnv = s3Env(await freshBucket(inject("s3Url")));
    // One after the other: both would run the migrations otherwise.
    a = await start();
    b = await start();
  }, 240_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    cluster?.stop();
  }, 60_000);

  it("a terminated connection (pg_terminate_backend) kills no process, and sessions still reach every process", async () => {
    const { accessToken } = await signIn(a, "device-terminate");
    for (const server of [a, b]) {
      expect((await server.api("GET", "/api/users?pageSize=1", { token: accessToken })).status).toBe(200);
    }

    const terminated = await withPgClient(cluster.url, async (c) => {
      const res = await c.query<{ n: number }>(
        "select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [DB_NAME],
      );
      return res.rows[0].n;
    });
    // At least each process's pooled connection and its LISTEN connection.
    expect(terminated).toBeGreaterThanOrEqual(4);

    for (const server of [a, b]) await expectRecovers(server, accessToken);
    await expectRevocationReaches(a, b, "terminate");
    expectBothAlive();
  }, 180_000);

  it.each(["fast", "immediate"] as const)(
    "a database restart (%s): 503 with Retry-After while it is down, recovery by itself after",
    async (mode) => {
      const { accessToken } = await signIn(a, `device-restart-${mode}`);
      await waitQueue(false);
      cluster.stopServer(mode);
      try {
        for (const server of [a, b]) {
          const health = await server.api("GET", "/api/health");
          expect(health.status).toBe(503);
          expect(health.body).toEqual({ status: "unavailable", database: "down" });

          const answers = await Promise.all([
            server.api("GET", "/api/users?pageSize=1", { token: accessToken }),
            server.api("GET", "/api/users/me", { token: accessToken }),
            server.api("POST", "/api/auth/signin", {
              body: {
                email: ADMIN.email,
                password: ADMIN.password,
                deviceInfo: { deviceId: "x", deviceName: "x" },
              },
            }),
          ]);
          for (const res of answers) {
            expect(res.status).toBe(503);
            expect(res.body).toMatchObject({
              statusCode: 503,
              error: "Service Unavailable",
              message: UNAVAILABLE,
            });
            expect(res.headers.get("retry-after")).toBe("5");
            expect(res.ms).toBeLessThan(OUTAGE_ANSWER_BOUND_MS);
          }
        }
        // Let the background loops meet the outage too: each process's job queue reports it.
        await waitQueue(true);
        expectBothAlive();
      } finally {
        cluster.startServer();
      }

      for (const server of [a, b]) {
        await waitFor(
          "/api/health to answer 200 again",
          async () => {
            if (!server.running())
              throw new GiveUp(`the server process died:\n${server.output().slice(-4000)}`);
            const health = await server.api("GET", "/api/health");
            return health.status === 200 && health.body.database === "up";
          },
          60_000,
        );
        // The session signed in before the outage works on both, without a restart.
        await expectRecovers(server, accessToken);
      }
      await expectRevocationReaches(b, a, `restart-${mode}`);
      // The job queue's loop found its way back by itself.
      await waitQueue(false);
      expectBothAlive();
    },
    240_000,
  );

  it("a server started while the database is down waits for it, then starts by itself", async () => {
    cluster.stopServer("fast");
    let late: ChildServer | null = null;
    try {
      late = spawnServer(await freePort(), { ...storageEnv, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" });
      servers.push(late);
      const waiting = late;
      await waitFor(
        "the new process to say it waits for the database",
        async () => {
          if (!waiting.running()) throw new GiveUp(`it exited instead:\n${waiting.output().slice(-2000)}`);
          return waiting.output().includes("Waiting for the database");
        },
        60_000,
      );
    } finally {
      cluster.startServer();
    }
    await late.waitHealthy(90_000);
    const me = await signIn(late, "device-late-start");
    expect((await late.api("GET", "/api/users/me", { token: me.accessToken })).status).toBe(200);
    expectBothAlive();
  }, 180_000);

  it("jobs run again after the outage", async () => {
    const { accessToken } = await signIn(a, "device-jobs");
    const form = new FormData();
    const pdf = await makeCataloguePdf({ pages: 2 });
    form.append("file", new Blob([new Uint8Array(pdf)], { type: "application/pdf" }), "after-outage.pdf");
    const created = await fetch(`http://127.0.0.1:${a.port}/api/pdfs`, {
      method: "POST",
      headers: { authorization: `Bearer ${accessToken}` },
      body: form,
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const status = await waitFor(
      "the PDF to be processed",
      async () => {
        const res = await a.api("GET", `/api/pdfs/${id}`, { token: accessToken });
        if (res.status === 200 && res.body.pdflist_status === "ready") return res.body.pdflist_status;
        // Thrown, so that a time-out says where the processing stood.
        throw new Error(`${res.status} ${res.body.pdflist_status}: ${res.body.processing_text}`);
      },
      90_000,
      200,
    );
    expect(status).toBe("ready");
    expectBothAlive();
  }, 120_000);
});
