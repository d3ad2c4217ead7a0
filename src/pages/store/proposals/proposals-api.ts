/**
 * A proposal's calls beyond the engine's CRUD (docs/store-api.md, Proposals): its lines and
 * totals, sending, the PDF, the cart, and the catalogue search of the line editor.
 */
import { createServiceClient } from "../../../../providers/http";
import type { Currency } from "../../../../schemas/money";
import type { ProposalLine, ProposalLineBody } from "../../../../schemas/proposal-lines";
import type { ProposalTotals } from "../../../../schemas/proposal-money";
import { attachmentName, saveBlob } from "../../../resources/csv/download";

const client = createServiceClient("api");
const one = (id: string) => `/api/proposals/${encodeURIComponent(id)}`;

export const proposalKeys = {
  lines: (id: string) => ["proposals", id, "lines"] as const,
  products: (q: string) => ["proposals", "products", q] as const,
};

export interface LinesAnswer {
  lines: ProposalLine[];
  totals: ProposalTotals;
}

/** A product of the catalogue as the line editor offers it. */
export interface CatalogueProduct {
  id: string;
  sku_code: string;
  name: string;
  price: number;
  currency: Currency;
}

export async function getLines(id: string): Promise<LinesAnswer> {
  return (await client.get<LinesAnswer>(`${one(id)}/lines`)).data;
}

/** Replaces a draft's lines: 400 with a message per line field (`lines.2.quantity`). */
export async function putLines(id: string, lines: ProposalLineBody[]): Promise<LinesAnswer> {
  return (await client.put<LinesAnswer>(`${one(id)}/lines`, { lines })).data;
}

export interface Sent {
  id: string;
  number: string;
  status: string;
  link: string;
}

export async function sendProposal(id: string, body: { mail: boolean; message?: string }): Promise<Sent> {
  return (await client.post<Sent>(`${one(id)}/send`, body)).data;
}

export interface Cart {
  cartId: string;
  checkoutUrl: string;
  cartUrl: string | null;
  currency: string;
  total: number;
}

export async function convertToCart(id: string): Promise<Cart> {
  return (await client.post<Cart>(`${one(id)}/cart`, {})).data;
}

/** Downloads the proposal's PDF. */
export async function downloadPdf(id: string, fallbackName: string): Promise<void> {
  const res = await client.get<Blob>(`${one(id)}/pdf`, { responseType: "blob" });
  saveBlob(res.data, attachmentName(res.headers["content-disposition"], fallbackName));
}

/** The whole catalogue searched by name or SKU (the list's `q`), 20 at a time. */
export async function searchProducts(q: string): Promise<CatalogueProduct[]> {
  const params = { q: q || undefined, pageSize: 20, sort: "name" };
  const res = await client.get<{ data: CatalogueProduct[] }>("/api/products", { params });
  return res.data.data;
}

/** The client's address of a sent proposal. */
export const publicLinkOf = (token: string) => `${window.location.origin}/public/proposals/${token}`;
