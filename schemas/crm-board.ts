/**
 * The pipeline board's wire shapes (issue 16, docs/crm-api.md "Pipeline board"), shared by the
 * server's routes and the board screen: `GET /crm/opportunities/board` answers a Board,
 * `POST /crm/opportunities/{id}/move` takes a MoveTarget.
 */

/** What narrows the board. `owner` is a user's id or "none" (no owner); `from`/`to` bound the expected close. */
export interface BoardQuery {
  owner?: string;
  from?: string;
  to?: string;
  q?: string;
  /** Only these cards (a live refresh of changed ones); the columns still count everything. */
  ids?: string[];
}

/** The board's owner filter value for opportunities nobody owns. */
export const NO_OWNER = "none";

export interface BoardTotal {
  currency: string;
  value: number;
  /** The value times the stage's probability. */
  weighted: number;
}

export interface BoardColumn {
  stage: string;
  label: string;
  /** Percent chance of winning at this stage; null when the stage has none. */
  probability: number | null;
  color: string | null;
  /** An archived stage, or a value no option has: shown only while open cards are in it. */
  retired: boolean;
  count: number;
  totals: BoardTotal[];
}

export interface BoardCard {
  id: string;
  title: string;
  stage: string;
  value: number;
  currency: string;
  client_id: string;
  client_name: string;
  client_company: string | null;
  owner_id: string | null;
  expected_close: string | null;
  position: number;
}

export interface BoardOwner {
  id: string;
  name: string;
}

export interface Board {
  columns: BoardColumn[];
  /** In column order (position, then id). */
  cards: BoardCard[];
  /** Everyone who owns an open opportunity (the owner filter's choices). */
  owners: BoardOwner[];
  /** More cards match than the answer carries; the columns' counts still cover them all. */
  truncated: boolean;
}

/** Where a card goes: its stage, and the card it goes just after or just before (none: the end). */
export interface MoveTarget {
  stage: string;
  after?: string | null;
  before?: string | null;
}
