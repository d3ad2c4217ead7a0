import { describe, expect, it } from "vitest";
import type { Board, BoardCard } from "../../../schemas/crm-board";
import {
  boardTotals,
  isSamePlace,
  mergeCards,
  moveCard,
  neighboursAt,
  removeCard,
  toBoardState,
} from "./board-state";

const card = (id: string, stage: string, position: number, value = 100, currency = "INR"): BoardCard => ({
  id,
  title: `Deal ${id}`,
  stage,
  value,
  currency,
  client_id: "c",
  client_name: "Asha",
  client_company: null,
  owner_id: null,
  expected_close: null,
  position,
});

const board = (): Board => ({
  columns: [
    {
      stage: "new",
      label: "New",
      probability: 10,
      color: null,
      retired: false,
      count: 3,
      totals: [{ currency: "INR", value: 300, weighted: 30 }],
    },
    {
      stage: "won-soon",
      label: "Proposal",
      probability: 50,
      color: null,
      retired: false,
      count: 1,
      totals: [{ currency: "USD", value: 100, weighted: 50 }],
    },
  ],
  cards: [
    card("a", "new", 1),
    card("b", "new", 2),
    card("c", "new", 3),
    card("d", "won-soon", 1, 100, "USD"),
  ],
  owners: [],
  truncated: false,
});

const titles = (state: ReturnType<typeof toBoardState>, stage: string) => state.cards[stage].map((c) => c.id);

describe("board state", () => {
  it("groups cards by stage in board order, with an empty list for an empty column", () => {
    const state = toBoardState({ ...board(), cards: [card("a", "new", 1)] });
    expect(titles(state, "new")).toEqual(["a"]);
    expect(state.cards["won-soon"]).toEqual([]);
  });

  it("moves a card within its column and gives the neighbours the move route takes", () => {
    const state = toBoardState(board());
    expect(neighboursAt(state, "a", "new", 2)).toEqual({ after: "c", before: null });
    expect(neighboursAt(state, "c", "new", 0)).toEqual({ after: null, before: "a" });
    const moved = moveCard(state, "a", "new", 2);
    expect(titles(moved, "new")).toEqual(["b", "c", "a"]);
    expect(moved.columns).toBe(state.columns);
    expect(isSamePlace(state, state.cards.new[1], "new", 1)).toBe(true);
    expect(isSamePlace(state, state.cards.new[1], "new", 0)).toBe(false);
  });

  it("moves a card to another column with its value in that column's totals", () => {
    const moved = moveCard(toBoardState(board()), "b", "won-soon", 0);
    expect(titles(moved, "new")).toEqual(["a", "c"]);
    expect(titles(moved, "won-soon")).toEqual(["b", "d"]);
    expect(moved.cards["won-soon"][0].position).toBeLessThan(1);
    expect(moved.columns[0]).toMatchObject({
      count: 2,
      totals: [{ currency: "INR", value: 200, weighted: 20 }],
    });
    expect(moved.columns[1]).toMatchObject({
      count: 2,
      totals: [
        { currency: "INR", value: 100, weighted: 50 },
        { currency: "USD", value: 100, weighted: 50 },
      ],
    });
  });

  it("takes a closed card off with its value", () => {
    const state = removeCard(toBoardState(board()), "d");
    expect(state.cards["won-soon"]).toEqual([]);
    expect(state.columns[1]).toMatchObject({ count: 0, totals: [] });
    expect(boardTotals(state.columns)).toEqual({
      count: 3,
      totals: [{ currency: "INR", value: 300, weighted: 30 }],
    });
  });

  it("merges changed cards in at their place and drops those gone, but not a pending move", () => {
    const state = toBoardState(board());
    const fresh: Board = { ...board(), cards: [card("c", "new", 1.5), card("x", "new", 0.5)] };
    const merged = mergeCards(state, fresh, ["c", "x", "d"]);
    expect(titles(merged, "new")).toEqual(["x", "a", "c", "b"]);
    expect(merged.cards["won-soon"]).toEqual([]);
    const kept = mergeCards(state, fresh, ["c", "x", "d"], new Set(["d"]));
    expect(titles(kept, "won-soon")).toEqual(["d"]);
  });
});
