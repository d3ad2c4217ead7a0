import { describe, expect, it } from "vitest";
import type { PublicProduct } from "./api";
import {
  addToCart,
  type Cart,
  cartCount,
  cartKey,
  checkoutKey,
  forgetCheckoutKey,
  lineTotal,
  loadCart,
  MAX_QUANTITY,
  parseCart,
  reconcileCart,
  removeLine,
  saveCart,
  setQuantity,
  totalsByCurrency,
} from "./cart";

const product = (id: string, price: number, currency = "INR"): PublicProduct => ({
  id,
  name: `Product ${id}`,
  sku_code: `SKU-${id}`,
  price,
  currency,
  description: null,
  image: null,
});

const lamp = product("lamp", 0.1);
const sofa = product("sofa", 0.2);
const chair = product("chair", 49.99, "USD");

describe("cart arithmetic", () => {
  it("adds a product as a line of one, then one more on the same line", () => {
    let cart: Cart = addToCart([], lamp);
    expect(cart).toEqual([
      {
        productId: "lamp",
        name: "Product lamp",
        sku: "SKU-lamp",
        price: 0.1,
        currency: "INR",
        image: null,
        quantity: 1,
      },
    ]);
    cart = addToCart(cart, lamp);
    expect(cart).toHaveLength(1);
    expect(cart[0].quantity).toBe(2);
    cart = addToCart(cart, sofa, 3);
    expect(cart.map((l) => [l.productId, l.quantity])).toEqual([
      ["lamp", 2],
      ["sofa", 3],
    ]);
  });

  it("never goes past the most one line holds, and ignores adding nothing", () => {
    const cart = addToCart(addToCart([], lamp, MAX_QUANTITY), lamp, 5);
    expect(cart[0].quantity).toBe(MAX_QUANTITY);
    const empty: Cart = [];
    expect(addToCart(empty, lamp, 0)).toBe(empty);
    expect(addToCart(empty, lamp, -2)).toBe(empty);
  });

  it("defaults a product without a currency to INR (spec §9)", () => {
    expect(addToCart([], { ...lamp, currency: "" })[0].currency).toBe("INR");
  });

  it("changes a quantity, removes a line at 0 or by removal", () => {
    const cart = addToCart(addToCart([], lamp), sofa);
    expect(setQuantity(cart, "lamp", 4)[0].quantity).toBe(4);
    expect(setQuantity(cart, "lamp", 2.7)[0].quantity).toBe(2);
    expect(setQuantity(cart, "lamp", 0).map((l) => l.productId)).toEqual(["sofa"]);
    expect(removeLine(cart, "sofa").map((l) => l.productId)).toEqual(["lamp"]);
    expect(removeLine(cart, "nothing")).toEqual(cart);
  });

  it("counts items, not lines", () => {
    expect(cartCount([])).toBe(0);
    expect(cartCount(addToCart(addToCart([], lamp, 2), sofa, 3))).toBe(5);
  });

  it("adds money in hundredths: 0.1 + 0.2 is 0.3", () => {
    const cart = addToCart(addToCart([], lamp), sofa);
    expect(totalsByCurrency(cart)).toEqual([{ currency: "INR", total: 0.3 }]);
    expect(lineTotal({ ...cart[0], price: 19.99, quantity: 3 })).toBe(59.97);
  });

  it("gives one total per currency, in the order they appear", () => {
    const cart = addToCart(addToCart(addToCart([], chair, 2), lamp, 10), sofa);
    expect(totalsByCurrency(cart)).toEqual([
      { currency: "USD", total: 99.98 },
      { currency: "INR", total: 1.2 },
    ]);
    expect(totalsByCurrency([])).toEqual([]);
  });
});

describe("stored carts", () => {
  const memory = () => {
    const items = new Map<string, string>();
    return {
      items,
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    };
  };

  it("keeps one cart per catalogue and forgets an emptied one", () => {
    const storage = memory();
    const cart = addToCart([], lamp, 2);
    saveCart(storage, "pdf-1", cart);
    expect(loadCart(storage, "pdf-1")).toEqual(cart);
    expect(loadCart(storage, "pdf-2")).toEqual([]);
    saveCart(storage, "pdf-1", []);
    expect(storage.items.has(cartKey("pdf-1"))).toBe(false);
  });

  it("reads only well-formed lines from storage", () => {
    const good = addToCart([], lamp)[0];
    expect(parseCart(null)).toEqual([]);
    expect(parseCart("not json")).toEqual([]);
    expect(parseCart('{"a":1}')).toEqual([]);
    expect(
      parseCart(
        JSON.stringify([
          good,
          { ...good, price: "free" },
          { ...good, quantity: 0 },
          null,
          { ...good, quantity: 5000 },
        ]),
      ),
    ).toEqual([good, { ...good, quantity: MAX_QUANTITY }]);
  });

  it("keeps one checkout key per cart: the same while it is unchanged, a new one once it changes", () => {
    const storage = memory();
    const cart = addToCart(addToCart([], lamp, 2), sofa);
    const first = checkoutKey(storage, "pdf-1", cart);
    expect(first).toMatch(/^[\w-]{8,64}$/);
    // A double click, a retry, a reload (the key is in storage): the same key.
    expect(checkoutKey(storage, "pdf-1", cart)).toBe(first);
    expect(checkoutKey(storage, "pdf-1", [...cart].reverse())).toBe(first);
    // Another quantity is another cart; so is another catalogue.
    const more = checkoutKey(storage, "pdf-1", setQuantity(cart, "lamp", 3));
    expect(more).not.toBe(first);
    expect(checkoutKey(storage, "pdf-2", cart)).not.toBe(more);
    // A refused checkout forgets its key: the next try is a new request.
    const again = checkoutKey(storage, "pdf-1", cart);
    forgetCheckoutKey(storage, "pdf-1");
    expect(checkoutKey(storage, "pdf-1", cart)).not.toBe(again);
  });

  it("does not fail when storage does", () => {
    const broken = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("full");
      },
      removeItem: () => {
        throw new Error("denied");
      },
    };
    expect(loadCart(broken, "pdf-1")).toEqual([]);
    expect(() => saveCart(broken, "pdf-1", addToCart([], lamp))).not.toThrow();
    expect(loadCart(null, "pdf-1")).toEqual([]);
    expect(checkoutKey(broken, "pdf-1", addToCart([], lamp))).toMatch(/^[\w-]{8,64}$/);
    expect(() => forgetCheckoutKey(broken, "pdf-1")).not.toThrow();
  });

  it("refreshes lines from the catalogue's current products", () => {
    const cart = addToCart(addToCart([], lamp, 2), sofa);
    const fresh = reconcileCart(cart, { lamp: { ...lamp, price: 5, name: "Brass lamp" } });
    expect(fresh[0]).toMatchObject({ name: "Brass lamp", price: 5, quantity: 2 });
    expect(fresh[1]).toEqual(cart[1]);
  });
});
