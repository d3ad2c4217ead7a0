/**
 * The carts list (issue 18): a store's abandoned carts, which reach us by its
 * `store/cart/abandoned` webhook (BigCommerce has no list of them), and the carts the public
 * catalogue viewer handed to the store at checkout. One table, `store_carts`; a cart's customer
 * is matched to a CRM client by email, whose timeline then records it, and an abandoned cart
 * raises the automation trigger "Store cart abandoned".
 */
import { sql } from "kysely";
import { fromMinor, minorDigitsOf, minorText, roundedMinor } from "../../../schemas/money";
import type { StoreCart } from "../../../schemas/store";
import { isoOrNull } from "../../../src/lib/dates";
import type { AppContext } from "../../context";
import { parsedJson } from "../../db/json";
import type { AnyDb } from "../../resources/rules";
import { cartAbandoned, cartConverted } from "../automation/store-events";
import { addTimeline, type Db } from "../crm/timeline";
import type { PlatformCart } from "./platforms";
import { winOpportunity } from "./proposal-opportunity";

/** The most items a cart is said to hold (the column is a 32-bit integer). */
const MAX_ITEM_COUNT = 2_147_483_647;

/**
 * A store's amount (a decimal in major units) in integer minor units, rounded half up by the
 * money module (a store may send more decimals than its currency has); nothing for a negative
 * amount or one that is not a number.
 */
export function minorOf(amount: number, currency: string): number {
  if (!Number.isFinite(amount) || amount <= 0) return 0;
  // An amount no cart holds (a store's nonsense) is kept at the largest exact one, not refused.
  return roundedMinor(amount, currency) ?? Number.MAX_SAFE_INTEGER;
}

/** An amount as the timeline writes it: "INR 2469.00". */
const money = (minor: number, currency: string) => `${currency} ${minorText(minor, minorDigitsOf(currency))}`;

/** A date from a store's words, or null when they are not one. */
function validDate(value: string | null | undefined): Date | null {
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/** The client whose email this is (case aside), if any. */
async function clientByEmail(db: Db, email: string | null): Promise<string | null> {
  if (!email) return null;
  const row = await db
    .selectFrom("clients")
    .select("id")
    .where(sql`lower(email)`, "=", email.trim().toLowerCase())
    .executeTakeFirst();
  return row?.id ?? null;
}

export function toStoreCart(row: Record<string, unknown>): StoreCart {
  const items = parsedJson<StoreCart["items"]>(row.items);
  return {
    id: String(row.id),
    source: row.source as StoreCart["source"],
    status: row.status as StoreCart["status"],
    connectionId: (row.connection_id as string | null) ?? null,
    externalId: (row.external_id as string | null) ?? null,
    pdfId: (row.pdf_id as string | null) ?? null,
    pdfTitle: (row.pdf_title as string | null | undefined) ?? null,
    proposalId: (row.proposal_id as string | null) ?? null,
    proposalNumber: (row.proposal_number as string | null | undefined) ?? null,
    clientId: (row.client_id as string | null) ?? null,
    clientName: (row.client_name as string | null | undefined) ?? null,
    customerName: (row.customer_name as string | null) ?? null,
    email: (row.email as string | null) ?? null,
    currency: String(row.currency),
    totalMinor: Number(row.total_minor),
    itemCount: Number(row.item_count),
    items: Array.isArray(items) ? items : [],
    checkoutUrl: (row.checkout_url as string | null) ?? null,
    orderId: (row.order_id as string | null) ?? null,
    cartUpdatedAt: isoOrNull(row.cart_updated_at as Date) ?? "",
    createdAt: isoOrNull(row.created_at as Date) ?? "",
  };
}

/**
 * A store's cart left without checkout: kept (or brought up to date) as abandoned; the first time,
 * its client's timeline says so and the trigger is raised, all in `trx`. A cart the store no
 * longer has is kept with what the callback said (its id).
 */
export async function cartWasAbandoned(
  ctx: AppContext,
  trx: Db,
  connectionId: string,
  cartId: string,
  cart: PlatformCart | null,
): Promise<StoreCart> {
  const currency = cart?.currency ?? "INR";
  const items = (cart?.items ?? []).map((i) => ({
    sku: i.sku,
    name: i.name,
    quantity: i.quantity,
    priceMinor: minorOf(i.price, currency),
  }));
  const clientId = await clientByEmail(trx, cart?.email ?? null);
  const values = {
    source: "store" as const,
    status: "abandoned" as const,
    connection_id: connectionId,
    external_id: cartId,
    client_id: clientId,
    customer_name: cart?.customerName?.slice(0, 200) ?? null,
    email: cart?.email?.slice(0, 254) ?? null,
    currency: currency.slice(0, 8),
    total_minor: minorOf(cart?.amount ?? 0, currency),
    // The column's largest: a store may say any quantity.
    item_count: Math.min(
      items.reduce((n, i) => n + i.quantity, 0),
      MAX_ITEM_COUNT,
    ),
    items: JSON.stringify(items),
    cart_updated_at: validDate(cart?.updatedAt) ?? new Date(),
    updated_at: new Date(),
  };
  // Inserted unless the cart is kept already: two callbacks for one cart at once (the store's
  // retries under other hashes) make one row, and only the first tells the timeline and the flow.
  const inserted = await trx
    .insertInto("store_carts")
    .values(values)
    .onConflict((oc) => oc.columns(["connection_id", "external_id"]).doNothing())
    .returningAll()
    .executeTakeFirst();
  const before = inserted
    ? null
    : await trx
        .selectFrom("store_carts")
        .select(["id", "status"])
        .where("connection_id", "=", connectionId)
        .where("external_id", "=", cartId)
        .forUpdate()
        .executeTakeFirstOrThrow();
  // A converted cart stays converted: a late abandoned callback does not undo the order.
  if (before?.status === "converted") return getCart(trx, before.id);
  const row = before
    ? await trx
        .updateTable("store_carts")
        .set(values)
        .where("id", "=", before.id)
        .returningAll()
        .executeTakeFirstOrThrow()
    : inserted;
  const stored = toStoreCart(row as Record<string, unknown>);
  if (!before) {
    if (clientId)
      await addTimeline(trx, [
        {
          clientId,
          kind: "store",
          title: `Left a cart in the store: ${plural(stored.itemCount, "item")}, ${money(stored.totalMinor, currency)}`,
          data: { cartId: stored.id, externalId: cartId, items },
          refId: stored.id,
          dedupeKey: `store-cart:${stored.id}:abandoned`,
        },
      ]);
    await cartAbandoned(
      ctx,
      trx,
      {
        id: stored.id,
        cartId,
        email: stored.email,
        customerName: stored.customerName,
        total: fromMinor(stored.totalMinor, currency),
        currency,
        itemCount: stored.itemCount,
        items,
      },
      clientId,
    );
  }
  return stored;
}

/** A store's cart became an order: the cart converted, the client's timeline told. */
export async function cartWasConverted(
  ctx: AppContext,
  trx: Db,
  connectionId: string,
  cartId: string,
  orderId: string,
): Promise<void> {
  const convert = () =>
    trx
      .updateTable("store_carts")
      .set({ status: "converted", order_id: orderId, updated_at: new Date() })
      .where("connection_id", "=", connectionId)
      .where("external_id", "=", cartId)
      .where("status", "!=", "converted")
      .returningAll()
      .executeTakeFirst();
  let row = await convert();
  if (!row) {
    // Its abandoned callback not done yet (retried after a store's error, or run beside this one):
    // the order is kept now, so the late callback finds the cart converted and leaves it so,
    // rather than listing an order as abandoned and starting a flow to win it back.
    const store = await trx
      .selectFrom("store_connections")
      .select("currency")
      .where("id", "=", connectionId)
      .executeTakeFirst();
    const kept = await trx
      .insertInto("store_carts")
      .values({
        source: "store",
        status: "converted",
        connection_id: connectionId,
        external_id: cartId,
        order_id: orderId,
        currency: (store?.currency ?? "INR").slice(0, 8),
        total_minor: 0,
        item_count: 0,
        items: "[]",
        updated_at: new Date(),
      })
      .onConflict((oc) => oc.columns(["connection_id", "external_id"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (kept) return;
    // The abandoned callback's row, committed while this one waited on it (or converted already).
    row = await convert();
  }
  if (!row?.client_id) return;
  const cart = toStoreCart(row as Record<string, unknown>);
  await addTimeline(trx, [
    {
      clientId: row.client_id,
      kind: "store",
      title: `Ordered in the store: order ${orderId}, ${money(cart.totalMinor, cart.currency)}`,
      data: { cartId: cart.id, externalId: cartId, orderId },
      refId: cart.id,
      dedupeKey: `store-cart:${cart.id}:converted`,
    },
  ]);
  // Its client's runs waiting for the order go on (an abandoned cart's reminder is not sent).
  await cartConverted(ctx, trx, { id: cart.id, cartId, orderId }, row.client_id);
  // A proposal's cart ordered: its opportunity is won, as an accepted proposal's is.
  if (row.proposal_id) {
    const proposal = await trx
      .selectFrom("proposals")
      .selectAll()
      .where("id", "=", row.proposal_id)
      .executeTakeFirst();
    if (proposal?.opportunity_id) await winOpportunity(ctx, trx as AnyDb, proposal);
  }
}

/** A proposal made into a store cart: in the carts list, under its client, until it is ordered. */
export async function proposalCartMade(
  db: Db,
  cart: {
    connectionId: string;
    proposalId: string;
    clientId: string;
    externalId: string;
    checkoutUrl: string;
    currency: string;
    totalMinor: number;
    items: StoreCart["items"];
  },
): Promise<void> {
  await db
    .insertInto("store_carts")
    .values({
      source: "proposal",
      status: "checked_out",
      connection_id: cart.connectionId,
      external_id: cart.externalId,
      proposal_id: cart.proposalId,
      client_id: cart.clientId,
      currency: cart.currency,
      total_minor: cart.totalMinor,
      item_count: cart.items.reduce((n, i) => n + i.quantity, 0),
      items: JSON.stringify(cart.items),
      checkout_url: cart.checkoutUrl,
      updated_at: new Date(),
    })
    .onConflict((oc) => oc.columns(["connection_id", "external_id"]).doNothing())
    .execute();
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The list's select: a cart with its client's name and its catalogue's title. */
export function cartsQuery(db: Db) {
  return db
    .selectFrom("store_carts as c")
    .leftJoin("clients as cl", "cl.id", "c.client_id")
    .leftJoin("pdfs as p", "p.id", "c.pdf_id")
    .leftJoin("proposals as pr", "pr.id", "c.proposal_id")
    .selectAll("c")
    .select(["cl.name as client_name", "p.name as pdf_title", "pr.number as proposal_number"]);
}

export async function getCart(db: Db, id: string): Promise<StoreCart> {
  const row = await cartsQuery(db).where("c.id", "=", id).executeTakeFirstOrThrow();
  return toStoreCart(row as Record<string, unknown>);
}
