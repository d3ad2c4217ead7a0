/**
 * The catalogue viewer's checkout (issue 18): `POST /public/pdfs/{ref}/checkout` hands a
 * visitor's cart to the default store — its products found there by SKU — and answers the store's
 * checkout link, to which the viewer sends the visitor. The cart joins the carts list (source
 * "catalogue", "Sent to checkout"); the store's `store/cart/converted` webhook later makes it an
 * order. Public, rate limited per address; only products the catalogue's hotspots show, priced
 * by the store.
 */
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { UUID } from "../../../schemas/uuid";
import { markScopePublic } from "../../auth/access";
import { hit } from "../../auth/rate-limit";
import type { AppContext } from "../../context";
import { badRequest, conflict, HttpError, notFound } from "../../http/errors";
import { minorOf } from "./carts";
import type { StoreConnections } from "./connections.service";
import { type StoreCart, type StoreItem, StoreProblem } from "./platforms";

/** Checkouts one address may start per minute. */
export const CHECKOUTS_PER_MINUTE = 10;
const MAX_LINES = 100;
const MAX_QUANTITY = 999;

interface CheckoutBody {
  lines: { productId: string; quantity: number }[];
}

export async function storeCheckoutRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  connections: StoreConnections,
) {
  await app.register(async (scope) => {
    markScopePublic(scope);
    scope.post<{ Params: { ref: string }; Body: CheckoutBody }>(
      "/public/pdfs/:ref/checkout",
      {
        // A visitor's retried click makes one cart.
        config: { idempotent: true },
        schema: {
          tags: ["public"],
          summary: "Hand a catalogue viewer's cart to the online store; answers its checkout link",
          params: {
            type: "object",
            required: ["ref"],
            properties: { ref: { type: "string", minLength: 1, maxLength: 200 } },
          },
          body: {
            type: "object",
            additionalProperties: false,
            required: ["lines"],
            properties: {
              lines: {
                type: "array",
                minItems: 1,
                maxItems: MAX_LINES,
                items: {
                  type: "object",
                  additionalProperties: false,
                  required: ["productId", "quantity"],
                  properties: {
                    productId: { type: "string", format: "uuid", title: "Product" },
                    quantity: { type: "integer", minimum: 1, maximum: MAX_QUANTITY, title: "Quantity" },
                  },
                },
              },
            },
          },
        },
      },
      async (request) => {
        if ((await hit(ctx.db, `store-checkout:${request.ip}`, 60)) > CHECKOUTS_PER_MINUTE)
          throw new HttpError(429, "Too many checkouts from this address: try again in a minute");
        const { ref } = request.params;
        const pdf = await ctx.db
          .selectFrom("pdfs")
          .select(["id", "name"])
          .where((eb) => (UUID.test(ref) ? eb("id", "=", ref) : eb("slug", "=", ref)))
          .where("pdfstatus", "=", true)
          .where("pdflist_status", "=", "ready")
          .executeTakeFirst();
        if (!pdf) throw notFound("This catalogue is not published");
        const { lines } = request.body;
        const ids = lines.map((l) => l.productId);
        const links = await ctx.db
          .selectFrom("pdf_links")
          .select("target")
          .where("pdf_id", "=", pdf.id)
          .execute();
        const inCatalogue = new Set(
          links.map((l) => l.target.productId).filter((v) => typeof v === "string"),
        );
        const wanted = ids.filter((id) => inCatalogue.has(id));
        // Products are a resource of the engine (no static table type): read as the viewer's data is.
        const shown = wanted.length
          ? (
              await sql<{
                id: string;
                name: string;
                sku_code: string;
                price: string;
                currency: string | null;
              }>`
                select id, name, sku_code, price, currency from products where id = any(${wanted}::uuid[])`.execute(
                ctx.db,
              )
            ).rows
          : [];
        const products = new Map(shown.map((p) => [p.id, p]));
        const problems = lines.flatMap((l, i) => {
          if (ids.indexOf(l.productId) !== i)
            return [
              { field: `lines.${i}.productId`, message: "is in the cart twice: change its quantity instead" },
            ];
          return products.has(l.productId)
            ? []
            : [{ field: `lines.${i}.productId`, message: "is not a product of this catalogue" }];
        });
        if (problems.length) throw badRequest("Some lines of the cart cannot be checked out", problems);
        const currencies = [...new Set(shown.map((p) => p.currency ?? "INR"))];
        if (currencies.length > 1)
          throw badRequest(
            `A cart is paid in one currency: check out the ${currencies.join(" and the ")} products apart`,
            [{ field: "lines", message: `holds prices in ${currencies.join(" and ")}` }],
          );
        const noStore = () =>
          conflict("This catalogue's cart cannot be checked out: no online store is connected");
        const connectionId = await connections.defaultId();
        if (!connectionId) throw noStore();
        // The store removed since: as though none were connected.
        const access = await connections.access(connectionId).catch((error: unknown) => {
          throw error instanceof HttpError && error.statusCode === 404 ? noStore() : error;
        });
        const items = lines.map((l) => {
          const p = products.get(l.productId) as (typeof shown)[number];
          const currency = p.currency ?? "INR";
          return {
            sku: p.sku_code,
            name: p.name,
            quantity: l.quantity,
            priceMinor: minorOf(Number(p.price), currency),
          };
        });
        let cart: StoreCart;
        try {
          const found = await access.platform.itemsBySku(
            access,
            items.map((i) => i.sku),
          );
          const missing = items.filter((i) => !found.has(i.sku));
          if (missing.length) {
            const names = missing.map((i) => i.name);
            throw conflict(
              `The online store does not sell ${names.join(", ")}: remove ${names.length === 1 ? "it" : "them"} to check out`,
              [{ field: "lines", message: `not in the store: ${missing.map((i) => i.sku).join(", ")}` }],
            );
          }
          // At the store's prices: the store sells, the catalogue shows.
          cart = await access.platform.createCart(
            access,
            items.map((i) => ({ ...(found.get(i.sku) as StoreItem), quantity: i.quantity })),
            currencies[0],
          );
        } catch (error) {
          if (!(error instanceof StoreProblem)) throw error;
          // The store's trouble, not the visitor's: said in words, and logged for the admins.
          // The store's words may quote the token back: never logged.
          const words = (error instanceof Error ? error.message : String(error)).split(access.token);
          request.log.warn(
            { err: new Error(words.join("[token]")), connectionId },
            "catalogue checkout: the store could not make the cart",
          );
          throw conflict(error.message);
        }
        const values = {
          source: "catalogue" as const,
          status: "checked_out" as const,
          connection_id: connectionId as string | null,
          external_id: cart.id,
          pdf_id: pdf.id as string | null,
          currency: cart.currency.slice(0, 8),
          total_minor: minorOf(cart.amount, cart.currency),
          item_count: items.reduce((n, i) => n + i.quantity, 0),
          items: JSON.stringify(items),
          checkout_url: cart.checkoutUrl,
          cart_updated_at: new Date(),
          updated_at: new Date(),
        };
        const keep = (row: typeof values) =>
          ctx.db
            .insertInto("store_carts")
            .values(row)
            .onConflict((oc) => oc.columns(["connection_id", "external_id"]).doNothing())
            .execute();
        try {
          await keep(values);
        } catch (error) {
          if ((error as { code?: string }).code !== "23503") throw error;
          // The store (or the catalogue) removed while the cart was made: the store has the cart,
          // so the visitor is still sent on, and the list keeps it without what is gone.
          const [store, catalogue] = await Promise.all([
            ctx.db
              .selectFrom("store_connections")
              .select("id")
              .where("id", "=", connectionId)
              .executeTakeFirst(),
            ctx.db.selectFrom("pdfs").select("id").where("id", "=", pdf.id).executeTakeFirst(),
          ]);
          await keep({ ...values, connection_id: store?.id ?? null, pdf_id: catalogue?.id ?? null });
        }
        return { checkoutUrl: cart.checkoutUrl, cartId: cart.id };
      },
    );
  });
}
