import { describe, expect, it } from "vitest";
import { RESOURCES as ENTITIES } from "../../resources/index";
import { MODULE_IDS, MODULES } from "../../resources/modules";
import { moduleGroupId } from "../resources/routes";
import {
  accessMetaOf,
  BUILT_MODULES,
  byMenuOrder,
  isSoleNamesake,
  RESOURCES,
  resourcesOfModule,
} from "./resources";

const keyOf = (r: { identifier?: string; name: string }) => r.identifier ?? r.name;

/** Modules that have entities: each is a menu group of them. */
const GROUPS = MODULES.filter((m) => ENTITIES.some((e) => e.parent === m.key));

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
      const sole = MODULES.some((m) => m.key === def.parent && isSoleNamesake(m));
      expect(resource?.meta?.parent).toBe(def.parent && !sole ? moduleGroupId(def.parent) : undefined);
      expect(resource?.list).toBe(def.parent ? `/${def.parent}/${def.name}` : `/${def.name}`);
    }
  });

  it.each(GROUPS.map((m) => [m.key, m] as const))("make %s a menu group of its entities", (key, module) => {
    const group = RESOURCES.find((r) => r.identifier === moduleGroupId(key));
    expect(group).toMatchObject({ name: key, meta: { moduleID: module.moduleID, label: module.name } });
    expect(group?.list).toBeUndefined();
    // A group of one entity bearing the module's name is no menu level of its own.
    expect(Boolean(group?.meta?.hide)).toBe(isSoleNamesake(module));
    expect(BUILT_MODULES.has(key)).toBe(true);
    // Right after the group come its entities, in the order of their definitions.
    const own = ENTITIES.filter((e) => e.parent === key);
    const expected = [...own].sort(byMenuOrder).map((e) => e.name);
    expect(resourcesOfModule(key).map((r) => r.name)).toEqual(expected);
    const at = RESOURCES.indexOf(group!);
    expect(RESOURCES.slice(at + 1, at + 1 + own.length).map(keyOf)).toEqual(expected);
  });

  it("list modules in their menu order, each once", () => {
    // A module is its menu group (entities) or its own page (no identifier of its own).
    const isModule = (r: (typeof RESOURCES)[number]) =>
      MODULES.some((m) => (r.identifier ? r.identifier === moduleGroupId(m.key) : r.name === m.key));
    expect(RESOURCES.filter(isModule).map((r) => r.name)).toEqual(MODULES.map((m) => m.key));
  });

  it("resolve access by identifier, then name", () => {
    for (const def of ENTITIES) expect(accessMetaOf(def.name).moduleID).toBe(def.moduleID);
    for (const m of GROUPS) expect(accessMetaOf(moduleGroupId(m.key)).moduleID).toBe(m.moduleID);
    expect(accessMetaOf("users")).toEqual({ moduleID: MODULE_IDS.users, adminOnly: true });
    expect(accessMetaOf("home")).toEqual({ moduleID: undefined, adminOnly: false });
  });
});

describe("menu levels", () => {
  it("show the PDF library once: its one entity stands in its group's place", () => {
    const pdf = MODULES.find((m) => m.key === "pdf");
    expect(pdf && isSoleNamesake(pdf)).toBe(true);
    expect(RESOURCES.find((r) => r.identifier === "pdfs")?.meta?.parent).toBeUndefined();
    expect(RESOURCES.find((r) => r.identifier === moduleGroupId("pdf"))?.meta?.hide).toBe(true);
  });

  it("keep a group of several entities, even when one bears the module's name", () => {
    const products = MODULES.find((m) => m.key === "products");
    expect(products && isSoleNamesake(products)).toBe(false);
    expect(RESOURCES.find((r) => r.identifier === "products")?.meta?.parent).toBe(moduleGroupId("products"));
  });
});

describe("menu order of entities", () => {
  const entity = (label: string, order?: number) => ({ label, order });

  it("puts the lowest order first, then those without one, ties by label", () => {
    const sorted = [
      entity("Zebras"),
      entity("Brands", 2),
      entity("Apples"),
      entity("Widgets", 0),
      entity("Cats", 2),
    ]
      .sort(byMenuOrder)
      .map((e) => e.label);
    expect(sorted).toEqual(["Widgets", "Brands", "Cats", "Apples", "Zebras"]);
  });
});
