/**
 * "Convert to cart" (issue 18): a proposal's lines as a cart of the default connected store, at
 * their discounted unit prices (schemas/proposal-cart.ts: a total discount spread over the lines
 * by value, the last paise to the largest remainders; BigCommerce's `list_price` override), and
 * the cart's checkout link. Each line's store item is found by its SKU. The cart joins the carts
 * list (source "proposal"); when the store says it was ordered, the proposal's opportunity is won.
 */

import { fromMinor } from "../../../schemas/money";
import { cartItemsOf } from "../../../schemas/proposal-cart";
import { badRequest, conflict, HttpError } from "../../http/errors";
import { proposalCartMade } from "./carts";
import type { StoreConnections } from "./connections.service";
import { StoreProblem } from "./platforms";
import type { ProposalsService } from "./proposals.service";

export interface ProposalCart {
  cartId: string;
  checkoutUrl: string;
  cartUrl: string | null;
  currency: string;
  /** The proposal's total, major units: what the cart's lines add up to. */
  total: number;
  items: { sku: string; quantity: number; unitPrice: number }[];
}

const unprocessable = (message: string, details?: { field: string; message: string }[]) =>
  new HttpError(422, message, details);

export async function proposalCart(
  proposals: ProposalsService,
  connections: StoreConnections,
  id: string,
): Promise<ProposalCart> {
  const { proposal, lines, totals } = await proposals.view(id);
  if (proposal.status === "declined" || proposal.status === "expired")
    throw conflict(`A ${proposal.status} proposal is not made into a cart`);
  if (!lines.length)
    throw badRequest("Add at least one product before making a cart", [
      { field: "lines", message: "must have at least one product" },
    ]);
  const store = (await connections.list()).find((c) => c.isDefault);
  if (!store) throw conflict("Connect a store first: Online store, Connect a store");
  const access = await connections.access(store.id);
  const asked = (error: unknown): never => {
    if (error instanceof StoreProblem)
      throw unprocessable(`${store.name} could not make the cart: ${error.message}`);
    throw error;
  };
  const found = await access.platform
    .itemsBySku(
      access,
      lines.map((l) => l.sku),
    )
    .catch(asked);
  const missing = lines.flatMap((l, i) => (found.has(l.sku) ? [] : [{ line: l, i }]));
  if (missing.length)
    throw unprocessable(
      `Not in the store ${store.name}: ${missing.map((m) => `${m.line.name} (${m.line.sku})`).join(", ")}`,
      missing.map((m) => ({
        field: `lines.${m.i}.product_id`,
        message: `SKU ${m.line.sku} is not in the store ${store.name}`,
      })),
    );
  const items = cartItemsOf(totals).map((item) => {
    const storeItem = found.get(lines[item.line].sku)!;
    return { ...storeItem, quantity: item.quantity, unitPrice: fromMinor(item.unitMinor, proposal.currency) };
  });
  const cart = await access.platform.createCart(access, items, proposal.currency).catch(asked);
  // In the carts list under its client; the store's "converted" webhook later wins its opportunity.
  await proposalCartMade(proposals.ctx.db, {
    connectionId: store.id,
    proposalId: String(proposal.id),
    clientId: String(proposal.client_id),
    externalId: cart.id,
    checkoutUrl: cart.checkoutUrl,
    currency: proposal.currency,
    totalMinor: totals.totalMinor,
    items: cartItemsOf(totals).map((item) => ({
      sku: lines[item.line].sku,
      name: lines[item.line].name,
      quantity: item.quantity,
      priceMinor: item.unitMinor,
    })),
  });
  return {
    cartId: cart.id,
    checkoutUrl: cart.checkoutUrl,
    cartUrl: cart.cartUrl,
    currency: proposal.currency,
    total: fromMinor(totals.totalMinor, proposal.currency),
    items: cartItemsOf(totals).map((item, k) => ({
      sku: lines[item.line].sku,
      quantity: item.quantity,
      unitPrice: items[k].unitPrice,
    })),
  };
}
