/** The cart of one catalogue as React state, kept in localStorage as it changes. */
import { useCallback, useEffect, useState } from "react";
import type { PublicProduct } from "./api";
import {
  addToCart,
  type Cart,
  cartKey,
  loadCart,
  reconcileCart,
  removeLine,
  saveCart,
  setQuantity,
} from "./cart";

/** The visitor's localStorage, or null where the browser refuses it. */
export const storage = (): Storage | null => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};

export function useCart(pdfId: string, products: Record<string, PublicProduct>) {
  const [cart, setCart] = useState<Cart>(() => reconcileCart(loadCart(storage(), pdfId), products));

  useEffect(() => saveCart(storage(), pdfId, cart), [pdfId, cart]);

  // Another tab of the same catalogue changed the cart.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key === cartKey(pdfId)) setCart(loadCart(storage(), pdfId));
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, [pdfId]);

  return {
    cart,
    add: useCallback(
      (product: PublicProduct, quantity = 1) => setCart((c) => addToCart(c, product, quantity)),
      [],
    ),
    setQuantity: useCallback(
      (productId: string, quantity: number) => setCart((c) => setQuantity(c, productId, quantity)),
      [],
    ),
    remove: useCallback((productId: string) => setCart((c) => removeLine(c, productId)), []),
  };
}
