/** The build's icon plugin: finds the names definitions use, warns on unknown ones, splits the rest. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  antdIconNames,
  closestIconName,
  DEFINITION_ICONS_ID,
  definitionIcons,
  definitionIconsSource,
  iconLoadersSource,
  iconNamesIn,
  unknownIconWarnings,
} from "../../scripts/vite/antd-icons";
import { browserTwinOf } from "../../scripts/vite/browser-finders";

const ROOT = path.resolve(import.meta.dirname, "../..");
const KNOWN = antdIconNames(ROOT);

describe("antd icon names", () => {
  it("are the icon modules of @ant-design/icons", () => {
    expect(KNOWN.size).toBeGreaterThan(800);
    for (const name of ["ShoppingOutlined", "HeartFilled", "SmileTwoTone"])
      expect(KNOWN.has(name), name).toBe(true);
    expect(KNOWN.has("index")).toBe(false);
  });

  it("are read from a definition's icon lines", () => {
    const source = `export const a = { icon: "TagsOutlined", label: "icon: nope" };\nconst b = { icon : 'HeartFilled' };`;
    expect(iconNamesIn(source)).toEqual(["TagsOutlined", "HeartFilled"]);
  });
});

describe("a definition with an unknown icon", () => {
  let dir = "";
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("gets a warning naming its file and the likely icon", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "atelier-icons-"));
    await mkdir(path.join(dir, "resources"));
    await writeFile(
      path.join(dir, "resources", "brands.ts"),
      `export const brands = { icon: "TagsOutlinedd" };`,
    );
    await writeFile(
      path.join(dir, "resources", "shop.module.ts"),
      `export const shop = { icon: "ShopOutlined" };`,
    );
    await writeFile(path.join(dir, "resources", "brands.test.ts"), `const x = { icon: "NotScanned" };`);
    const uses = definitionIcons(dir);
    expect(uses).toEqual([
      { file: "resources/brands.ts", name: "TagsOutlinedd" },
      { file: "resources/shop.module.ts", name: "ShopOutlined" },
    ]);
    const warnings = unknownIconWarnings(uses, KNOWN);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('resources/brands.ts: icon "TagsOutlinedd" is not an antd icon');
    expect(warnings[0]).toContain('Did you mean "TagsOutlined"?');
  });

  it("gets no guess when nothing is close", () => {
    expect(closestIconName("shoppingoutlined", KNOWN)).toBe("ShoppingOutlined");
    expect(closestIconName("Xyzzy", KNOWN)).toBeUndefined();
    expect(unknownIconWarnings([{ file: "resources/a.ts", name: "Xyzzy" }], KNOWN)[0]).not.toContain(
      "Did you mean",
    );
  });
});

describe("the build's icon loaders", () => {
  it("load each named icon, once, from one lazy chunk of exactly those icons", () => {
    const names = ["TagsOutlined", "HeartFilled", "TagsOutlined"];
    const loaders = iconLoadersSource(names);
    expect([...loaders.matchAll(/import\("([^"]+)"\)/g)].map((m) => m[1])).toEqual([DEFINITION_ICONS_ID]);
    expect([...loaders.matchAll(/^ {2}"(\w+)":/gm)].map((m) => m[1])).toEqual([
      "HeartFilled",
      "TagsOutlined",
    ]);
    expect(loaders).not.toMatch(/^import /m);
    expect(definitionIconsSource(names).trim().split("\n")).toEqual([
      'export { default as HeartFilled } from "@ant-design/icons/es/icons/HeartFilled.js";',
      'export { default as TagsOutlined } from "@ant-design/icons/es/icons/TagsOutlined.js";',
    ]);
  });
});

describe("browser finders", () => {
  it("stand in for the disk finders of resources/discovery only", () => {
    expect(browserTwinOf("/app/resources/discovery/resource-files.ts")).toBe(
      "/app/resources/discovery/resource-files.browser.ts",
    );
    expect(browserTwinOf("/app/resources/discovery/module-files.ts")).toBe(
      "/app/resources/discovery/module-files.browser.ts",
    );
    expect(browserTwinOf("/app/resources/discovery/collect.ts")).toBeNull();
    expect(browserTwinOf("/app/src/pages/resource-files.ts")).toBeNull();
  });
});
