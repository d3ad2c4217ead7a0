/** The engine bench's data and its floor: seeding, and bare Fastify sending the engine's SQL by hand. */
import Fastify, { type FastifyInstance } from "fastify";
import { CompiledQuery, type Kysely, type KyselyPlugin, PostgresQueryCompiler, sql } from "kysely";
import { resourceByName } from "../resources/index";
import { products as productsDef } from "../resources/products";
import type { App } from "../server/app";
import type { Database } from "../server/db";
import { EXACT_COUNT_CAP } from "../server/http/list-query";
import { ResourceService } from "../server/resources/service";
import { PAGE_SIZE, PRODUCTS } from "./resource-engine-settings";

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------

export async function seed(db: Kysely<Database>, adminId: string) {
  await sql`
    insert into categories (name, products_cat_id, created_by, updated_by)
    select 'Category ' || lpad(g::text, 2, '0'), g, ${adminId}::uuid, ${adminId}::uuid
    from generate_series(0, 19) g`.execute(db);
  // Sub-category s (0..99) belongs to category s % 20.
  await sql`
    insert into sub_categories (name, category_id, created_by, updated_by)
    select 'Sub-category ' || lpad(g::text, 3, '0'), c.id, ${adminId}::uuid, ${adminId}::uuid
    from generate_series(0, 99) g join categories c on c.products_cat_id = g % 20`.execute(db);
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
}

// ---------------------------------------------------------------------------------------------
// The floor: bare Fastify, same database handle, the engine's SQL sent by hand
// ---------------------------------------------------------------------------------------------

export const FLOOR_SQL = {
  page: `select "t".* from "products" as "t" where "t"."status" = $1 order by "t"."price" desc, "t"."id" asc limit $2 offset $3`,
  cappedCount: `select count(*)::int as "n" from (select 1 as "one" from "products" as "t" where "t"."status" = $1 limit $2) as "m"`,
  matching: `select 1 as "one" from "products" as "t" where "t"."status" = $1`,
  plainCount: `select count(*)::int as "n" from "products" where "status" = $1`,
  get: `select * from "products" where "id" = $1`,
  insert: `insert into "products" ("name", "description", "price", "currency", "category_id", "status", "sku_code", "created_by", "updated_by") values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning *`,
};

export function buildFloor(db: Kysely<Database>, adminId: string): FastifyInstance {
  const floor = Fastify({ logger: false });
  const run = <R>(text: string, params: unknown[]) => db.executeQuery<R>(CompiledQuery.raw(text, params));

  floor.get<{ Querystring: { status: string; page?: string; pageSize?: string; count?: string } }>(
    "/floor/products",
    async (request) => {
      const { status, count } = request.query;
      const page = Number(request.query.page ?? 1);
      const pageSize = Number(request.query.pageSize ?? 10);
      const pageQuery = run(FLOOR_SQL.page, [status, pageSize, (page - 1) * pageSize]);
      if (count === "plain") {
        const [rows, counted] = await Promise.all([
          pageQuery,
          run<{ n: number }>(FLOOR_SQL.plainCount, [status]),
        ]);
        return { data: rows.rows, total: counted.rows[0].n, totalExact: true };
      }
      const [rows, capped] = await Promise.all([
        pageQuery,
        run<{ n: number }>(FLOOR_SQL.cappedCount, [status, EXACT_COUNT_CAP + 1]),
      ]);
      const n = capped.rows[0].n;
      if (n <= EXACT_COUNT_CAP) return { data: rows.rows, total: n, totalExact: true };
      const plan = await run<{ "QUERY PLAN": unknown }>(`explain (format json) ${FLOOR_SQL.matching}`, [
        status,
      ]);
      const raw = plan.rows[0]["QUERY PLAN"];
      const parsed = (typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{
        Plan: { "Plan Rows": number };
      }>;
      return {
        data: rows.rows,
        total: Math.max(Math.round(parsed[0].Plan["Plan Rows"]), n),
        totalExact: false,
      };
    },
  );

  floor.get<{ Params: { id: string } }>("/floor/products/:id", async (request, reply) => {
    const { rows } = await run(FLOOR_SQL.get, [request.params.id]);
    if (!rows.length) return reply.status(404).send({ message: "not found" });
    return rows[0];
  });

  const insertParams = (b: Record<string, unknown>) => [
    b.name,
    b.description,
    b.price,
    b.currency,
    b.category_id,
    b.status,
    b.sku_code,
    adminId,
    adminId,
  ];
  floor.post<{ Body: Record<string, unknown> }>("/floor/products", async (request, reply) => {
    const { rows } = await run(FLOOR_SQL.insert, insertParams(request.body));
    return reply.status(201).send(rows[0]);
  });
  // Extra: the same insert wrapped in begin/commit, as the engine writes.
  floor.post<{ Body: Record<string, unknown> }>("/floor/products-tx", async (request, reply) => {
    const row = await db
      .transaction()
      .execute(
        async (trx) =>
          (await trx.executeQuery(CompiledQuery.raw(FLOOR_SQL.insert, insertParams(request.body)))).rows[0],
      );
    return reply.status(201).send(row);
  });
  return floor;
}

/** Runs the engine's service once with a query-capturing plugin and compares its SQL with the floor's. */
export async function checkSql(
  built: App,
  adminId: string,
  categoryId: string,
  overCap: boolean,
): Promise<string[]> {
  const captured: string[] = [];
  const compiler = new PostgresQueryCompiler();
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      captured.push(compiler.compileQuery(args.node, args.queryId).sql);
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
  const db = built.ctx.db.withPlugin(plugin);
  const service = new ResourceService({ ...built.ctx, db }, productsDef, resourceByName, {});
  const filters = JSON.stringify([{ field: "status", operator: "eq", value: "active" }]);
  await service.list({ page: 1, pageSize: PAGE_SIZE, sort: "-price", filters });
  const afterList = captured.length;
  await service.get((await service.list({ pageSize: 1 })).data[0].id as string);
  const afterGet = captured.length;
  const created = await service.create({ ...createBody(categoryId), sku_code: "BENCH-SQL-CHECK" }, adminId);
  await service.remove([created.id as string], adminId, true);
  const has = (text: string, from: number, to: number) => captured.slice(from, to).includes(text);
  return [
    `list page query     ${has(FLOOR_SQL.page, 0, afterList) ? "same" : "DIFFERENT"}`,
    `list capped count   ${has(FLOOR_SQL.cappedCount, 0, afterList) ? "same" : "DIFFERENT"}`,
    `list explain (>cap) ${overCap ? (has(FLOOR_SQL.matching, 0, afterList) ? "same" : "DIFFERENT") : "not sent (matches under the cap)"}`,
    `get one             ${has(FLOOR_SQL.get, afterList, afterGet) ? "same" : "DIFFERENT"}`,
    `create insert       ${has(FLOOR_SQL.insert, afterGet, captured.length) ? "same" : "DIFFERENT"} (one statement: no rule needs a read first)`,
  ];
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
