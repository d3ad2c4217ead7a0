import { describe, expect, it } from "vitest";
import {
  addLink,
  copiedLinks,
  loaded,
  MIN_SIZE,
  missingTarget,
  moved,
  rectFrom,
  removeLink,
  resized,
  saved,
  undo,
  updateLink,
  youtubeIdOf,
} from "./hotspot-editor-state";

const rect = { x: 0.1, y: 0.1, w: 0.2, h: 0.1 };

describe("geometry", () => {
  it("draws a rectangle from corners in any order, kept on the page", () => {
    expect(rectFrom({ x: 0.5, y: 0.5 }, { x: 0.2, y: 0.9 })).toEqual({ x: 0.2, y: 0.5, w: 0.3, h: 0.4 });
    const r = rectFrom({ x: -0.2, y: 0.5 }, { x: 1.4, y: 0.6 });
    expect(r.x).toBe(0);
    expect(r.w).toBe(1);
  });

  it("moves within the page", () => {
    const m = moved(rect, 0.1, 0.2);
    expect(m.x).toBeCloseTo(0.2);
    expect(m.y).toBeCloseTo(0.3);
    expect(moved(rect, 5, -5)).toEqual({ ...rect, x: 0.8, y: 0 });
  });

  it("resizes by a corner without turning inside out", () => {
    const grown = resized(rect, "se", 0.1, 0.1);
    expect(grown).toMatchObject({ x: 0.1, y: 0.1 });
    expect(grown.w).toBeCloseTo(0.3);
    expect(grown.h).toBeCloseTo(0.2);
    const squashed = resized(rect, "nw", 0.5, 0.5);
    expect(squashed.w).toBeCloseTo(MIN_SIZE);
    expect(squashed.h).toBeCloseTo(MIN_SIZE);
    const stretched = resized(rect, "ne", 5, -5);
    expect(stretched.y).toBe(0);
    expect(stretched.w).toBeCloseTo(0.9);
  });
});

describe("editing", () => {
  it("adds a drawn hotspot and selects it; ignores a click-sized one", () => {
    const s = addLink(loaded([], 3), rect, "pageLink");
    expect(s.links).toEqual([{ ...rect, kind: "pageLink", target: { page: 1 }, button: null }]);
    expect(s.selected).toBe(0);
    expect(s.dirty).toBe(true);
    expect(addLink(s, { x: 0.5, y: 0.5, w: 0.001, h: 0.2 })).toBe(s);
  });

  it("changing the kind starts from that kind's target", () => {
    let s = addLink(loaded([], 0), rect, "link", { url: "https://example.com" });
    s = updateLink(s, 0, { kind: "video" });
    expect(s.links[0]).toMatchObject({ kind: "video", target: { youtubeId: "" } });
  });

  it("undoes changes one by one, back to the loaded links", () => {
    let s = loaded([{ ...rect, kind: "text", target: { text: "Hi" } }], 7);
    s = updateLink(s, 0, { x: 0.5 });
    s = removeLink(s, 0);
    expect(s.links).toEqual([]);
    s = undo(s);
    expect(s.links[0].x).toBe(0.5);
    s = undo(s);
    expect(s.links[0].x).toBe(0.1);
    expect(undo(s)).toBe(s);
  });

  it("keeps the server's revision as the base after a save", () => {
    const s = saved(addLink(loaded([], 2), rect), [], 3);
    expect(s).toMatchObject({ revision: 3, dirty: false });
  });

  it("copies hotspots without their ids", () => {
    const copies = copiedLinks([{ id: "a", ...rect, kind: "pageLink", target: { page: 2 } }]);
    expect(copies).toEqual([{ ...rect, kind: "pageLink", target: { page: 2 } }]);
  });
});

describe("targets", () => {
  it("reads YouTube ids from the links people paste", () => {
    expect(youtubeIdOf("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1")).toBe("dQw4w9WgXcQ");
    expect(youtubeIdOf("https://youtu.be/dQw4w9WgXcQ")).toBe("dQw4w9WgXcQ");
    expect(youtubeIdOf("https://www.youtube.com/embed/dQw4w9WgXcQ")).toBe("dQw4w9WgXcQ");
    expect(youtubeIdOf("dQw4w9WgXcQ")).toBe("dQw4w9WgXcQ");
    expect(youtubeIdOf("not a video")).toBe("");
  });

  it("says what a hotspot still needs", () => {
    expect(missingTarget({ ...rect, kind: "link", target: { url: "example.com" } })).toMatch(/http/);
    expect(missingTarget({ ...rect, kind: "link", target: { url: "https://example.com" } })).toBeNull();
    expect(missingTarget({ ...rect, kind: "addProduct", target: {} })).toBe("Choose a product");
    expect(missingTarget({ ...rect, kind: "text", target: { text: "  " } })).toBe("Write the text to show");
  });
});
