/**
 * What the catalogue viewer page (`/view/{id or slug}`) may load besides our own origin, read
 * from the catalogue's stored hotspots when the page is served: the YouTube players (video
 * hotspots), the sites its iframe hotspots embed, and the hosts of its products' images. The
 * page's CSP names exactly these, so a catalogue frames nothing its editor did not choose.
 */
import { type Kysely, sql } from "kysely";
import { UUID } from "../../../schemas/uuid";
import type { Database } from "../../db/types";
import type { PageSources } from "../../http/security-headers";

/** The players of video hotspots (src/viewer/hotspots.ts uses the privacy-enhanced one). */
export const YOUTUBE_ORIGINS = ["https://www.youtube.com", "https://www.youtube-nocookie.com"];

/** Slugs are made by slugOf (lowercase words and hyphens); anything else names no catalogue. */
const SLUG = /^[A-Za-z0-9_-]{1,80}$/;

/**
 * The origin of a web address, or null (not http/https, unparsable): the only part of a stored
 * URL that goes into the header, so a crafted one cannot add a directive.
 *
 * @example
 * webOrigin("https://shop.example.com/embed?x=1") // "https://shop.example.com"
 */
export function webOrigin(url: unknown): string | null {
  if (typeof url !== "string") return null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
    return /^https?:\/\/[a-z0-9.:[\]-]+$/i.test(parsed.origin) ? parsed.origin : null;
  } catch {
    return null;
  }
}

const origins = (urls: Iterable<unknown>) =>
  [...new Set([...urls].map(webOrigin).filter((o): o is string => o !== null))].sort();

/** The viewer page's sources for the catalogue `ref`; YouTube only when it is not published. */
export async function viewerSources(db: Kysely<Database>, ref: string): Promise<PageSources> {
  const base = { frameSrc: YOUTUBE_ORIGINS, imgSrc: [] };
  if (!UUID.test(ref) && !SLUG.test(ref)) return base;
  const pdf = await db
    .selectFrom("pdfs")
    .select("id")
    .where((eb) => (UUID.test(ref) ? eb("id", "=", ref) : eb("slug", "=", ref)))
    .where("pdfstatus", "=", true)
    .where("pdflist_status", "=", "ready")
    .executeTakeFirst();
  if (!pdf) return base;
  const links = await db
    .selectFrom("pdf_links")
    .select(["kind", "target"])
    .where("pdf_id", "=", pdf.id)
    .where("kind", "in", ["iframe", "addProduct", "addProductDetails"])
    .execute();
  const frames = links.filter((l) => l.kind === "iframe").map((l) => l.target.url);
  const productIds = [
    ...new Set(
      links
        .map((l) => l.target.productId)
        .filter((id): id is string => typeof id === "string" && UUID.test(id)),
    ),
  ];
  const products = productIds.length
    ? await sql<{ image: string | null }>`
        select images->>0 as image from products where id = any(${productIds}::uuid[])`.execute(db)
    : { rows: [] };
  return {
    frameSrc: [...YOUTUBE_ORIGINS, ...origins(frames)],
    imgSrc: origins(products.rows.map((p) => p.image)),
  };
}
