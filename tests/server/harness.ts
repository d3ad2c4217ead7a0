/**
 * Boots the real app on a real database and a real loopback port for a test file.
 * `DRIVERS` lists PGlite always, and PostgreSQL when global-setup found a server, so a
 * suite written once with `describe.each(DRIVERS)` runs against both engines.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyServerOptions } from "fastify";
import { sql } from "kysely";
import { inject } from "vitest";
import type { ResourceDefinition } from "../../resources/contract";
import { type App, buildApp } from "../../server/app";
import { loadConfig } from "../../server/config";
import { type DatabaseHandle, openDatabase } from "../../server/db";
import type { RulesRegistry } from "../../server/resources/rules";
import { createTestDatabase } from "./pg";
import { freshBucket, s3Env } from "./s3";

export type Driver = "pglite" | "postgres";

const pgUrl = inject("pgUrl");
export const DRIVERS: Driver[] = pgUrl ? ["pglite", "postgres"] : ["pglite"];

export type StorageKind = "local" | "s3";
/** Both storage drivers: a temp folder, and a fresh bucket on the loopback s3rver. */
export const STORAGE_DRIVERS: StorageKind[] = ["local", "s3"];
const s3Url = inject("s3Url");

/** The migrated PGlite data folder of global-setup.ts, read once per test file. */
let pgliteTemplate: Blob | undefined;
function migratedPglite(): Blob {
  pgliteTemplate ??= new Blob([readFileSync(inject("pgliteTemplate"))]);
  return pgliteTemplate;
}

/**
 * A new DATA_DIR (a temp folder, the caller removes it) whose PGlite database is already
 * migrated, loaded from the template: a child server on it boots without running every
 * migration (several seconds of CPU each time on a busy machine).
 */
export async function migratedDataDir(prefix: string): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `atelier-${prefix}-`));
  await (await openDatabase({ databaseUrl: null, pgliteDir: dir, pgliteTemplate: migratedPglite() })).close();
  return dir;
}

export const ADMIN = { email: "admin@example.com", password: "Admin-Passw0rd!" };
export const DEVICE = { deviceId: "device-1", deviceName: "Linux Chrome" };
export const CHROME_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

export interface ApiAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestServer extends App {
  baseUrl: string;
  /** The PostgreSQL database's URL (null on PGlite), to start a second instance on it. */
  databaseUrl: string | null;
  /** The storage settings it runs with (STORAGE=s3 …; empty: a local folder of its own). */
  storageEnv: Record<string, string>;
  database: DatabaseHandle;
  api<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string; headers?: Record<string, string> },
  ): Promise<ApiAnswer<T>>;
  signIn(email?: string, password?: string, device?: typeof DEVICE): Promise<SignedIn>;
  /** Stops the server; `keepDatabase` leaves its PostgreSQL database for another instance. */
  close(options?: { keepDatabase?: boolean }): Promise<void>;
}

export interface SignedIn {
  accessToken: string;
  refreshToken: string;
  user: { userID: string };
}

export interface StartOptions {
  /** Resources to serve instead of resources/index.ts (a test-only registration). */
  resources?: readonly ResourceDefinition[];
  /** SQL run after the migrations (e.g. a throwaway entity's generated table). */
  setupSql?: string;
  /** Business rules to register instead of the default RULES. */
  rules?: RulesRegistry;
  /** Where files go: a temp folder (default) or a fresh bucket on the test S3 server. */
  storage?: StorageKind;
  /** PostgreSQL only: join this existing database (a second instance) instead of a new one. */
  databaseUrl?: string;
  /** Storage settings to share (a second instance on the first one's bucket). */
  storageEnv?: Record<string, string>;
  /** Runs after the app is built and before it listens: test-only routes or hooks. */
  beforeListen?: (built: App) => void | Promise<void>;
  /** Fastify's logger option, e.g. `{ level: "info", stream }` to capture the log; off by default. */
  logger?: FastifyServerOptions["logger"];
}

export async function startServer(
  driver: Driver,
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<TestServer> {
  let dropDb: (() => Promise<void>) | null = null;
  let databaseUrl: string | null = null;
  if (driver === "postgres") {
    if (!pgUrl) throw new Error("PostgreSQL not available");
    if (options.databaseUrl) databaseUrl = options.databaseUrl;
    else {
      const created = await createTestDatabase(pgUrl, inject("pgTemplate"));
      databaseUrl = created.url;
      dropDb = created.drop;
    }
  }
  // Every server gets its own DATA_DIR (local files), removed on close.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-test-data-"));
  const storageEnv = options.storageEnv ?? (options.storage === "s3" ? s3Env(await freshBucket(s3Url)) : {});
  const config = loadConfig({
    DATA_DIR: dataDir,
    ...storageEnv,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    PUBLIC_URL: "https://atelier.example.test",
    CLIENT_DIR: "/nonexistent-client-dir",
    ...env,
  });
  const database = await openDatabase({
    databaseUrl,
    pgliteDir: "memory://",
    pgliteTemplate: databaseUrl ? undefined : migratedPglite(),
  });
  if (options.setupSql) await sql.raw(options.setupSql).execute(database.db);
  const built = await buildApp({
    config,
    database,
    logger: options.logger ?? false,
    resources: options.resources,
    rules: options.rules,
  });
  await options.beforeListen?.(built);
  await built.app.listen({ port: 0, host: "127.0.0.1" });
  const address = built.app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;

  const api: TestServer["api"] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { "user-agent": CHROME_UA, ...(options.headers ?? {}) };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const res = await fetch(baseUrl + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: test answers are inspected loosely.
    const body = (text ? JSON.parse(text) : {}) as any;
    return { status: res.status, body, headers: res.headers };
  };

  return {
    ...built,
    baseUrl,
    databaseUrl,
    storageEnv,
    database,
    api,
    async signIn(email = ADMIN.email, password = ADMIN.password, device = DEVICE) {
      const res = await api<SignedIn>("POST", "/api/auth/signin", {
        body: { email, password, deviceInfo: device },
      });
      if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async close({ keepDatabase = false } = {}) {
      const closing = built.app.close();
      // A response a test never read (a `fetch` whose body was left) holds its connection open,
      // and a graceful close waits for it until the socket times out (over a minute). A test
      // server has nothing in flight worth waiting for.
      built.app.server.closeAllConnections();
      await closing;
      await database.close();
      if (!keepDatabase) await dropDb?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let memberSerial = 0;

/**
 * A user the admin made with these modules (role 3, a member, unless given), signed in: their
 * id, email and access token. For the "403 without the module" checks.
 *
 * @example
 * const nora = await signedInMember(s, admin, [5]); // CRM only
 * expect((await s.api("GET", "/api/automations", { token: nora.token })).status).toBe(403);
 */
export async function signedInMember(
  s: TestServer,
  adminToken: string,
  modules: number[],
  role = 3,
): Promise<{ id: string; email: string; token: string }> {
  const email = `member-${++memberSerial}-${Date.now()}@example.com`;
  const password = "Member-passw0rd-9";
  const made = await s.api("POST", "/api/users", {
    token: adminToken,
    body: { first_name: "Mem", last_name: "Ber", email, password, role, modules },
  });
  if (made.status !== 201) throw new Error(`could not make a member: ${JSON.stringify(made.body)}`);
  const session = await s.signIn(email, password, { deviceId: email, deviceName: "Linux Chrome" });
  return { id: made.body.id as string, email, token: session.accessToken };
}

/** The `details` of a user's security events of one type, oldest first (what the log recorded). */
export async function securityEventDetails(s: TestServer, type: string, userId: string): Promise<unknown[]> {
  const rows = await s.database.db
    .selectFrom("security_events")
    .select("details")
    .where("type", "=", type as never)
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .execute();
  return rows.map((row) => row.details);
}

/**
 * N instances of the server on one PostgreSQL database and (with `storage: "s3"`) one bucket,
 * as behind a load balancer: the first creates the database, the others join it. Each has its
 * own port, process-level caches and job workers; two-instance tests are built on this.
 *
 * @example
 * const [a, b] = await startInstances(2, { SESSION_CACHE_MS: "5000" }, { storage: "s3" });
 * await a.api("POST", "/api/products", { token, body }); // then observe it through b
 * // close the others before the first: closing the first drops the database
 */
export async function startInstances(
  count: number,
  env: Record<string, string> = {},
  options: Omit<StartOptions, "databaseUrl" | "storageEnv"> = {},
): Promise<TestServer[]> {
  const first = await startServer("postgres", env, options);
  const others: TestServer[] = [];
  for (let i = 1; i < count; i++) {
    others.push(
      await startServer("postgres", env, {
        ...options,
        databaseUrl: first.databaseUrl ?? undefined,
        storageEnv: first.storageEnv,
      }),
    );
  }
  return [first, ...others];
}
