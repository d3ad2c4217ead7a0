/**
 * The pipeline board's calls over the CRM service base (docs/crm-api.md "Pipeline board"): the
 * board, a card's move, and closing an opportunity as won or lost through the engine's PATCH.
 */
import { createServiceClient } from "../../../providers/http";
import type { Board, BoardQuery, MoveTarget } from "../../../schemas/crm-board";
import type { ResourceRecord } from "../../resources/types";

/** Paths are under the CRM base (`/crm` by default). */
const client = createServiceClient("crm");

/** The filters the screen sets (the route's query without `ids`). */
export type BoardFilters = Omit<BoardQuery, "ids">;

export const boardKeys = {
  all: ["crm-board"] as const,
  board: (filters: BoardFilters) => ["crm-board", filters] as const,
};

/** The query string: repeated `ids`, empty filters left out. */
export function boardSearch(query: BoardQuery): string {
  const params = new URLSearchParams();
  for (const key of ["owner", "from", "to", "q"] as const) {
    const value = query[key]?.trim();
    if (value) params.set(key, value);
  }
  for (const id of query.ids ?? []) params.append("ids", id);
  const text = params.toString();
  return text ? `?${text}` : "";
}

export async function getBoard(query: BoardQuery): Promise<Board> {
  return (await client.get<Board>(`/opportunities/board${boardSearch(query)}`)).data;
}

export async function moveOpportunity(id: string, target: MoveTarget): Promise<ResourceRecord> {
  return (await client.post<ResourceRecord>(`/opportunities/${encodeURIComponent(id)}/move`, target)).data;
}

/** How a card leaves the board: won (with an optional note) or lost (with a reason). */
export type Closing =
  | { status: "won"; close_note: string | null }
  | { status: "lost"; lost_reason: string; close_note: string | null };

export async function closeOpportunity(id: string, closing: Closing): Promise<ResourceRecord> {
  return (await client.patch<ResourceRecord>(`/opportunities/${encodeURIComponent(id)}`, closing)).data;
}
