/**
 * What each kind of hotspot is called and where it leads, as a registry keyed by link kind
 * (spec §9), so a new kind is one entry. The names are the hotspots' accessible names.
 */
import type { LinkKind } from "../../schemas/pdf-library";
import type { PublicLink, PublicProduct } from "./api";

type Products = Record<string, PublicProduct>;

const productName = (link: PublicLink, products: Products) =>
  (link.target.productId && products[link.target.productId]?.name) || "product";

/** The accessible name of a hotspot of each kind: what using it does. */
export const HOTSPOT_NAMES: Record<LinkKind, (link: PublicLink, products: Products) => string> = {
  addProduct: (link, products) => `Add ${productName(link, products)} to cart`,
  addProductDetails: (link, products) => `See ${productName(link, products)}`,
  iframe: () => "Show embedded page",
  link: () => "Open link",
  pageLink: (link) => `Go to page ${link.target.page ?? 1}`,
  text: () => "Show text",
  video: () => "Play video",
};

/**
 * The accessible name of a hotspot.
 *
 * @example
 * hotspotName({ kind: "pageLink", target: { page: 3 }, ... }, {}) // "Go to page 3"
 */
export function hotspotName(link: PublicLink, products: Products): string {
  return (HOTSPOT_NAMES[link.kind] ?? (() => "Open"))(link, products);
}

/** The URL if it is a web address (http or https), else null: never `javascript:` and the like. */
export function webUrl(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

/** The privacy-enhanced YouTube player of a video id, or null for an id that is not one. */
export function youtubeEmbedUrl(youtubeId: string | undefined): string | null {
  if (!youtubeId || !/^[A-Za-z0-9_-]{6,20}$/.test(youtubeId)) return null;
  return `https://www.youtube-nocookie.com/embed/${youtubeId}?rel=0`;
}

/**
 * The sandbox of an embedded page. Scripts and its own origin are allowed for pages of other
 * sites; a page of the viewer's own origin gets no `allow-same-origin`, since with scripts it
 * could lift its own sandbox.
 */
export function iframeSandbox(url: string, viewerOrigin: string): string {
  const base = "allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox";
  let sameOrigin = true;
  try {
    sameOrigin = new URL(url).origin === viewerOrigin;
  } catch {
    // an unparsable URL is treated as ours: the stricter sandbox
  }
  return sameOrigin ? base : `${base} allow-same-origin`;
}

/** The hotspots of a page, in their saved order. */
export function linksOfPage(links: readonly PublicLink[], page: number): PublicLink[] {
  return links.filter((link) => link.page === page);
}

/** A dialog a hotspot opens. */
export type HotspotDialog =
  | { kind: "video"; url: string }
  | { kind: "iframe"; url: string }
  | { kind: "text"; title: string; text: string }
  | { kind: "product"; product: PublicProduct };

/** What the viewer lets a hotspot do. */
export interface HotspotContext {
  products: Products;
  goTo(page: number): void;
  openUrl(url: string): void;
  showDialog(dialog: HotspotDialog): void;
  addProduct(product: PublicProduct): void;
  /** A hotspot whose target is gone (a deleted product, a bad URL). */
  unavailable(message: string): void;
}

const withProduct = (link: PublicLink, ctx: HotspotContext, then: (product: PublicProduct) => void) => {
  const product = link.target.productId ? ctx.products[link.target.productId] : undefined;
  if (product) then(product);
  else ctx.unavailable("This product is no longer available");
};

/** What using a hotspot of each kind does. */
export const HOTSPOT_ACTIONS: Record<LinkKind, (link: PublicLink, ctx: HotspotContext) => void> = {
  addProduct: (link, ctx) => withProduct(link, ctx, (product) => ctx.addProduct(product)),
  addProductDetails: (link, ctx) =>
    withProduct(link, ctx, (product) => ctx.showDialog({ kind: "product", product })),
  iframe: (link, ctx) => {
    const url = webUrl(link.target.url);
    if (url) ctx.showDialog({ kind: "iframe", url });
    else ctx.unavailable("This page cannot be shown");
  },
  link: (link, ctx) => {
    const url = webUrl(link.target.url);
    if (url) ctx.openUrl(url);
    else ctx.unavailable("This link cannot be opened");
  },
  pageLink: (link, ctx) => ctx.goTo(link.target.page ?? 1),
  text: (link, ctx) =>
    ctx.showDialog({ kind: "text", title: link.button?.label || "Note", text: link.target.text ?? "" }),
  video: (link, ctx) => {
    const url = youtubeEmbedUrl(link.target.youtubeId);
    if (url) ctx.showDialog({ kind: "video", url });
    else ctx.unavailable("This video cannot be played");
  },
};

/** Does what a hotspot is for. */
export function runHotspot(link: PublicLink, ctx: HotspotContext): void {
  HOTSPOT_ACTIONS[link.kind]?.(link, ctx);
}
