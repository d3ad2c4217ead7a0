/**
 * The online store's events as automation triggers (issue 18), called in the transaction of the
 * write that makes them: a proposal accepted (by its client on the public link, or marked so by
 * an admin), a store cart abandoned (BigCommerce's `store/cart/abandoned` webhook). The run's
 * subject is the client when there is one, so waits and CRM steps reach them.
 */
import type { AppContext } from "../../context";
import type { Db } from "../../runs";
import { AUTOMATION_KIND, dispatchTrigger } from "./triggers";

type Row = Record<string, unknown>;

/** `proposal` as its row; its `client_id` is the run's subject. */
export async function proposalAccepted(ctx: AppContext, db: Db, proposal: Row): Promise<void> {
  await dispatchTrigger(ctx, db, {
    kind: "proposal-accepted",
    record: proposal,
    subject: proposal.client_id ? { type: "client", id: String(proposal.client_id) } : null,
  });
}

/** `cart` as the carts list shows it; `clientId` when a client has the customer's email. */
export async function cartAbandoned(
  ctx: AppContext,
  db: Db,
  cart: Row,
  clientId: string | null,
): Promise<void> {
  await dispatchTrigger(ctx, db, {
    kind: "cart-abandoned",
    record: cart,
    subject: clientId ? { type: "client", id: clientId } : null,
  });
}

/**
 * A store cart became an order: the client's runs waiting for "the store cart becomes an order"
 * (`cart-converted`) go on, with the cart as the event's data (an abandoned cart's reminder
 * flow takes its event branch and sends nothing).
 */
export async function cartConverted(ctx: AppContext, db: Db, cart: Row, clientId: string): Promise<void> {
  await ctx.runs.signal(db, {
    event: "cart-converted",
    subject: { type: "client", id: clientId },
    kind: AUTOMATION_KIND,
    data: cart,
  });
}
