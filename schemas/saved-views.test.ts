import { describe, expect, it } from "vitest";
import { filterFieldsOf, pruneViewState, type SavedViewState } from "./saved-views";

const fields = {
  columns: new Set(["name", "status", "price"]),
  filters: new Set(["status", "price"]),
  sorts: new Set(["price", "updated_at"]),
};

describe("pruneViewState", () => {
  it("keeps a view that names only fields the list has, with no notice", () => {
    const state: SavedViewState = {
      filters: [
        { field: "q", operator: "contains", value: "lamp" },
        { field: "status", operator: "eq", value: "active" },
      ],
      sort: "-price",
      columns: ["name", "price"],
      pageSize: 25,
    };
    expect(pruneViewState(state, fields)).toEqual({ state, notices: [] });
  });

  it("leaves out filters, sorts and columns on a removed field, naming it by its title", () => {
    const { state, notices } = pruneViewState(
      {
        filters: [
          { field: "colour", operator: "eq", value: "red" },
          {
            operator: "or",
            value: [
              { field: "colour", operator: "eq", value: "blue" },
              { field: "price", operator: "gte", value: 10 },
            ],
          },
          { operator: "and", value: [{ field: "colour", operator: "null" }] },
        ],
        sort: "-colour,price",
        columns: ["name", "colour"],
        pageSize: 10,
        labels: { colour: "Colour" },
      },
      fields,
    );
    expect(state.filters).toEqual([
      { operator: "or", value: [{ field: "price", operator: "gte", value: 10 }] },
    ]);
    expect(state.sort).toBe("price");
    expect(state.columns).toEqual(["name"]);
    expect(notices).toEqual([
      "The filter on 'Colour' no longer exists and was left out of this view",
      "The sort by 'Colour' no longer exists and was left out of this view",
      "The column 'Colour' no longer exists and was left out of this view",
    ]);
  });

  it("names a field without a saved title by its name, and keeps the default columns as null", () => {
    const { state, notices } = pruneViewState({ filters: [], sort: "", columns: null, pageSize: 10 }, fields);
    expect(state.columns).toBeNull();
    expect(notices).toEqual([]);
    expect(pruneViewState({ filters: [], sort: "", columns: ["hue"], pageSize: 10 }, fields).notices).toEqual(
      ["The column 'hue' no longer exists and was left out of this view"],
    );
  });
});

describe("filterFieldsOf", () => {
  it("lists the fields of nested groups", () => {
    expect(
      filterFieldsOf([
        { field: "a", operator: "eq", value: 1 },
        {
          operator: "or",
          value: [
            { field: "b", operator: "eq" },
            { operator: "and", value: [{ field: "c", operator: "eq" }] },
          ],
        },
      ]),
    ).toEqual(["a", "b", "c"]);
  });
});
