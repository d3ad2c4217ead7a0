/** Hotspot links: rows as the API shows them, and what JSON Schema cannot check about one. */
import type { PdfLink } from "../../../schemas/pdf-library";
import { badRequest } from "../../http/errors";

export function toLink(row: {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
  kind: string;
  target: Record<string, unknown>;
  button: Record<string, unknown> | null;
}): PdfLink {
  return {
    id: row.id,
    x: row.x,
    y: row.y,
    w: row.w,
    h: row.h,
    kind: row.kind as PdfLink["kind"],
    target: row.target as PdfLink["target"],
    button: row.button as PdfLink["button"],
  };
}

/** The target field each link kind needs, and the message when it is missing. */
const TARGET_OF: Record<PdfLink["kind"], [keyof PdfLink["target"], string]> = {
  pageLink: ["page", "A page link needs the page to go to"],
  link: ["url", "This hotspot needs a URL"],
  video: ["youtubeId", "A video hotspot needs a YouTube video"],
  iframe: ["url", "This hotspot needs a URL"],
  text: ["text", "A text hotspot needs its text"],
  addProduct: ["productId", "An Add Product hotspot needs a product"],
  addProductDetails: ["productId", "An Add Product hotspot needs a product"],
};

/** What JSON Schema cannot say about a link: it fits on the page, and its target suits its kind. */
export function checkLink(link: PdfLink, i: number) {
  const field = (name: string) => `links.${i}.${name}`;
  if (link.x + link.w > 1.000001 || link.y + link.h > 1.000001) {
    throw badRequest("A hotspot must lie within the page", [
      { field: field("w"), message: "goes past the page" },
    ]);
  }
  const [key, message] = TARGET_OF[link.kind];
  const value = link.target?.[key];
  if (value === undefined || value === "")
    throw badRequest(message, [{ field: field(`target.${key}`), message: "is required" }]);
}
