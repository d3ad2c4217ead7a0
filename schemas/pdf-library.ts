/**
 * The PDF library's shapes beyond the `pdfs` resource (docs/pdf-library-api.md): pages,
 * hotspot links, uploads, analytics. Shared by server and client; pure data.
 */

/** Rendered widths of every page, in pixels (WebP). */
export const PAGE_IMAGE_SIZES = { thumbnail: 320, screen: 1200, zoom: 2400 } as const;
export type PageImageSize = keyof typeof PAGE_IMAGE_SIZES;
export const PAGE_IMAGE_WIDTHS: readonly number[] = Object.values(PAGE_IMAGE_SIZES);

/** A page of a processed PDF, as `GET /api/pdfs/{id}/pages` answers it. */
export interface PdfPage {
  page: number;
  /** Page size in PDF points (the aspect ratio of its images). */
  width: number;
  height: number;
  /** Image URL per size (absent while the page is not rendered yet). */
  images: Partial<Record<PageImageSize, string>>;
  text: string;
  /** The hotspot editor's optimistic lock for this page's links. */
  linksRevision: number;
}

/** Spec §9 link action kinds, in the spec's order, with their labels. */
export const LINK_KINDS = [
  "pageLink",
  "link",
  "video",
  "iframe",
  "text",
  "addProduct",
  "addProductDetails",
] as const;
export type LinkKind = (typeof LINK_KINDS)[number];
export const LINK_KIND_LABELS: Record<LinkKind, string> = {
  pageLink: "Go to page",
  link: "Link",
  video: "Video (YouTube)",
  iframe: "Embedded page (iframe)",
  text: "Custom Text",
  addProduct: "Add Product",
  addProductDetails: "Add Product (with details)",
};

/** Spec §9: the five button icons, three sizes and four colours. */
export const BUTTON_ICONS = ["External Link", "Play", "Add-1", "Add-2", "Add-3"] as const;
export const BUTTON_SIZES = ["sm", "md", "lg"] as const;
export const BUTTON_COLOURS = ["Primary", "Secondary", "Tertiary", "Forth"] as const;

/** Spec §9: discount options. */
export const DISCOUNT_OPTIONS = [
  { value: 1, label: "Product discount" },
  { value: 2, label: "Total discount" },
  { value: 3, label: "No discount" },
] as const;

export interface LinkButton {
  icon: (typeof BUTTON_ICONS)[number];
  size: (typeof BUTTON_SIZES)[number];
  colour: (typeof BUTTON_COLOURS)[number];
  label?: string;
}

/**
 * What a hotspot does, by kind: `page` (pageLink), `url` (link, iframe), `youtubeId`
 * (video), `text` (text), `productId` (addProduct, addProductDetails).
 */
export interface LinkTarget {
  page?: number;
  url?: string;
  youtubeId?: string;
  text?: string;
  productId?: string;
}

/** A hotspot: a rectangle on a page, relative to its size (0..1), and what it does. */
export interface PdfLink {
  id?: string;
  x: number;
  y: number;
  w: number;
  h: number;
  kind: LinkKind;
  target: LinkTarget;
  button?: LinkButton | null;
}

/** `GET /api/pdfs/{id}/pages/{page}/links`, and the body of its PUT. */
export interface PageLinks {
  revision: number;
  links: PdfLink[];
}

/** A suggested Add Product hotspot: a product's sku_code found in the page's text. */
export interface LinkSuggestion {
  productId: string;
  skuCode: string;
  productName: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A resumable upload (`POST /api/pdfs/uploads`). */
export interface PdfUploadState {
  id: string;
  size: number;
  chunkSize: number;
  /** Chunk indexes already stored. */
  received: number[];
}

/** Chunk size of resumable uploads: big enough to be quick, small enough to resend. */
export const PDF_UPLOAD_CHUNK = 8 * 1024 * 1024;

/** Public analytics events (`POST /public/events`). */
export const PDF_EVENT_TYPES = ["view", "search", "click"] as const;
export type PdfEventType = (typeof PDF_EVENT_TYPES)[number];

/** One point of an analytics series. */
export interface AnalyticsPoint {
  day: string;
  pdfId: string;
  pdfName: string;
  count: number;
}

/** Searched words with how often. */
export interface SearchedWord {
  word: string;
  count: number;
}

/** A rendered page: its size in PDF points and its image URLs (320/1200/2400 px WebP). */
export interface PublicPage {
  page: number;
  width: number;
  height: number;
  images: Record<PageImageSize, string>;
}

/** A hotspot as the public API gives it: always saved, so it has an id and a page. */
export type PublicLink = PdfLink & { id: string; page: number };

/** A product an Add Product hotspot puts in the cart. */
export interface PublicProduct {
  id: string;
  name: string;
  sku_code: string;
  price: number;
  currency: string;
  description: string | null;
  image: string | null;
}

/** `GET /public/pdfs/{ref}`: a published catalogue for the public viewer. */
export interface PublicPdf {
  id: string;
  name: string;
  slug: string | null;
  pageCount: number;
  pages: PublicPage[];
  links: PublicLink[];
  products: Record<string, PublicProduct>;
  /** An online store takes this catalogue's cart: the cart offers "Checkout" (issue 18). */
  checkout: boolean;
}

/** Spec §8. */
export const DELETE_PDF_FAILED = "Could not delete PDF";
