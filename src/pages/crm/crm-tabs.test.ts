import { describe, expect, it } from "vitest";
import { resourcesOfModule } from "../../layout/resources";
import { DEFAULT_ENTITY_TAB, entityTabs, opportunityView, selectedEntityTab } from "./crm-tabs";

describe("CRM entity tabs", () => {
  it("numbers the CRM's entities from 1 in menu order: Clients, Opportunities, Tasks first", () => {
    const tabs = entityTabs(resourcesOfModule("crm"));
    expect(tabs.slice(0, 3).map((t) => [t.number, t.def.label])).toEqual([
      [1, "Clients"],
      [2, "Opportunities"],
      [3, "Tasks"],
    ]);
  });

  it("selects tab 1 by default and for anything that names no tab", () => {
    expect(DEFAULT_ENTITY_TAB).toBe(1);
    for (const param of [null, "", "0", "-1", "1.5", "abc", "6"])
      expect(selectedEntityTab(param, 5), String(param)).toBe(1);
    expect(selectedEntityTab("2", 5)).toBe(2);
    expect(selectedEntityTab("5", 5)).toBe(5);
  });

  it("shows the board unless the list is asked for", () => {
    expect(opportunityView(null)).toBe("board");
    expect(opportunityView("board")).toBe("board");
    expect(opportunityView("list")).toBe("list");
  });
});
