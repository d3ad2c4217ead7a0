/**
 * A proposal's lines as a store's cart items (issue 18 "convert to cart"). A cart knows only
 * unit prices, so each line's net amount — less its own discount (Product discount) or its
 * share of the total discount (Total discount, spread by value with the largest remainder:
 * spreadDiscount) — is divided over its units. When the paise do not divide evenly, the line
 * becomes two items: the units at the lower price and the few at one paisa more. The items
 * then add up to the proposal's total exactly.
 */
import { type ProposalTotals, spreadDiscount } from "./proposal-money";

export interface CartItem {
  /** Index of the proposal line it comes from. */
  line: number;
  quantity: number;
  /** Discounted unit price, in minor units. */
  unitMinor: number;
}

/**
 * @example
 * // one line of 3 × ₹10.00 less ₹1.00: 2900 paise over 3 units is 966 rest 2, so
 * // 1 unit at ₹9.66 and 2 at ₹9.67 (966 + 2 × 967 = 2900).
 * cartItemsOf(totals); // [{ line: 0, quantity: 1, unitMinor: 966 }, { line: 0, quantity: 2, unitMinor: 967 }]
 */
export function cartItemsOf(totals: ProposalTotals): CartItem[] {
  const shares = spreadDiscount(
    totals.totalDiscountMinor,
    totals.lines.map((l) => l.netMinor),
  );
  const items: CartItem[] = [];
  totals.lines.forEach((l, line) => {
    const net = l.netMinor - shares[line];
    const base = Math.floor(net / l.quantity);
    const extra = net - base * l.quantity;
    if (l.quantity - extra > 0) items.push({ line, quantity: l.quantity - extra, unitMinor: base });
    if (extra > 0) items.push({ line, quantity: extra, unitMinor: base + 1 });
  });
  return items;
}
