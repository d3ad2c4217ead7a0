import { describe, expect, it } from "vitest";
import {
  absoluteUrl,
  describeSelection,
  EMPTY_SELECTION,
  folderSortOf,
  formatBytes,
  type ItemKey,
  itemKey,
  keepVisible,
  parseItemKey,
  queued,
  runLimited,
  select,
  sendingPercentage,
  splitSelection,
  toggleAll,
  updateUpload,
  uploadSummary,
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

describe("uploadProgress", () => {
  it("starts every file pending at 0 percent", () => {
    let n = 0;
    const list = queued(
      [
        { name: "a.png", size: 10 },
        { name: "b.png", size: 30 },
      ],
      () => `u${++n}`,
    );
    expect(list).toEqual([
      { id: "u1", name: "a.png", size: 10, state: "pending", percentage: 0 },
      { id: "u2", name: "b.png", size: 30, state: "pending", percentage: 0 },
    ]);
  });

  it("holds at 99 percent until the server has answered", () => {
    expect(sendingPercentage(0)).toBe(0);
    expect(sendingPercentage(0.505)).toBe(50);
    expect(sendingPercentage(1)).toBe(99);
    expect(sendingPercentage(-1)).toBe(0);
  });

  it("sums the queue by bytes, counting done and failed files", () => {
    let list = queued(
      [
        { name: "a", size: 100 },
        { name: "b", size: 300 },
        { name: "c", size: 100 },
      ],
      (() => {
        let n = 0;
        return () => `u${++n}`;
      })(),
    );
    list = updateUpload(list, "u1", { state: "done", percentage: 100 });
    list = updateUpload(list, "u2", { state: "uploading", percentage: 50 });
    expect(uploadSummary(list)).toEqual({ done: 1, failed: 0, active: 2, percentage: 50 });
    list = updateUpload(list, "u3", { state: "error", message: "not allowed" });
    expect(uploadSummary(list)).toMatchObject({ failed: 1, active: 1 });
    expect(uploadSummary([])).toMatchObject({ active: 0, percentage: 100 });
  });
});

describe("runLimited", () => {
  it("never runs more than the limit at once, and one failure does not stop the rest", async () => {
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    await runLimited([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      if (n === 2) throw new Error("boom");
      done.push(n);
    });
    expect(peak).toBe(3);
    expect(done.sort()).toEqual([1, 3, 4, 5, 6, 7]);
  });
});

describe("display helpers", () => {
  it("formats bytes in binary units", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(5 * 1024 ** 2)).toBe("5.0 MB");
    expect(formatBytes(150 * 1024 ** 3)).toBe("150 GB");
  });

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
