/**
 * Opens and clicks of a mail (issue 27): the HTML of a tracked mail gets a tracking pixel and
 * its links go through the server first, each address signed with the server's secret (HMAC,
 * `TokenService.mac`) over the mail's id and, for a link, its target. The public routes that
 * answer them (crm/email-tracking.routes.ts) check the signature before anything else: an
 * unsigned or altered address is refused and never redirects anywhere, so a signed link cannot
 * be turned into a redirect to a URL of someone else's choosing.
 *
 * Only the HTML part is changed: the text part keeps the addresses as written (a person reading
 * the text sees where a link goes). Pure functions; no database.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { escapeHtml } from "../../schemas/merge-fields";
import { decodeEntities } from "./html-text";

/** Where the public tracking routes live. */
export const TRACKING_PATH = "/public/mail";
/** The longest link target that is tracked; a longer one is left as written. */
export const MAX_TRACKED_URL = 2000;

/** Signs with the server's secret (the app's TokenService). */
export interface LinkSigner {
  mac(purpose: string, data: string): string;
}

/** What a tracked mail's addresses are made of. */
export interface TrackingTarget {
  /** The server's public base URL (`PUBLIC_URL`), no trailing slash. */
  baseUrl: string;
  signer: LinkSigner;
  /** The message the opens and clicks are counted on (`crm_messages.id`). */
  messageId: string;
}

export const openSignature = (signer: LinkSigner, messageId: string) => signer.mac("mail-open", messageId);

// A newline cannot be in a uuid, so `id\nurl` names one pair only.
export const clickSignature = (signer: LinkSigner, messageId: string, url: string) =>
  signer.mac("mail-click", `${messageId}\n${url}`);

/** Equal signatures, in a time that does not depend on where they differ. */
export function sameSignature(given: string, expected: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The pixel's address. */
export function pixelUrl({ baseUrl, signer, messageId }: TrackingTarget): string {
  return `${baseUrl}${TRACKING_PATH}/${messageId}/open.gif?s=${openSignature(signer, messageId)}`;
}

/** The signed address a link of the mail goes through. */
export function clickUrl({ baseUrl, signer, messageId }: TrackingTarget, url: string): string {
  const s = clickSignature(signer, messageId, url);
  return `${baseUrl}${TRACKING_PATH}/${messageId}/click?u=${encodeURIComponent(url)}&s=${s}`;
}

/**
 * The web address a link may be redirected to: absolute `http:` or `https:` only, no user name
 * or password in it (a `https://bank.example@evil.example` look-alike), at most MAX_TRACKED_URL
 * long. Null for anything else (a `mailto:`, a `#part`, a `javascript:`), which is not tracked.
 */
export function redirectTarget(url: string): URL | null {
  if (url.length > MAX_TRACKED_URL || !/^https?:\/\//i.test(url)) return null;
  try {
    const parsed = new URL(url);
    if (parsed.username || parsed.password || !parsed.hostname) return null;
    return parsed;
  } catch {
    return null;
  }
}

/**
 * A link as a person reads it on the timeline: host and path, no scheme, no `www.`, no query.
 *
 * @example
 * linkLabel("https://www.example.com/pricing/?utm_source=mail"); // "example.com/pricing"
 */
export function linkLabel(url: string): string {
  const parsed = redirectTarget(url);
  if (!parsed) return url.slice(0, 80);
  const path = parsed.pathname.replace(/\/+$/, "");
  const label = `${parsed.hostname.replace(/^www\./i, "")}${path}`;
  return label.length > 80 ? `${label.slice(0, 77)}...` : label;
}

const ANCHOR = /<a\b[^>]*>/gi;
const HREF = /(\shref\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

/**
 * The mail's HTML with each web link going through its signed click address and the pixel at
 * the end of the body.
 *
 * @example
 * instrumentHtml('<p><a href="https://example.com/pricing">Prices</a></p>', target);
 * // '<p><a href="https://crm.example/public/mail/<id>/click?u=…&amp;s=…">Prices</a></p><img src=…>'
 */
export function instrumentHtml(html: string, target: TrackingTarget): string {
  const linked = html.replace(ANCHOR, (tag) =>
    tag.replace(HREF, (whole, lead: string, dq?: string, sq?: string, bare?: string) => {
      const href = decodeEntities(dq ?? sq ?? bare ?? "").trim();
      if (!redirectTarget(href)) return whole;
      return `${lead}"${escapeHtml(clickUrl(target, href))}"`;
    }),
  );
  const pixel = `<img src="${escapeHtml(pixelUrl(target))}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0">`;
  return /<\/body\s*>/i.test(linked) ? linked.replace(/<\/body\s*>/i, `${pixel}$&`) : `${linked}${pixel}`;
}

/** The transparent 1×1 GIF the pixel answers. */
export const PIXEL_GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
