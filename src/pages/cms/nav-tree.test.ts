import { describe, expect, it } from "vitest";
import type { NavItem } from "../../../schemas/cms-navigation";
import {
  buildTree,
  dropRow,
  type FlatItem,
  flatten,
  moveRow,
  placeOf,
  removeRow,
  shiftDepth,
} from "./nav-tree";

const item = (id: string, children: NavItem[] = []): NavItem => ({
  id,
  label: id.toUpperCase(),
  kind: "group",
  children,
});
const shape = (flat: FlatItem[]) => flat.map((r) => `${"-".repeat(r.depth)}${r.item.id}`);

// a
//   b
//     c
// d
// e
const tree = [item("a", [item("b", [item("c")])]), item("d"), item("e")];

describe("navigation tree as a flat list", () => {
  it("flattens depth-first and builds the same tree back", () => {
    expect(shape(flatten(tree))).toEqual(["a", "-b", "--c", "d", "e"]);
    expect(buildTree(flatten(tree))).toEqual(tree);
  });

  it("moves a row with its subtree: up lands before the target, down after the target's subtree", () => {
    const flat = flatten(tree);
    expect(shape(moveRow(flat, 3, 0))).toEqual(["d", "a", "-b", "--c", "e"]);
    expect(shape(moveRow(flat, 0, 4))).toEqual(["d", "e", "a", "-b", "--c"]);
    expect(shape(moveRow(flat, 4, 1))).toEqual(["a", "-e", "-b", "--c", "d"]);
  });

  it("does not move a row into its own subtree", () => {
    const flat = flatten(tree);
    expect(moveRow(flat, 0, 2)).toEqual(flat);
  });

  it("indents under the row above and outdents with the subtree, within the maximum depth", () => {
    const flat = flatten(tree);
    expect(shape(shiftDepth(flat, 3, 1, 3))).toEqual(["a", "-b", "--c", "-d", "e"]);
    expect(shiftDepth(flat, 0, 1, 3)).toEqual(flat); // nothing above to nest under
    expect(shiftDepth(flat, 2, 1, 3)).toEqual(flat); // deeper than the row above allows
    expect(shape(shiftDepth(flat, 1, -1, 3))).toEqual(["a", "b", "-c", "d", "e"]);
    expect(shiftDepth(flatten([item("x"), item("y", [item("z")])]), 1, 1, 2)).toEqual(
      flatten([item("x"), item("y", [item("z")])]),
    );
  });

  it("removes a row with its subtree", () => {
    expect(shape(removeRow(flatten(tree), 0))).toEqual(["d", "e"]);
  });
});

describe("dropping a dragged row", () => {
  const flat = flatten(tree);
  it("moves and nests as far as the tree allows; a drop in place only nests", () => {
    // d nested under c's parent chain: one level deeper under a.
    expect(shape(dropRow(flat, 3, 3, 1, 4))).toEqual(["a", "-b", "--c", "-d", "e"]);
    // Three levels asked, the tree allows one more than the row above.
    expect(shape(dropRow(flat, 3, 3, 3, 4))).toEqual(["a", "-b", "--c", "---d", "e"]);
    // The maximum depth holds.
    expect(shape(dropRow(flat, 3, 3, 3, 2))).toEqual(["a", "-b", "--c", "-d", "e"]);
    // Moved up above d, then nested under a: e lands after c's subtree.
    expect(shape(dropRow(flat, 4, 3, 1, 4))).toEqual(["a", "-b", "--c", "-e", "d"]);
    expect(shape(dropRow(flat, 1, 1, -1, 4))).toEqual(["a", "b", "-c", "d", "e"]);
  });

  it("says a row's place in words", () => {
    expect(placeOf(flat, "c")).toBe("position 3 of 5, under B");
    expect(placeOf(flat, "d")).toBe("position 4 of 5, at the top level");
  });
});
