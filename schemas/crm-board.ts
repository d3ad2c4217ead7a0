/**
 * The pipeline board's wire shapes (issue 16, docs/crm-api.md "Pipeline board"), shared by the
 * server's routes and the board screen: `GET /crm/opportunities/board` answers a Board,
 * `POST /crm/opportunities/{id}/move` takes a MoveTarget.
 */
import { fromPlaces, minorAt, PRICE_PLACES, percentOfMinor } from "./money";

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
  /** The exact sum of the cards' values. */
  value: number;
  /** The value times the stage's probability, rounded half up to the hundredth. */
  weighted: number;
}

/**
 * A column's figures in one currency from the sum of its cards' values in hundredths (values
 * have two decimals in every currency): the value exact, the weighted value `value ×
 * probability %` in integers, rounded half up once (₹0.29 at 50 % → ₹0.15), by the money module.
 * The server and the screen (after a local move) both make a column's figures here.
 *
 * @example
 * boardTotalOf("INR", 29, 50); // { currency: "INR", value: 0.29, weighted: 0.15 }
 */
export function boardTotalOf(currency: string, valueMinor: number, probability: number | null): BoardTotal {
  return {
    currency,
    value: fromPlaces(valueMinor, PRICE_PLACES),
    weighted: fromPlaces(percentOfMinor(valueMinor, probability ?? 0) ?? 0, PRICE_PLACES),
  };
}

/** An amount of the board (a card's value, a total) in hundredths: exact, values have two decimals. */
export const boardMinor = (amount: number | string): number => minorAt(amount, PRICE_PLACES) ?? 0;

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
