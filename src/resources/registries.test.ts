import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../resources/index";
import { BULK_ACTIONS, ROW_ACTIONS, TOOLBAR_ACTIONS } from "./actions";
import { CUSTOM_PAGES } from "./custom-pages";
import { screenOf } from "./screens";

const sorted = (keys: string[]) => [...keys].sort();

describe("screen and action registries", () => {
  it("have every custom page and action a resource names", () => {
    const missing: string[] = [];
    for (const def of RESOURCES) {
      for (const key of Object.values(def.pages ?? {}))
        if (!(key in CUSTOM_PAGES)) missing.push(`${def.name} page ${key}`);
      for (const key of def.actions?.toolbar ?? [])
        if (!(key in TOOLBAR_ACTIONS)) missing.push(`${def.name} ${key}`);
      for (const key of def.actions?.row ?? []) if (!(key in ROW_ACTIONS)) missing.push(`${def.name} ${key}`);
      for (const key of def.actions?.bulk ?? [])
        if (!(key in BULK_ACTIONS)) missing.push(`${def.name} ${key}`);
    }
    expect(missing).toEqual([]);
  });

  it("give every resource a page for each screen", () => {
    for (const def of RESOURCES) {
      for (const screen of ["list", "create", "edit", "show"] as const)
        expect(screenOf(def, screen)).toBeTruthy();
    }
  });

  it("throw on a custom page key nobody registered", () => {
    expect(() => screenOf({ ...RESOURCES[0], pages: { list: "nope" } }, "list")).toThrow(
      /unknown list page "nope"/,
    );
  });

  it("keep their keys sorted", () => {
    for (const registry of [CUSTOM_PAGES, TOOLBAR_ACTIONS, ROW_ACTIONS, BULK_ACTIONS]) {
      expect(Object.keys(registry)).toEqual(sorted(Object.keys(registry)));
    }
  });
});
