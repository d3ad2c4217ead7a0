/**
 * The public catalogue API as the viewer uses it (server/modules/pdf/public.routes.ts): the
 * catalogue's pages, hotspots and products, and its text search. Plain `fetch`, no sign-in.
 */
import type { PublicPdf } from "../../schemas/pdf-library";

export type { PublicLink, PublicPage, PublicPdf, PublicProduct } from "../../schemas/pdf-library";

/** A page whose text has every searched word; the snippet marks hits with « ». */
export interface SearchHit {
  page: number;
  snippet: string;
}

/** The catalogue is unknown or unpublished (the API answered 404). */
export class NotAvailableError extends Error {
  constructor() {
    super("This catalogue is not available");
    this.name = "NotAvailableError";
  }
}

/**
 * The catalogue reference of a viewer address (`/view/<id or slug>`), or null when there is none.
 *
 * @example
 * refFromPath("/view/spring-2026") // "spring-2026"
 */
export function refFromPath(pathname: string): string | null {
  const match = /^\/view\/([^/]+)\/?$/.exec(pathname);
  if (!match) return null;
  try {
    const ref = decodeURIComponent(match[1]).trim();
    return ref || null;
  } catch {
    return null;
  }
}

async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(url, { signal, headers: { accept: "application/json" } });
  if (response.status === 404) throw new NotAvailableError();
  if (!response.ok) throw new Error(`The server answered ${response.status}`);
  return (await response.json()) as T;
}

export function fetchCatalogue(ref: string, signal?: AbortSignal): Promise<PublicPdf> {
  return getJson<PublicPdf>(`/public/pdfs/${encodeURIComponent(ref)}`, signal);
}

export async function searchCatalogue(ref: string, q: string, signal?: AbortSignal): Promise<SearchHit[]> {
  const url = `/public/pdfs/${encodeURIComponent(ref)}/search?q=${encodeURIComponent(q)}`;
  return (await getJson<{ data: SearchHit[] }>(url, signal)).data;
}

/** The server answered a checkout with a refusal (not a lost answer): its words in `message`. */
export class CheckoutRefused extends Error {}

/**
 * Hands the cart's lines to the online store (`POST /public/pdfs/{ref}/checkout`); answers the
 * store's checkout link. `key` is the cart's Idempotency-Key (cart.ts `checkoutKey`): a retry
 * with it makes no second store cart. Throws CheckoutRefused with the server's words when it
 * cannot, a plain Error when the server was not heard.
 */
export async function checkoutCart(
  ref: string,
  lines: readonly { productId: string; quantity: number }[],
  key: string,
): Promise<string> {
  const response = await fetch(`/public/pdfs/${encodeURIComponent(ref)}/checkout`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "idempotency-key": key },
    body: JSON.stringify({ lines: lines.map((l) => ({ productId: l.productId, quantity: l.quantity })) }),
  });
  const body = (await response.json().catch(() => null)) as { checkoutUrl?: string; message?: string } | null;
  if (!response.ok || !body?.checkoutUrl)
    throw new CheckoutRefused(
      body?.message ?? `The checkout could not start (the server answered ${response.status})`,
    );
  return body.checkoutUrl;
}
