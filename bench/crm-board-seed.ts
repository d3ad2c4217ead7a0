/**
 * Open opportunities for the pipeline board's bench (bench/crm-board.ts) and screenshots: the
 * app in this process on an in-memory PGlite, serving the built SPA, with `opportunities`
 * opportunities (and one client for every ten) written by SQL in one statement each — spread
 * over the default stages, mostly in INR, some in USD, owned by the admin or nobody, closing
 * over the next year.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { type App, buildApp } from "../server/app";
import { loadConfig } from "../server/config";
import { openDatabase } from "../server/db";

export const BENCH_ADMIN = { email: "admin@example.com", password: "Bench-Passw0rd!" };

export interface BoardServer {
  origin: string;
  app: App;
  close(): Promise<void>;
}

/** Starts the app on `port` (0: any) serving `clientDir`, with the board seeded. */
export async function startBoardServer(options: {
  clientDir: string;
  opportunities: number;
  port?: number;
}): Promise<BoardServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-crm-board-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    CLIENT_DIR: options.clientDir,
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    PUBLIC_URL: "http://127.0.0.1",
    LOG_LEVEL: "warn",
  });
  const database = await openDatabase({ databaseUrl: null, pgliteDir: "memory://" });
  const app = await buildApp({ config, database, logger: false });
  await app.app.listen({ port: options.port ?? 0, host: "127.0.0.1" });
  const address = app.app.server.address();
  const origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  await seedBoard(app, options.opportunities);
  return {
    origin,
    app,
    async close() {
      await app.app.close();
      await database.close().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Writes the clients and open opportunities (the dropdowns are seeded by the CRM at start). */
export async function seedBoard(app: App, opportunities: number): Promise<void> {
  const db = app.ctx.db;
  const admin = await db.selectFrom("users").select("id").executeTakeFirstOrThrow();
  const clients = Math.max(1, Math.ceil(opportunities / 10));
  await sql`
    insert into clients (name, email, company, tags)
    select 'Client ' || n, 'client' || n || '@example.com',
           (array['Rao Textiles', 'Shah Steel', 'Kumar Foods', 'Mehta Exports', null])[1 + n % 5],
           '[]'::jsonb
    from generate_series(1, ${clients}) as n`.execute(db);
  await sql`
    with c as (select id, row_number() over (order by name) as rn from clients)
    insert into opportunities (title, client_id, value, currency, stage, owner_id, expected_close, position)
    select
      (array['Annual contract', 'Catalogue print run', 'Website refresh', 'Trade fair stand', 'Spring collection'])[1 + n % 5]
        || ' #' || n,
      c.id,
      round((1000 + (n * 7919) % 500000)::numeric, 2),
      case when n % 10 = 0 then 'USD' else 'INR' end,
      (array['new', 'qualified', 'proposal', 'negotiation'])[1 + n % 4],
      case when n % 3 = 0 then null else ${admin.id}::uuid end,
      current_date + (n % 365),
      n * 1024
    from generate_series(1, ${opportunities}) as n
    join c on c.rn = 1 + n % ${clients}`.execute(db);
}
