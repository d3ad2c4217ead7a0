/**
 * The pipeline board as the screen holds it: columns in stage order, each with its cards in
 * board order, and the pure changes made to it — a card moved (at once, before the server
 * answers), a card closed as won or lost, and changed cards merged in from a live refresh.
 * Counts and totals follow every local change, so the headers never lag behind the cards; the
 * server's figures replace them when they come. Figures are made as the server makes them
 * (boardTotalOf: hundredths, the weighted value rounded half up once per column).
 */
import {
  type Board,
  type BoardCard,
  type BoardColumn,
  type BoardOwner,
  type BoardTotal,
  boardMinor,
  boardTotalOf,
} from "../../../schemas/crm-board";
import { fromPlaces, PRICE_PLACES } from "../../../schemas/money";

export interface BoardState {
  columns: BoardColumn[];
  /** Each stage's cards in board order. */
  cards: Readonly<Record<string, readonly BoardCard[]>>;
  owners: BoardOwner[];
  truncated: boolean;
}

/** Where a card goes: a place in a column (an index among the column's other cards), or a close. */
export type DropTarget =
  | { kind: "column"; stage: string; index: number }
  | { kind: "won" }
  | { kind: "lost" };

/** Board order: position, then id. */
export const cardOrder = (a: BoardCard, b: BoardCard) =>
  a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The board answer as columns of cards. */
export function toBoardState(board: Board): BoardState {
  const cards: Record<string, BoardCard[]> = {};
  for (const column of board.columns) cards[column.stage] = [];
  for (const card of board.cards) {
    cards[card.stage] ??= [];
    cards[card.stage].push(card);
  }
  return { columns: board.columns, cards, owners: board.owners, truncated: board.truncated };
}

/** The card with this id and its stage, or undefined. */
export function findCard(state: BoardState, id: string): BoardCard | undefined {
  for (const list of Object.values(state.cards)) {
    const card = list.find((c) => c.id === id);
    if (card) return card;
  }
  return undefined;
}

/**
 * A column's figures with a card's value added (`sign` 1) or taken away (-1): the value's sum in
 * hundredths, and the weighted value made again from it (as the server makes it, so a column
 * shows the same figure before and after the server's answer).
 */
export function withCard(column: BoardColumn, card: BoardCard, sign: 1 | -1): BoardColumn {
  const before = column.totals.find((t) => t.currency === card.currency);
  const minor = boardMinor(before?.value ?? 0) + sign * boardMinor(card.value);
  const total = boardTotalOf(card.currency, minor, column.probability);
  const totals: BoardTotal[] = [...column.totals.filter((t) => t !== before), total];
  totals.sort((a, b) => a.currency.localeCompare(b.currency));
  return {
    ...column,
    count: Math.max(0, column.count + sign),
    // Taken away to nothing, a currency leaves the header (the server's figures say the same).
    totals: sign < 0 ? totals.filter((t) => t.value !== 0) : totals,
  };
}

/**
 * The cards a drop at `index` of `stage` puts the card between (its new neighbours), read from
 * the column as shown; `after` and `before` are what the move route takes.
 */
export function neighboursAt(
  state: BoardState,
  cardId: string,
  stage: string,
  index: number,
): { after: string | null; before: string | null } {
  const others = (state.cards[stage] ?? []).filter((c) => c.id !== cardId);
  return { after: others[index - 1]?.id ?? null, before: others[index]?.id ?? null };
}

/** Whether a drop at `index` of `stage` leaves the card where it is. */
export function isSamePlace(state: BoardState, card: BoardCard, stage: string, index: number): boolean {
  if (card.stage !== stage) return false;
  return (state.cards[stage] ?? []).findIndex((c) => c.id === card.id) === index;
}

/** A position between the new neighbours, for the order until the server's own comes back. */
function localPosition(others: readonly BoardCard[], index: number): number {
  const lower = others[index - 1]?.position;
  const upper = others[index]?.position;
  if (lower === undefined && upper === undefined) return 0;
  if (lower === undefined) return (upper as number) - 1024;
  if (upper === undefined) return lower + 1024;
  return lower + (upper - lower) / 2;
}

/** The board with a card moved to `index` (among the other cards) of `stage`, figures included. */
export function moveCard(state: BoardState, cardId: string, stage: string, index: number): BoardState {
  const card = findCard(state, cardId);
  if (!card) return state;
  const cards = { ...state.cards };
  cards[card.stage] = cards[card.stage].filter((c) => c.id !== cardId);
  const others = [...(cards[stage] ?? []).filter((c) => c.id !== cardId)];
  const at = Math.max(0, Math.min(index, others.length));
  const moved = { ...card, stage, position: localPosition(others, at) };
  others.splice(at, 0, moved);
  cards[stage] = others;
  const columns =
    card.stage === stage
      ? state.columns
      : state.columns.map((c) =>
          c.stage === card.stage ? withCard(c, card, -1) : c.stage === stage ? withCard(c, card, 1) : c,
        );
  return { ...state, cards, columns };
}

/** The board without a card (closed as won or lost), figures included. */
export function removeCard(state: BoardState, cardId: string): BoardState {
  const card = findCard(state, cardId);
  if (!card) return state;
  return {
    ...state,
    cards: { ...state.cards, [card.stage]: state.cards[card.stage].filter((c) => c.id !== cardId) },
    columns: state.columns.map((c) => (c.stage === card.stage ? withCard(c, card, -1) : c)),
  };
}

/**
 * The board with a partial answer merged in: the columns and owners as the server counts them
 * now, and each of `ids` taken out and, when the answer still has it (it matches the filters and
 * is open), put back at its place by position. Cards in `pending` (a move of this screen not yet
 * answered) keep the place this screen gave them.
 */
export function mergeCards(
  state: BoardState,
  fresh: Board,
  ids: readonly string[],
  pending: ReadonlySet<string> = new Set(),
): BoardState {
  const changed = new Set(ids.filter((id) => !pending.has(id)));
  const cards: Record<string, BoardCard[]> = {};
  for (const column of fresh.columns) cards[column.stage] = [];
  for (const [stage, list] of Object.entries(state.cards))
    cards[stage] = list.filter((c) => !changed.has(c.id));
  for (const card of fresh.cards) {
    if (!changed.has(card.id)) continue;
    cards[card.stage] ??= [];
    const list = cards[card.stage];
    const at = list.findIndex((c) => cardOrder(card, c) < 0);
    list.splice(at < 0 ? list.length : at, 0, card);
  }
  return { columns: fresh.columns, cards, owners: fresh.owners, truncated: state.truncated };
}

/**
 * The whole board's figures: open cards, and totals and weighted totals per currency, each the
 * exact sum of the columns' figures (in hundredths), so the header adds up to what the columns
 * show.
 */
export function boardTotals(columns: readonly BoardColumn[]): { count: number; totals: BoardTotal[] } {
  const byCurrency = new Map<string, { value: number; weighted: number }>();
  let count = 0;
  for (const column of columns) {
    count += column.count;
    for (const t of column.totals) {
      const sum = byCurrency.get(t.currency) ?? { value: 0, weighted: 0 };
      sum.value += boardMinor(t.value);
      sum.weighted += boardMinor(t.weighted);
      byCurrency.set(t.currency, sum);
    }
  }
  return {
    count,
    totals: [...byCurrency]
      .map(([currency, sum]) => ({
        currency,
        value: fromPlaces(sum.value, PRICE_PLACES),
        weighted: fromPlaces(sum.weighted, PRICE_PLACES),
      }))
      .sort((a, b) => a.currency.localeCompare(b.currency)),
  };
}
