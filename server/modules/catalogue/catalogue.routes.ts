/** Catalogue routes beyond generic CRUD: master metadata and the product picker. */
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import { moduleAccess } from "../../auth/access";
import type { AppContext } from "../../context";
import type { ResourceServices } from "../../resources/index";
import type { AnyDb } from "../../resources/rules";

const tags = ["products"];
const security = [{ bearer: [] }];

export async function catalogueRoutes(app: FastifyInstance, ctx: AppContext, services: ResourceServices) {
  const products = services.get("products");
  if (!products) return;
  const config = { access: moduleAccess(MODULE_IDS.products) };
  const db = ctx.db as unknown as AnyDb;

  app.get(
    "/api/products/master",
    { config, schema: { tags, security, summary: "Product counts per status and category" } },
    async () => {
      const [byStatus, byCategory] = await Promise.all([
        db
          .selectFrom("products")
          .select(["status", sql<number>`count(*)::int`.as("count")])
          .groupBy("status")
          .orderBy("status")
          .execute(),
        db
          .selectFrom("categories as c")
          .leftJoin("products as p", "p.category_id", "c.id")
          .select(["c.id as category_id", "c.name", sql<number>`count(p.id)::int`.as("count")])
          .groupBy(["c.id", "c.name"])
          .orderBy("c.name")
          .execute(),
      ]);
      // The total is the sum of the per-status counts (status is never null): one statement, so
      // the two agree however many products are being written meanwhile.
      const total = byStatus.reduce((sum, row) => sum + Number(row.count), 0);
      return { total, byStatus, byCategory };
    },
  );

  app.get<{ Querystring: { q?: string; limit?: number } }>(
    "/api/products/all",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Product picker (id, SKU, name, price) for other modules",
        querystring: {
          type: "object",
          additionalProperties: false,
          properties: {
            q: { type: "string", maxLength: 200 },
            limit: { type: "integer", minimum: 1, maximum: 100, default: 20 },
          },
        },
      },
    },
    async (request) => {
      const { data, total } = await products.list({
        q: request.query.q,
        pageSize: request.query.limit,
        sort: "name",
      });
      return {
        data: data.map(({ id, sku_code, name, price, currency }) => ({
          id,
          sku_code,
          name,
          price,
          currency,
        })),
        total,
      };
    },
  );
}
