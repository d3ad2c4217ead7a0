import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../resources/index";
import { MODULES } from "../../resources/modules";
import { antdIconNames, definitionIcons } from "../../scripts/vite/antd-icons";
import { ICON_LOADERS } from "./icon-loaders";
import { isKnownIcon } from "./module-icons";

const ROOT = new URL("../..", import.meta.url).pathname;

/** Every icon a definition names, with where. */
const NAMED = [
  ...MODULES.map((m) => ({ where: `module ${m.key}`, icon: m.icon })),
  ...RESOURCES.map((r) => ({ where: `resource ${r.name}`, icon: r.icon })),
];

describe("icons by name", () => {
  it("know every antd icon, and only those", () => {
    expect(new Set(Object.keys(ICON_LOADERS))).toEqual(antdIconNames(ROOT));
    expect(isKnownIcon("ShoppingOutlined")).toBe(true);
    expect(isKnownIcon("ShoppingOutlinedd")).toBe(false);
    expect(isKnownIcon("toString")).toBe(false);
  });

  it("load an icon component by name", async () => {
    const { default: icon } = await ICON_LOADERS.TagsOutlined();
    expect((icon as { displayName?: string }).displayName).toBe("TagsOutlined");
  });

  it("show every icon a module or resource definition names", () => {
    expect(NAMED.filter((n) => !isKnownIcon(n.icon)).map((n) => `${n.where}: ${n.icon}`)).toEqual([]);
  });

  it("are all seen by the build's scan, which gives the build only the icons it reads", () => {
    // A computed icon name would escape the scan: the build would not ship that icon.
    const scanned = new Set(definitionIcons(ROOT).map((use) => use.name));
    expect(NAMED.filter((n) => !scanned.has(n.icon)).map((n) => `${n.where}: ${n.icon}`)).toEqual([]);
  });
});
