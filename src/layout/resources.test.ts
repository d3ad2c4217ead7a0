import { describe, expect, it } from "vitest";
import { RESOURCES as ENTITIES } from "../../resources/index";
import { MODULE_IDS } from "../../resources/modules";
import { moduleGroupId } from "../resources/routes";
import { accessMetaOf, BUILT_MODULES, RESOURCES, resourcesOfModule } from "./resources";

const keyOf = (r: { identifier?: string; name: string }) => r.identifier ?? r.name;

describe("Refine resources", () => {
  it("have unique identifiers, and every parent exists", () => {
    const keys = RESOURCES.map(keyOf);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of RESOURCES) {
      const parent = r.meta?.parent;
      if (parent) expect(keys).toContain(parent);
    }
  });

  it("register every entity with its routes, module, base and menu group", () => {
    for (const def of ENTITIES) {
      const resource = RESOURCES.find((r) => r.identifier === def.name);
      expect(resource).toMatchObject({
        name: def.name,
        meta: { label: def.label, moduleID: def.moduleID, dataProviderName: def.base },
      });
      expect(resource?.meta?.parent).toBe(def.parent ? moduleGroupId(def.parent) : undefined);
      expect(resource?.list).toBe(def.parent ? `/${def.parent}/${def.name}` : `/${def.name}`);
    }
  });

  it("make Products a menu group of its resources, product first", () => {
    const group = RESOURCES.find((r) => r.identifier === moduleGroupId("products"));
    expect(group).toMatchObject({
      name: "products",
      meta: { moduleID: MODULE_IDS.products, label: "Products" },
    });
    expect(group?.list).toBeUndefined();
    expect(resourcesOfModule("products").map((r) => r.name)).toEqual([
      "products",
      "categories",
      "sub-categories",
    ]);
    expect(BUILT_MODULES.has("products")).toBe(true);
    expect(BUILT_MODULES.has("crm")).toBe(false);
  });

  it("resolve access by identifier, then name", () => {
    expect(accessMetaOf("products")).toEqual({ moduleID: MODULE_IDS.products, adminOnly: false });
    expect(accessMetaOf(moduleGroupId("products")).moduleID).toBe(MODULE_IDS.products);
    expect(accessMetaOf("users")).toEqual({ moduleID: MODULE_IDS.users, adminOnly: true });
    expect(accessMetaOf("home")).toEqual({ moduleID: undefined, adminOnly: false });
  });
});
