/**
 * The viewer's analytics events (`POST /public/events`): one `view` per visit, a `search` per
 * search, a `click` per hotspot used. Spec §8: analytics failures are swallowed, so nothing
 * here throws or waits.
 */
import type { PdfEventType } from "../../schemas/pdf-library";

/** Where the visitor id is kept, across catalogues. */
export const VISITOR_KEY = "atelier.viewer.visitor";

/** What `/public/events` accepts as a visitor id. */
const VISITOR_ID = /^[A-Za-z0-9_-]{8,64}$/;

export const isVisitorId = (value: unknown): value is string =>
  typeof value === "string" && VISITOR_ID.test(value);

/** A new random visitor id: 32 hex digits (a UUID without its dashes). */
export function newVisitorId(random: Pick<Crypto, "getRandomValues"> & Partial<Crypto> = crypto): string {
  // randomUUID exists only in secure contexts; getRandomValues everywhere.
  if (typeof random.randomUUID === "function") return random.randomUUID().replace(/-/g, "");
  const bytes = random.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The visitor id kept in `storage`, made and stored on the first visit. Storage that cannot
 * be read or written (private mode, disabled) gives a fresh id each time rather than failing.
 */
export function visitorId(storage: Pick<Storage, "getItem" | "setItem"> | null, make = newVisitorId): string {
  try {
    const kept = storage?.getItem(VISITOR_KEY);
    if (isVisitorId(kept)) return kept;
  } catch {
    // fall through to a new id
  }
  const id = make();
  try {
    storage?.setItem(VISITOR_KEY, id);
  } catch {
    // not kept: counted as a new visitor next time
  }
  return id;
}

/** What a search is recorded as: the words typed, spaces tidied, at most 100 characters. */
export function searchedWords(q: string): string | null {
  const words = q.trim().replace(/\s+/g, " ").slice(0, 100).trim();
  return words || null;
}

export interface ViewerEvent {
  pdfId: string;
  type: PdfEventType;
  page?: number;
  word?: string;
  linkId?: string;
}

/** Sends an event without waiting for it; a failure (network, 429, 404) is ignored. */
export function sendEvent(event: ViewerEvent, visitor: string, send: typeof fetch = fetch): void {
  try {
    void send("/public/events", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...event, visitorId: visitor }),
      keepalive: true,
    }).catch(() => undefined);
  } catch {
    // a fetch that throws synchronously is swallowed too
  }
}
