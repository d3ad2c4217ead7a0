/**
 * `GET /api/health` for load balancers and orchestrators: 200 `{ status: "ok", database: "up" }`
 * when a `select 1` answers within a short bound, else 503 `{ status: "unavailable",
 * database: "down" }` with Retry-After. Public, and cheap: concurrent probes share one query,
 * so a flood of them holds at most one database connection.
 */
import type { FastifyInstance } from "fastify";
import { type Kysely, sql } from "kysely";
import type { Database } from "../db";
import { DATABASE_RETRY_AFTER_S } from "../db/unavailable";

/** How long the probe waits for the database, ms: well under a load balancer's own timeout. */
export const HEALTH_TIMEOUT_MS = 2000;

/** Resolves true when the database answers within `timeoutMs`, false otherwise (never rejects). */
export async function databaseAnswers(db: Kysely<Database>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const probe = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([probe, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function healthRoutes(app: FastifyInstance, db: Kysely<Database>): Promise<void> {
  let inFlight: Promise<boolean> | null = null;
  const check = () => {
    inFlight ??= databaseAnswers(db, HEALTH_TIMEOUT_MS).finally(() => {
      inFlight = null;
    });
    return inFlight;
  };

  app.get(
    "/api/health",
    { config: { access: { kind: "public" } }, schema: { hide: true } },
    async (_req, reply) => {
      reply.header("cache-control", "no-store");
      if (await check()) return { status: "ok", database: "up" };
      reply.status(503).header("retry-after", String(DATABASE_RETRY_AFTER_S));
      return { status: "unavailable", database: "down" };
    },
  );
}
