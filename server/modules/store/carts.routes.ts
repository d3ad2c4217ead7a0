/**
 * `/api/store/carts` (issue 18): the carts list — a store's abandoned carts and the catalogue
 * viewer's carts handed to the store — with the list contract (page, pageSize, sort, filters on
 * source, status, client and dates, `q` over customer, email and order). Online store module.
 */
import type { FastifyInstance } from "fastify";
import { MODULE_IDS } from "../../../resources/modules";
import { CART_SOURCES, CART_STATUSES } from "../../../schemas/store";
import { moduleAccess } from "../../auth/access";
import type { AppContext } from "../../context";
import { notFound } from "../../http/errors";
import { type ListQuery, listPage, listQuerySchema } from "../../http/list-query";
import { cartsQuery, getCart, toStoreCart } from "./carts";

const config = { access: moduleAccess(MODULE_IDS.store) };
const security = [{ bearer: [] }];
const tags = ["online store"];

const cartSchema = {
  type: "object",
  properties: {
    id: { type: "string", format: "uuid" },
    source: { type: "string", enum: CART_SOURCES },
    status: { type: "string", enum: CART_STATUSES },
    connectionId: { type: ["string", "null"] },
    externalId: { type: ["string", "null"] },
    pdfId: { type: ["string", "null"] },
    pdfTitle: { type: ["string", "null"] },
    proposalId: { type: ["string", "null"] },
    proposalNumber: { type: ["string", "null"] },
    clientId: { type: ["string", "null"] },
    clientName: { type: ["string", "null"] },
    customerName: { type: ["string", "null"] },
    email: { type: ["string", "null"] },
    currency: { type: "string" },
    totalMinor: { type: "integer" },
    itemCount: { type: "integer" },
    items: {
      type: "array",
      items: {
        type: "object",
        properties: {
          sku: { type: "string" },
          name: { type: "string" },
          quantity: { type: "integer" },
          priceMinor: { type: "integer" },
        },
      },
    },
    checkoutUrl: { type: ["string", "null"] },
    orderId: { type: ["string", "null"] },
    cartUpdatedAt: { type: "string", format: "date-time" },
    createdAt: { type: "string", format: "date-time" },
  },
} as const;

export async function storeCartRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Querystring: ListQuery }>(
    "/api/store/carts",
    {
      config,
      schema: {
        tags,
        security,
        summary:
          "Carts: the store's abandoned carts and the catalogue viewer's, newest first (list contract)",
        querystring: listQuerySchema,
        response: {
          200: {
            type: "object",
            properties: { data: { type: "array", items: cartSchema }, total: { type: "integer" } },
          },
        },
      },
    },
    async (request) => {
      const { rows, total } = await listPage(ctx.db, cartsQuery(ctx.db), request.query, {
        table: "c",
        defaultSort: "-cart_updated_at",
        sortFields: ["cart_updated_at", "created_at", "total_minor", "item_count", "status", "source"],
        filterFields: {
          proposal_id: "uuid",
          source: "string",
          status: "string",
          client_id: "uuid",
          connection_id: "uuid",
          pdf_id: "uuid",
          currency: "string",
          total_minor: "integer",
          cart_updated_at: "date",
          created_at: "date",
        },
        search: ["customer_name", "email", "order_id", "external_id"],
      });
      return { data: rows.map((r) => toStoreCart(r as Record<string, unknown>)), total };
    },
  );

  app.get<{ Params: { id: string } }>(
    "/api/store/carts/:id",
    {
      config,
      schema: {
        tags,
        security,
        summary: "One cart with its items",
        params: {
          type: "object",
          required: ["id"],
          properties: { id: { type: "string", format: "uuid", title: "Cart" } },
        },
        response: { 200: cartSchema },
      },
    },
    async (request) => {
      const exists = await ctx.db
        .selectFrom("store_carts")
        .select("id")
        .where("id", "=", request.params.id)
        .executeTakeFirst();
      if (!exists) throw notFound("Cart not found");
      return getCart(ctx.db, exists.id);
    },
  );
}
