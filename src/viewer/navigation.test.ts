import { describe, expect, it } from "vitest";
import { refFromPath } from "./api";
import {
  clampPage,
  fitScale,
  imageSizeFor,
  MAX_ZOOM,
  MIN_ZOOM,
  nextPage,
  pageFromHash,
  previousPage,
  snippetParts,
  spreadOf,
  zoomIn,
  zoomOut,
} from "./navigation";

describe("pages", () => {
  it("keeps page numbers within the catalogue", () => {
    expect(clampPage(0, 5)).toBe(1);
    expect(clampPage(9, 5)).toBe(5);
    expect(clampPage(2.6, 5)).toBe(3);
    expect(clampPage(Number.NaN, 5)).toBe(1);
    expect(clampPage(3, 0)).toBe(1);
  });

  it("shows one page, or the cover alone and then pairs in a spread", () => {
    expect(spreadOf(3, 6, false)).toEqual([3]);
    expect(spreadOf(1, 6, true)).toEqual([1]);
    expect(spreadOf(2, 6, true)).toEqual([2, 3]);
    expect(spreadOf(3, 6, true)).toEqual([2, 3]);
    expect(spreadOf(6, 6, true)).toEqual([6]);
    expect(spreadOf(5, 5, true)).toEqual([4, 5]);
  });

  it("turns single pages", () => {
    expect(nextPage(1, 3, false)).toBe(2);
    expect(nextPage(3, 3, false)).toBeNull();
    expect(previousPage(2, 3, false)).toBe(1);
    expect(previousPage(1, 3, false)).toBeNull();
  });

  it("turns spreads", () => {
    expect(nextPage(1, 6, true)).toBe(2);
    expect(nextPage(2, 6, true)).toBe(4);
    expect(nextPage(5, 6, true)).toBe(6);
    expect(nextPage(6, 6, true)).toBeNull();
    expect(previousPage(5, 6, true)).toBe(2);
    expect(previousPage(3, 6, true)).toBe(1);
    expect(previousPage(1, 6, true)).toBeNull();
  });

  it("reads the page of the address", () => {
    expect(pageFromHash("#page=4")).toBe(4);
    expect(pageFromHash("")).toBeNull();
    expect(pageFromHash("#page=x")).toBeNull();
  });

  it("reads the catalogue reference of the address", () => {
    expect(refFromPath("/view/spring-2026")).toBe("spring-2026");
    expect(refFromPath("/view/spring-2026/")).toBe("spring-2026");
    expect(refFromPath("/view/0b9c2f40-1f1e-4a57-9b0a-1c2d3e4f5a6b")).toBe(
      "0b9c2f40-1f1e-4a57-9b0a-1c2d3e4f5a6b",
    );
    expect(refFromPath("/view/")).toBeNull();
    expect(refFromPath("/view/a/b")).toBeNull();
    expect(refFromPath("/view/%E0%A4%A")).toBeNull();
    expect(refFromPath("/manage/")).toBeNull();
  });
});

describe("zoom", () => {
  it("steps in and out between its bounds", () => {
    expect(zoomIn(1)).toBe(1.25);
    expect(zoomOut(1)).toBe(0.75);
    expect(zoomIn(MAX_ZOOM)).toBe(MAX_ZOOM);
    expect(zoomOut(MIN_ZOOM)).toBe(MIN_ZOOM);
    expect(zoomIn(1.1)).toBe(1.25);
  });

  it("loads the 2400 px image past 150 %", () => {
    expect(imageSizeFor(1)).toBe("screen");
    expect(imageSizeFor(1.5)).toBe("screen");
    expect(imageSizeFor(2)).toBe("zoom");
  });

  it("fits pages side by side into the space there is", () => {
    const a4 = { width: 595, height: 842 };
    expect(fitScale([a4], 595, 2000)).toBe(1);
    expect(fitScale([a4], 2000, 421)).toBe(0.5);
    expect(fitScale([a4, a4], 595, 2000)).toBe(0.5);
    expect(fitScale([], 100, 100)).toBe(1);
  });
});

describe("snippetParts", () => {
  it("cuts the hits marked « » out of a snippet", () => {
    expect(snippetParts("Atelier «catalogue» page «2» linen")).toEqual([
      { text: "Atelier ", hit: false },
      { text: "catalogue", hit: true },
      { text: " page ", hit: false },
      { text: "2", hit: true },
      { text: " linen", hit: false },
    ]);
    expect(snippetParts("no hits")).toEqual([{ text: "no hits", hit: false }]);
    expect(snippetParts("")).toEqual([]);
  });
});
