import { describe, expect, it } from "vitest";
import {
  arrivalPosition,
  comesBefore,
  MIN_POSITION_GAP,
  placeOnArrival,
  positionBetween,
} from "./board-positions";

const at = (id: string, position: number) => ({ id, position });

describe("board positions", () => {
  it("takes the midpoint between two neighbours, a gap past an end, zero in an empty column", () => {
    expect(positionBetween(at("a", 1024), at("b", 2048))).toBe(1536);
    expect(positionBetween(at("a", 1024), undefined)).toBe(2048);
    expect(positionBetween(undefined, at("b", 1024))).toBe(0);
    expect(positionBetween(undefined, undefined)).toBe(0);
  });

  it("asks for a renumbering when neighbours sit too close or equal, or no double lies between", () => {
    expect(positionBetween(at("a", 1), at("b", 1 + MIN_POSITION_GAP / 2))).toBeNull();
    expect(positionBetween(at("a", 7), at("b", 7))).toBeNull();
    const far = -1.7e12;
    expect(positionBetween(at("a", far), at("b", far + 2 ** -12))).toBeNull();
  });

  it("orders by position, then id", () => {
    expect(comesBefore(at("b", 1), at("a", 2))).toBe(true);
    expect(comesBefore(at("a", 1), at("b", 1))).toBe(true);
    expect(comesBefore(at("b", 1), at("a", 1))).toBe(false);
  });

  it("puts arrivals on top, the newest highest, even within one millisecond", () => {
    const first = arrivalPosition(1_000);
    const second = arrivalPosition(1_000);
    const later = arrivalPosition(2_000);
    expect(second).toBeLessThan(first);
    expect(later).toBeLessThan(second);
    expect(first).toBeLessThan(0);
  });

  it("places a created, restaged or reopened card, and leaves other writes alone", () => {
    const placed = (existing: Record<string, unknown> | null, values: Record<string, unknown>) => {
      const set: Record<string, unknown> = {};
      placeOnArrival(existing, values, set);
      return "position" in set;
    };
    const open = { stage: "new", status: "open" };
    expect(placed(null, { stage: "new" })).toBe(true);
    expect(placed(open, { stage: "qualified" })).toBe(true);
    expect(placed({ stage: "new", status: "won" }, { status: "open" })).toBe(true);
    expect(placed(open, { stage: "new", title: "Renamed" })).toBe(false);
    expect(placed(open, { status: "won" })).toBe(false);
  });
});
