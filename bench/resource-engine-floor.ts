/**
 * The engine bench's data and its floor.
 *
 * The floor is a bare Fastify 5 server in a process of its own (this file, forked with
 * `--floor-child`) that sends ONE SQL statement per route by hand: no auth, no validation, no
 * response schema, no hooks. On PostgreSQL it has its own `pg` Pool (max 10, as the engine's)
 * on the same database, so it reads the same rows; on PGlite it owns a PGlite of its own,
 * migrated and seeded with the same rows by the same `seed` (PGlite is one backend in one
 * process: it cannot be shared with another process, and sharing the engine's in-process
 * instance would put the floor on the engine's thread). It serves the module lists' floor
 * routes too (bench/module-lists.ts), with their rows seeded by the same `seed` after the rows
 * the app made through its admin API are copied in (`copyRows`). The database handle, the
 * fork, the listen and the copy are shared with the CMS bench's floor (bench/cms-public-floor.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import Fastify, { type FastifyInstance } from "fastify";
import { Kysely, sql } from "kysely";
import pg from "pg";
import { type Database, migrate } from "../server/db";
import { PGliteDialect } from "../server/db/pglite-dialect";
import { PGLITE_EXTENSIONS } from "../server/db/pglite-extensions";
import { ForkedServer, serveForked } from "./bench-run";
import { moduleFloorRoutes } from "./module-lists";
import { MODULE_FIXTURE_TABLES, seedModules } from "./module-lists-seed";
import { PAGE_SIZE, PRODUCTS } from "./resource-engine-settings";

// ---------------------------------------------------------------------------------------------
// Seeding (the engine's database, and the floor's own PGlite)
// ---------------------------------------------------------------------------------------------

/**
 * The products (and their categories); with `modules`, the module lists' rows too
 * (bench/module-lists-seed.ts: their type and form must be there).
 */
export async function seed(db: Kysely<Database>, adminId: string, modules = false) {
  await sql`
    insert into categories (name, products_cat_id, created_by, updated_by)
    select 'Category ' || lpad(g::text, 2, '0'), g + 1, ${adminId}::uuid, ${adminId}::uuid
    from generate_series(0, 19) g`.execute(db);
  // Sub-category s (0..99) belongs to category s % 20.
  await sql`
    insert into sub_categories (name, category_id, created_by, updated_by)
    select 'Sub-category ' || lpad(g::text, 3, '0'), c.id, ${adminId}::uuid, ${adminId}::uuid
    from generate_series(0, 99) g join categories c on c.products_cat_id = g % 20 + 1`.execute(db);
  // Product g: sub-category g % 100 (so category g % 20), status draft/active/archived by g % 3.
  const batch = 20_000;
  for (let from = 0; from < PRODUCTS; from += batch) {
    const to = Math.min(from + batch, PRODUCTS) - 1;
    await sql`
      insert into products (sku_code, name, description, price, currency, category_id, sub_category_id, status,
                            images, created_by, updated_by, created_at, updated_at)
      select 'SKU-' || lpad(g::text, 7, '0'),
             'Product ' || g,
             'Seeded product number ' || g || ' for the resource engine benchmark',
             ((g * 7919) % 100000) / 100.0 + 1,
             (array['INR', 'USD', 'EUR', 'GBP'])[g % 4 + 1],
             s.category_id,
             s.id,
             (array['draft', 'active', 'archived'])[g % 3 + 1],
             case when g % 5 = 0 then jsonb_build_array('https://cdn.example.com/p/' || g || '.jpg') end,
             ${adminId}::uuid, ${adminId}::uuid,
             now() - make_interval(secs => g), now() - make_interval(secs => g)
      from generate_series(${from}::int, ${to}::int) g
      join (select id, category_id, (row_number() over (order by name))::int - 1 as n from sub_categories) s
        on s.n = g % 100`.execute(db);
  }
  await sql`vacuum analyze categories`.execute(db);
  await sql`vacuum analyze sub_categories`.execute(db);
  await sql`vacuum analyze products`.execute(db);
  if (modules) await seedModules(db, adminId);
}

/** Rows by table, as JSON: what a floor's own PGlite gets copied in (copyRows). */
export type TableRows = Record<string, unknown[]>;

/** The rows of `tables` in the database of `db` (the engine's), for a floor's own PGlite. */
export async function exportRows(db: Kysely<Database>, tables: readonly string[]): Promise<TableRows> {
  const rows: TableRows = {};
  for (const table of tables) {
    const r = await sql<{ rows: unknown[] | string }>`
      select coalesce(jsonb_agg(to_jsonb(t)), '[]'::jsonb) as rows from ${sql.table(table)} t`.execute(db);
    const value = r.rows[0].rows;
    rows[table] = typeof value === "string" ? JSON.parse(value) : value;
  }
  return rows;
}

/**
 * Inserts exported rows into a floor's own PGlite, `tables` in an order their references
 * allow; references to rows not copied are not checked (`session_replication_role = replica`).
 */
export async function copyRows(query: Query, rows: TableRows, tables: readonly string[]): Promise<void> {
  // One PGlite, one session: the setting holds for the inserts that follow.
  await query("set session_replication_role = replica", []);
  for (const table of tables) {
    await query(`insert into ${table} select * from jsonb_populate_recordset(null::${table}, $1::jsonb)`, [
      JSON.stringify(rows[table] ?? []),
    ]);
  }
  await query("set session_replication_role = origin", []);
}

/** One statement, as the floor sends it (pg.Pool#query, PGlite#query). */
export type Query = (text: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/** What the get and update cases rotate over, and what a create refers to. */
export interface BenchData {
  /** 100 product ids (the same sku range on either database). */
  ids: string[];
  categoryId: string;
}

export async function benchData(query: Query): Promise<BenchData> {
  const category = await query("select id from categories order by name limit 1", []);
  const ids = await query("select id from products order by sku_code limit 100 offset 1000", []);
  return { ids: ids.rows.map((r) => String(r.id)), categoryId: String(category.rows[0].id) };
}

export const createBody = (categoryId: string) => ({
  name: "Bench product",
  description: "Created by the resource engine benchmark",
  price: 12.5,
  currency: "USD",
  category_id: categoryId,
  status: "draft",
  sku_code: "placeholder",
});

/** An update's body; `name` is replaced by a new one per request. */
export const updateBody = { name: "placeholder", price: 19.99 };

// ---------------------------------------------------------------------------------------------
// The floor server: one statement per route
// ---------------------------------------------------------------------------------------------

export const FLOOR_SQL = {
  // The total as a scalar subquery: computed once (an InitPlan) beside the top-N sort of the page.
  list: `select "t".*, (select count(*)::int from "products" where "status" = $1) as "total" from "products" as "t" where "t"."status" = $1 order by "t"."price" desc, "t"."id" asc limit $2 offset $3`,
  get: `select * from "products" where "id" = $1`,
  insert: `insert into "products" ("name", "description", "price", "currency", "category_id", "status", "sku_code", "created_by", "updated_by") values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning *`,
  update: `update "products" set "name" = $1, "price" = $2, "updated_at" = now(), "updated_by" = $3 where "id" = $4 returning *`,
};

function floorServer(query: Query, adminId: string): FastifyInstance {
  const floor = Fastify({ logger: false });

  floor.get<{ Querystring: { status: string; page?: string; pageSize?: string } }>(
    "/floor/products",
    async (request) => {
      const page = Number(request.query.page ?? 1);
      const pageSize = Number(request.query.pageSize ?? PAGE_SIZE);
      const { rows } = await query(FLOOR_SQL.list, [request.query.status, pageSize, (page - 1) * pageSize]);
      const total = rows.length ? Number(rows[0].total) : 0;
      const data = rows.map(({ total: _, ...row }) => row);
      return { data, total, totalExact: true };
    },
  );

  floor.get<{ Params: { id: string } }>("/floor/products/:id", async (request, reply) => {
    const { rows } = await query(FLOOR_SQL.get, [request.params.id]);
    if (!rows.length) return reply.status(404).send({ message: "not found" });
    return rows[0];
  });

  floor.post<{ Body: Record<string, unknown> }>("/floor/products", async (request, reply) => {
    const b = request.body;
    const { rows } = await query(FLOOR_SQL.insert, [
      b.name,
      b.description,
      b.price,
      b.currency,
      b.category_id,
      b.status,
      b.sku_code,
      adminId,
      adminId,
    ]);
    return reply.status(201).send(rows[0]);
  });

  floor.patch<{ Params: { id: string }; Body: Record<string, unknown> }>(
    "/floor/products/:id",
    async (request, reply) => {
      const b = request.body;
      const { rows } = await query(FLOOR_SQL.update, [b.name, b.price, adminId, request.params.id]);
      if (!rows.length) return reply.status(404).send({ message: "not found" });
      return rows[0];
    },
  );
  moduleFloorRoutes(floor, query);
  return floor;
}

// ---------------------------------------------------------------------------------------------
// The floor's process
// ---------------------------------------------------------------------------------------------

export interface FloorStart {
  /** postgres:// URL of the engine's database; null: a PGlite of the floor's own. */
  databaseUrl: string | null;
  /** PGlite only: keep it in memory rather than in a temp data dir. */
  inMemory: boolean;
  /** PostgreSQL only: the admin the engine's database was seeded with. */
  adminId?: string;
  /**
   * PGlite only, with module cases: the rows the app made through its admin API that the module
   * lists' rows refer to (MODULE_FIXTURE_TABLES), copied in before seeding them.
   */
  fixtures?: TableRows;
}

export interface FloorReady extends BenchData {
  url: string;
  where: string;
}

/** A floor's own handle on the database: statements go straight to the driver. */
export interface FloorDatabase {
  query: Query;
  /** Where its rows are, as printed. */
  where: string;
  /** A PGlite of its own only: the Kysely it was migrated with, to fill it. */
  pgliteDb: Kysely<Database> | null;
  /** A PGlite of its own only: the instance (for its transactions). */
  pglite: PGlite | null;
  closers: Array<() => Promise<void> | void>;
}

/**
 * PostgreSQL: a `pg` Pool (max 10, as the engine's) on the engine's database. PGlite: a PGlite
 * of the floor's own (in memory or a temp data dir), migrated (unless `migrate: false`: a floor
 * that makes its own table), for the caller to fill.
 */
export async function openFloorDatabase(
  start: Pick<FloorStart, "databaseUrl" | "inMemory">,
  options: { migrate?: boolean } = {},
): Promise<FloorDatabase> {
  const closers: FloorDatabase["closers"] = [];
  if (start.databaseUrl) {
    const pool = new pg.Pool({ connectionString: start.databaseUrl, max: 10 });
    pool.on("error", () => {});
    closers.push(() => pool.end());
    const query: Query = (text, params) => pool.query(text, params);
    return {
      query,
      where: "own pg.Pool (max 10) on the same database",
      pgliteDb: null,
      pglite: null,
      closers,
    };
  }
  const dir = start.inMemory ? null : mkdtempSync(path.join(os.tmpdir(), "atelier-bench-floor-"));
  if (dir) closers.push(() => rmSync(dir, { recursive: true, force: true }));
  const pglite = await PGlite.create(dir ? path.join(dir, "pglite") : "memory://", {
    extensions: PGLITE_EXTENSIONS,
  });
  closers.unshift(() => pglite.close());
  // Kysely builds the schema and the rows only; requests go straight to PGlite.
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  if (options.migrate !== false) await migrate(db);
  const query: Query = (text, params) => pglite.query<Record<string, unknown>>(text, params);
  return {
    query,
    where: `own PGlite (${dir ? `data dir ${dir}` : "in memory"})`,
    pgliteDb: db,
    pglite,
    closers,
  };
}

/** Listens on a free loopback port; the URL, and a close of the server then of `closers`. */
export async function listenFloor(server: FastifyInstance, closers: FloorDatabase["closers"]) {
  closers.unshift(() => server.close());
  await server.listen({ port: 0, host: "127.0.0.1" });
  return {
    url: `http://127.0.0.1:${(server.server.address() as net.AddressInfo).port}`,
    close: async () => {
      for (const c of closers) await c();
    },
  };
}

async function startFloor(start: FloorStart): Promise<{ ready: FloorReady; close: () => Promise<void> }> {
  const { query, where, pgliteDb, closers } = await openFloorDatabase(start);
  let adminId = start.adminId ?? "";
  if (pgliteDb) {
    const admin = await sql<{ id: string }>`
      insert into users (email, first_name, last_name, password_hash, role)
      values ('floor@example.com', 'Floor', 'Bench', 'x', 2) returning id`.execute(pgliteDb);
    adminId = admin.rows[0].id;
    if (start.fixtures) await copyRows(query, start.fixtures, MODULE_FIXTURE_TABLES);
    await seed(pgliteDb, adminId, Boolean(start.fixtures));
  }
  const data = await benchData(query);
  const { url, close } = await listenFloor(floorServer(query, adminId), closers);
  return { ready: { url, where: pgliteDb ? `${where}, seeded the same way` : where, ...data }, close };
}

/** The floor's process, as the parent drives it. */
export type FloorProcess = ForkedServer<FloorReady>;

export const startFloorProcess = (start: FloorStart): Promise<FloorProcess> =>
  ForkedServer.start<FloorStart, FloorReady>(import.meta.url, "--floor-child", start);

if (process.argv[2] === "--floor-child") serveForked(startFloor);
