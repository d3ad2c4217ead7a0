import { describe, expect, it } from "vitest";
import { CANVAS_END, dropIndex, inLowerHalf, paletteId, paletteKind } from "./builder-dnd";

const rect = (top: number, height: number) => ({
  top,
  height,
  left: 0,
  width: 100,
  bottom: top + height,
  right: 100,
});

describe("where a kind dragged from the palette lands", () => {
  it("goes before the card it is over, after it over its lower half, or at the end", () => {
    const ids = ["name", "email"];
    expect(dropIndex("email", ids, false)).toBe(1);
    expect(dropIndex("email", ids, true)).toBe(2);
    expect(dropIndex(CANVAS_END, ids, false)).toBe(2);
    expect(dropIndex(null, ids, false)).toBeNull();
    expect(dropIndex("palette:text", ids, false)).toBeNull();
  });

  it("reads the lower half from the middles of the two rectangles", () => {
    expect(inLowerHalf(rect(40, 20), rect(0, 80))).toBe(true);
    expect(inLowerHalf(rect(10, 20), rect(0, 80))).toBe(false);
    expect(inLowerHalf(null, rect(0, 80))).toBe(false);
  });

  it("tells palette items from cards by their ids", () => {
    expect(paletteKind(paletteId("rating"))).toBe("rating");
    expect(paletteKind("rating")).toBeNull();
  });
});
