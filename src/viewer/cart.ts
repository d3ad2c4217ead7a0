/**
 * The visitor's cart: pure arithmetic over lines (add, change, remove, totals per currency)
 * and its copy in localStorage, one cart per catalogue. Amounts are added by the money module
 * in hundredths (catalogue prices have two decimals in every currency), so 0.1 + 0.2 stays 0.3.
 */
import { DEFAULT_CURRENCY, fromPlaces, minorAt, PRICE_PLACES, sumMinor } from "../../schemas/money";
import type { PublicProduct } from "./api";

/** The most of one product a line holds. */
export const MAX_QUANTITY = 999;

export interface CartLine {
  productId: string;
  name: string;
  sku: string;
  /** Unit price, in `currency`. */
  price: number;
  currency: string;
  image: string | null;
  quantity: number;
}

export type Cart = readonly CartLine[];

export interface CurrencyTotal {
  currency: string;
  total: number;
}

const clampQuantity = (quantity: number) =>
  Math.min(MAX_QUANTITY, Math.max(0, Math.floor(Number.isFinite(quantity) ? quantity : 0)));

const lineOf = (product: PublicProduct, quantity: number): CartLine => ({
  productId: product.id,
  name: product.name,
  sku: product.sku_code,
  price: product.price,
  currency: product.currency || DEFAULT_CURRENCY,
  image: product.image,
  quantity,
});

/**
 * The cart with `quantity` more of `product`: a new line, or more on its line.
 *
 * @example
 * addToCart(addToCart([], lamp), lamp) // one line of lamp, quantity 2
 */
export function addToCart(cart: Cart, product: PublicProduct, quantity = 1): Cart {
  const more = clampQuantity(quantity);
  if (more === 0) return cart;
  const existing = cart.find((line) => line.productId === product.id);
  if (!existing) return [...cart, lineOf(product, more)];
  return cart.map((line) =>
    line === existing ? { ...line, quantity: clampQuantity(line.quantity + more) } : line,
  );
}

/** The cart with the line of `productId` at `quantity`; 0 or less removes it. */
export function setQuantity(cart: Cart, productId: string, quantity: number): Cart {
  const next = clampQuantity(quantity);
  if (next === 0) return removeLine(cart, productId);
  return cart.map((line) => (line.productId === productId ? { ...line, quantity: next } : line));
}

export function removeLine(cart: Cart, productId: string): Cart {
  return cart.filter((line) => line.productId !== productId);
}

/** How many items the cart holds (the badge): the sum of the quantities. */
export function cartCount(cart: Cart): number {
  return cart.reduce((sum, line) => sum + line.quantity, 0);
}

/** A line's price times its quantity, in hundredths (a price that is not a number counts 0). */
const lineMinor = (line: CartLine) => (minorAt(line.price, PRICE_PLACES) ?? 0) * line.quantity;

/** A line's price times its quantity. */
export function lineTotal(line: CartLine): number {
  return fromPlaces(lineMinor(line), PRICE_PLACES);
}

/** One total per currency, in the order the currencies first appear in the cart. */
export function totalsByCurrency(cart: Cart): CurrencyTotal[] {
  const byCurrency = new Map<string, number[]>();
  for (const line of cart) {
    const currency = line.currency || DEFAULT_CURRENCY;
    byCurrency.set(currency, [...(byCurrency.get(currency) ?? []), lineMinor(line)]);
  }
  return [...byCurrency].map(([currency, lines]) => ({
    currency,
    total: fromPlaces(sumMinor(lines), PRICE_PLACES),
  }));
}

/** Lines refreshed from the catalogue's current products (name, price, image may have changed). */
export function reconcileCart(cart: Cart, products: Record<string, PublicProduct>): Cart {
  return cart.map((line) => {
    const product = products[line.productId];
    return product ? lineOf(product, line.quantity) : line;
  });
}

/** The localStorage key of a catalogue's cart. */
export const cartKey = (pdfId: string) => `atelier.viewer.cart.${pdfId}`;

const isLine = (value: unknown): value is CartLine => {
  if (typeof value !== "object" || value === null) return false;
  const line = value as Record<string, unknown>;
  return (
    typeof line.productId === "string" &&
    typeof line.name === "string" &&
    typeof line.sku === "string" &&
    typeof line.price === "number" &&
    Number.isFinite(line.price) &&
    typeof line.currency === "string" &&
    (line.image === null || typeof line.image === "string") &&
    typeof line.quantity === "number" &&
    clampQuantity(line.quantity) > 0
  );
};

/** A stored cart, keeping only well-formed lines (the storage is the visitor's to edit). */
export function parseCart(json: string | null): Cart {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return [];
    return value.filter(isLine).map((line) => ({ ...line, quantity: clampQuantity(line.quantity) }));
  } catch {
    return [];
  }
}

type CartStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export function loadCart(storage: CartStorage | null, pdfId: string): Cart {
  try {
    return parseCart(storage?.getItem(cartKey(pdfId)) ?? null);
  } catch {
    return [];
  }
}

export function saveCart(storage: CartStorage | null, pdfId: string, cart: Cart): void {
  try {
    if (cart.length === 0) storage?.removeItem(cartKey(pdfId));
    else storage?.setItem(cartKey(pdfId), JSON.stringify(cart));
  } catch {
    // a full or disabled storage only loses the copy, not the cart on screen
  }
}

/** The localStorage key of a catalogue's checkout key (see checkoutKey). */
export const checkoutKeyKey = (pdfId: string) => `atelier.viewer.checkout.${pdfId}`;

/** What a checkout hands over: its products and quantities, in a stable order. */
export const cartFingerprint = (lines: readonly Pick<CartLine, "productId" | "quantity">[]) =>
  lines
    .map((l) => `${l.productId}:${l.quantity}`)
    .sort()
    .join(",");

const randomKey = () =>
  typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

/**
 * The `Idempotency-Key` of checking out these lines: the same while the cart is the same (a
 * double click, a retry after a lost answer, a reload make one store cart), a new one once the
 * cart changes. Kept in storage beside the cart, so a reload keeps it too.
 *
 * @example
 * checkoutKey(localStorage, pdf.id, lines) === checkoutKey(localStorage, pdf.id, lines) // true
 */
export function checkoutKey(storage: CartStorage | null, pdfId: string, lines: readonly CartLine[]): string {
  const fingerprint = cartFingerprint(lines);
  try {
    const kept = JSON.parse(storage?.getItem(checkoutKeyKey(pdfId)) ?? "null") as {
      fingerprint?: unknown;
      key?: unknown;
    } | null;
    if (kept?.fingerprint === fingerprint && typeof kept.key === "string" && /^[\w-]{8,64}$/.test(kept.key))
      return kept.key;
  } catch {
    // an unreadable copy is replaced below
  }
  const key = randomKey();
  try {
    storage?.setItem(checkoutKeyKey(pdfId), JSON.stringify({ fingerprint, key }));
  } catch {
    // without storage the key lasts as long as this call's retries
  }
  return key;
}

/** Forgets the checkout key (a refused checkout: the next try is a new request, not a replay). */
export function forgetCheckoutKey(storage: CartStorage | null, pdfId: string): void {
  try {
    storage?.removeItem(checkoutKeyKey(pdfId));
  } catch {
    // nothing kept, nothing to forget
  }
}
