import { describe, expect, it } from "vitest";
import {
  absoluteUrl,
  describeSelection,
  EMPTY_SELECTION,
  folderSortOf,
  type ItemKey,
  itemKey,
  keepVisible,
  parseItemKey,
  select,
  splitSelection,
  toggleAll,
} from "./dam-logic";

const order: ItemKey[] = ["folder:f1", "folder:f2", "asset:a", "asset:b", "asset:c"];
const keys = (s: { selected: ReadonlySet<ItemKey> }) => [...s.selected].sort();

describe("item keys", () => {
  it("round-trip ids that contain colons", () => {
    expect(parseItemKey(itemKey("asset", "x:y"))).toEqual({ kind: "asset", id: "x:y" });
  });
});

describe("select", () => {
  it("a plain click selects that item alone and makes it the anchor", () => {
    const s = select({ selected: new Set(order), anchor: "folder:f1" }, order, "asset:b");
    expect(keys(s)).toEqual(["asset:b"]);
    expect(s.anchor).toBe("asset:b");
  });

  it("ctrl/cmd toggles one item and keeps the rest", () => {
    let s = select(EMPTY_SELECTION, order, "asset:a");
    s = select(s, order, "folder:f2", { toggle: true });
    expect(keys(s)).toEqual(["asset:a", "folder:f2"]);
    s = select(s, order, "asset:a", { toggle: true });
    expect(keys(s)).toEqual(["folder:f2"]);
  });

  it("shift selects the range from the anchor, in either direction, across folders and assets", () => {
    let s = select(EMPTY_SELECTION, order, "asset:b");
    s = select(s, order, "folder:f2", { range: true });
    expect(keys(s)).toEqual(["asset:a", "asset:b", "folder:f2"]);
    // The anchor stays: a second shift-click replaces the range.
    s = select(s, order, "asset:c", { range: true });
    expect(keys(s)).toEqual(["asset:b", "asset:c"]);
  });

  it("ctrl+shift adds the range to the selection", () => {
    let s = select(EMPTY_SELECTION, order, "folder:f1");
    s = select(s, order, "asset:b", { toggle: true });
    s = select(s, order, "asset:c", { toggle: true, range: true });
    expect(keys(s)).toEqual(["asset:b", "asset:c", "folder:f1"]);
  });

  it("shift without an anchor is a plain click", () => {
    expect(keys(select(EMPTY_SELECTION, order, "asset:a", { range: true }))).toEqual(["asset:a"]);
  });
});

describe("toggleAll and keepVisible", () => {
  it("selects every item, or none when all already are", () => {
    const all = toggleAll(EMPTY_SELECTION, order);
    expect(all.selected.size).toBe(order.length);
    expect(toggleAll(all, order).selected.size).toBe(0);
    expect(toggleAll(select(EMPTY_SELECTION, order, "asset:a"), order).selected.size).toBe(order.length);
    expect(toggleAll(EMPTY_SELECTION, []).selected.size).toBe(0);
  });

  it("drops items no longer shown, and the anchor with them", () => {
    const s = select(select(EMPTY_SELECTION, order, "asset:a"), order, "asset:b", { toggle: true });
    const kept = keepVisible(s, ["asset:a", "asset:c"]);
    expect(keys(kept)).toEqual(["asset:a"]);
    expect(kept.anchor).toBeNull();
    // Nothing gone: the very same state, so React does not re-render.
    expect(keepVisible(s, order)).toBe(s);
  });
});

describe("splitSelection and describeSelection", () => {
  it("gives the spec's selectedFolders and selectedAssets", () => {
    expect(splitSelection(["asset:a", "folder:f2", "asset:c"])).toEqual({
      selectedFolders: ["f2"],
      selectedAssets: ["a", "c"],
    });
  });

  it("names what is selected in words", () => {
    expect(describeSelection(2, 3)).toBe("2 folders and 3 assets");
    expect(describeSelection(0, 1)).toBe("1 asset");
    expect(describeSelection(1, 0)).toBe("1 folder");
    expect(describeSelection(0, 0)).toBe("nothing");
  });
});

describe("display helpers", () => {
  it("sorts folders by name when assets sort by size", () => {
    expect(folderSortOf("-size")).toBe("name");
    expect(folderSortOf("-name")).toBe("-name");
    expect(folderSortOf("-createdAt")).toBe("-createdAt");
  });

  it("makes asset URLs absolute, leaving absolute ones alone", () => {
    expect(absoluteUrl("/assets/ab/cd.png", "http://localhost:8080")).toBe(
      "http://localhost:8080/assets/ab/cd.png",
    );
    expect(absoluteUrl("https://cdn.example.com/x.png", "http://localhost:8080")).toBe(
      "https://cdn.example.com/x.png",
    );
  });
});
