import { describe, expect, it } from "vitest";
import { describeTarget, indexAtPointer, sameTarget, stepOfKey, stepTarget } from "./board-dnd";

const rows = (first: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    index: first + i,
    top: (first + i) * 100,
    bottom: (first + i) * 100 + 90,
  }));

const columns = [
  { stage: "new", label: "New", size: 3 },
  { stage: "qualified", label: "Qualified", size: 0 },
];

describe("board drop places", () => {
  it("points before the first card in view whose middle is below the pointer, else after the last", () => {
    expect(indexAtPointer(10, rows(0, 3), null)).toBe(0);
    expect(indexAtPointer(60, rows(0, 3), null)).toBe(1);
    expect(indexAtPointer(500, rows(0, 3), null)).toBe(3);
    expect(indexAtPointer(10, [], null)).toBe(0);
    // Cards 10..12 in view (scrolled down): their own indexes.
    expect(indexAtPointer(1060, rows(10, 3), null)).toBe(11);
  });

  it("counts places among the other cards when the dragged card is in the column", () => {
    // Card 1 is dragged: below card 2's middle is after card 2, index 2 among the others.
    expect(indexAtPointer(260, rows(0, 4), 1)).toBe(2);
    expect(indexAtPointer(10, rows(0, 4), 1)).toBe(0);
    expect(indexAtPointer(900, rows(0, 4), 1)).toBe(3);
  });

  it("steps up and down a column, across columns, then to Won and Lost, and back", () => {
    const at = { kind: "column" as const, stage: "new", index: 2 };
    expect(stepTarget(at, "down", columns)).toEqual({ ...at, index: 3 });
    expect(stepTarget({ ...at, index: 3 }, "down", columns)).toEqual({ ...at, index: 3 });
    expect(stepTarget({ ...at, index: 0 }, "up", columns)).toEqual({ ...at, index: 0 });
    expect(stepTarget(at, "left", columns)).toEqual(at);
    const across = stepTarget(at, "right", columns);
    expect(across).toEqual({ kind: "column", stage: "qualified", index: 0 });
    expect(stepTarget(across, "right", columns)).toEqual({ kind: "won" });
    expect(stepTarget({ kind: "won" }, "right", columns)).toEqual({ kind: "lost" });
    expect(stepTarget({ kind: "lost" }, "right", columns)).toEqual({ kind: "lost" });
    expect(stepTarget({ kind: "lost" }, "left", columns)).toEqual({ kind: "won" });
    expect(stepTarget({ kind: "won" }, "left", columns)).toEqual({
      kind: "column",
      stage: "qualified",
      index: 0,
    });
    expect(stepTarget({ kind: "won" }, "down", columns)).toEqual({ kind: "won" });
  });

  it("says where a card would land", () => {
    expect(describeTarget({ kind: "column", stage: "new", index: 0 }, columns)).toBe("New, position 1 of 4");
    expect(describeTarget({ kind: "lost" }, columns)).toBe("Lost: letting go asks why it was lost");
    expect(describeTarget(null, columns)).toMatch(/leaves it where it was/);
    expect(stepOfKey("ArrowRight")).toBe("right");
    expect(stepOfKey("KeyA")).toBeUndefined();
    expect(sameTarget({ kind: "won" }, { kind: "won" })).toBe(true);
    expect(
      sameTarget({ kind: "column", stage: "new", index: 1 }, { kind: "column", stage: "new", index: 2 }),
    ).toBe(false);
  });
});
