/**
 * Discovery: a definition file in resources/ is picked up with no other edit, by the server's
 * finder and the SPA's alike, and a mistake in one names its file.
 */
import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResourceDefinition } from "../../resources/contract";
import { collectModules, collectResources, definitionKindOf } from "../../resources/discovery/collect";
import { MODULE_FILES } from "../../resources/discovery/module-files";
import { MODULE_FILES as BROWSER_MODULE_FILES } from "../../resources/discovery/module-files.browser";
import { RESOURCE_FILES } from "../../resources/discovery/resource-files";
import { RESOURCE_FILES as BROWSER_RESOURCE_FILES } from "../../resources/discovery/resource-files.browser";
import { RESOURCES } from "../../resources/index";
import { MODULE_IDS, MODULES, type ModuleDefinition } from "../../resources/modules";

const ROOT = path.resolve(import.meta.dirname, "../..");

const mod = (moduleID: number, key: string, extra: Partial<ModuleDefinition> = {}): ModuleDefinition => ({
  moduleID,
  key,
  name: key.toUpperCase(),
  icon: "AppstoreOutlined",
  description: `The ${key} module`,
  ...extra,
});

const res = (
  name: string,
  moduleID: number,
  extra: Partial<ResourceDefinition> = {},
): ResourceDefinition => ({
  ...RESOURCES[0],
  name,
  moduleID,
  parent: undefined,
  ...extra,
});

describe("definitionKindOf", () => {
  it("tells module files from resource files, and skips the rest", () => {
    expect(definitionKindOf("crm.module.ts")).toBe("module");
    expect(definitionKindOf("brands.ts")).toBe("resource");
    for (const skipped of ["index.ts", "brands.test.ts", "types.d.ts", "notes.md", "brands.tsx"])
      expect(definitionKindOf(skipped), skipped).toBeNull();
  });
});

describe("collectModules", () => {
  it("lists each module once, by order, else moduleID", () => {
    const crm = mod(5, "crm");
    const listed = collectModules({
      "resources/crm.module.ts": { crm, helper: () => 1, text: "not a module" },
      "resources/again.module.ts": { crm }, // a re-export is still one module
      "resources/pdf.module.ts": { pdf: mod(1, "pdf") },
      "resources/first.module.ts": { first: mod(9, "first", { order: 0 }) },
    });
    expect(listed.map((m) => m.key)).toEqual(["first", "pdf", "crm"]);
  });

  it("refuses a taken moduleID, naming both files", () => {
    expect(() =>
      collectModules({
        "resources/a.module.ts": { a: mod(3, "a") },
        "resources/b.module.ts": { b: mod(3, "b") },
      }),
    ).toThrow(
      "resources/b.module.ts (export b): moduleID 3 is already taken by resources/a.module.ts (export a)",
    );
  });

  it("refuses a taken key, a bad moduleID or key, and a missing name", () => {
    expect(() =>
      collectModules({
        "resources/a.module.ts": { a: mod(1, "same") },
        "resources/b.module.ts": { b: mod(2, "same") },
      }),
    ).toThrow(/resources\/b\.module\.ts .*key "same" is already taken/);
    expect(() => collectModules({ "resources/x.module.ts": { x: mod(0, "x") } })).toThrow(
      /resources\/x\.module\.ts .*moduleID must be a positive whole number/,
    );
    expect(() => collectModules({ "resources/x.module.ts": { x: mod(1, "Big Key") } })).toThrow(/kebab-case/);
    expect(() => collectModules({ "resources/x.module.ts": { x: mod(1, "x", { name: "" }) } })).toThrow(
      /resources\/x\.module\.ts .*name is missing/,
    );
  });
});

describe("collectResources", () => {
  const modules = [mod(1, "pdf"), mod(2, "products")];

  it("lists each resource once, sorted by name, ignoring other exports", () => {
    const zebras = res("zebras", 2);
    const listed = collectResources(
      {
        "resources/zebras.ts": { zebras, ZEBRA_COUNT: 3 },
        "resources/animals.ts": { zebras, apes: res("apes", 1) },
        "resources/contract.ts": {},
      },
      modules,
    );
    expect(listed.map((r) => r.name)).toEqual(["apes", "zebras"]);
  });

  it("refuses a name defined twice, naming both files", () => {
    expect(() =>
      collectResources(
        { "resources/a.ts": { one: res("brands", 2) }, "resources/b.ts": { two: res("brands", 2) } },
        modules,
      ),
    ).toThrow(
      'resources/b.ts (export two): resource "brands" is already defined by resources/a.ts (export one)',
    );
  });

  it("refuses a moduleID or parent that is no module", () => {
    expect(() => collectResources({ "resources/brands.ts": { brands: res("brands", 77) } }, modules)).toThrow(
      /resources\/brands\.ts .*moduleID 77 is not a module.*pdf, products/,
    );
    expect(() =>
      collectResources({ "resources/brands.ts": { brands: res("brands", 2, { parent: "shop" }) } }, modules),
    ).toThrow(/resources\/brands\.ts .*parent "shop" is not a module key/);
  });
});

describe("the project's definitions", () => {
  it("are found alike by the server's finder and the SPA's", () => {
    expect(Object.keys(BROWSER_RESOURCE_FILES).sort()).toEqual(Object.keys(RESOURCE_FILES).sort());
    expect(Object.keys(BROWSER_MODULE_FILES).sort()).toEqual(Object.keys(MODULE_FILES).sort());
    expect(collectModules(BROWSER_MODULE_FILES).map((m) => m.key)).toEqual(MODULES.map((m) => m.key));
    expect(collectResources(BROWSER_RESOURCE_FILES, MODULES).map((r) => r.name)).toEqual(
      RESOURCES.map((r) => r.name),
    );
  });

  it("come one from each definition file", async () => {
    const files = await readdir(path.join(ROOT, "resources"));
    const moduleFiles = files.filter((f) => definitionKindOf(f) === "module");
    expect(MODULES.map((m) => `${m.key}.module.ts`).sort()).toEqual(moduleFiles.sort());
  });

  it("only name modules that exist where the code writes MODULE_IDS.<key>", async () => {
    const used = new Map<string, string>();
    // Not the tests: they write throwaway modules into fixtures (as this file does).
    for (const dir of ["server", "src", "resources", "providers", "schemas", "bench", "scripts"]) {
      const names = (await readdir(path.join(ROOT, dir), { recursive: true })).filter(
        (f) => /\.(ts|tsx|mjs)$/.test(f) && !/\.test\.tsx?$/.test(f),
      );
      for (const name of names) {
        const source = await readFile(path.join(ROOT, dir, name), "utf8");
        for (const m of source.matchAll(
          /\bMODULE_IDS\.([A-Za-z_$][\w$]*)|\bMODULE_IDS\[["'`]([^"'`]+)["'`]\]/g,
        ))
          used.set(m[1] ?? m[2], `${dir}/${name}`);
      }
    }
    expect(used.size).toBeGreaterThan(0);
    const unknown = [...used].filter(([key]) => !(key in MODULE_IDS)).map(([key, file]) => `${file}: ${key}`);
    expect(unknown).toEqual([]);
  });
});

describe("a definition file added to a copy of the project", () => {
  let copy = "";

  beforeAll(async () => {
    copy = await mkdtemp(path.join(tmpdir(), "atelier-discovery-"));
    const notTests = (file: string) => !file.endsWith(".test.ts");
    await cp(path.join(ROOT, "resources"), path.join(copy, "resources"), {
      recursive: true,
      filter: notTests,
    });
    await cp(path.join(ROOT, "schemas"), path.join(copy, "schemas"), { recursive: true, filter: notTests });
    // Schemas use the pure helpers of src/lib (plurals in messages).
    await cp(path.join(ROOT, "src", "lib"), path.join(copy, "src", "lib"), {
      recursive: true,
      filter: notTests,
    });
    await symlink(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"), "dir");
    // Exactly what a developer writes for a new module with one entity: three files, no edit.
    await writeFile(
      path.join(copy, "resources", "gadgets.module.ts"),
      `import type { ModuleDefinition } from "./modules";

export const gadgetsModule: ModuleDefinition = {
  moduleID: 99,
  key: "gadgets",
  name: "Gadgets",
  icon: "ToolOutlined",
  description: "Things with buttons",
  order: 0,
};
`,
    );
    await writeFile(
      path.join(copy, "schemas", "widgets.ts"),
      `import { auditProperties, type EntitySchema } from "./contract";

export const widgetSchema = {
  $id: "widget",
  title: "Widget",
  type: "object",
  additionalProperties: false,
  "x-table": "widgets",
  "x-label": "name",
  "x-defaultSort": "name",
  "x-list": ["name"],
  "x-searchable": ["name"],
  "x-filterable": ["name"],
  required: ["name"],
  properties: { ...auditProperties, name: { type: "string", title: "Name", minLength: 1, maxLength: 80 } },
} as const satisfies EntitySchema;
`,
    );
    await writeFile(
      path.join(copy, "resources", "widgets.ts"),
      `import { widgetSchema } from "../schemas/widgets";
import type { ResourceDefinition } from "./contract";
import { MODULE_IDS } from "./modules";

export const widgets: ResourceDefinition = {
  name: "widgets",
  schema: widgetSchema,
  moduleID: MODULE_IDS.gadgets,
  base: "api",
  label: "Widgets",
  singular: "Widget",
  icon: "ToolOutlined",
  parent: "gadgets",
};
`,
    );
  });

  afterAll(async () => {
    if (copy) await rm(copy, { recursive: true, force: true });
  });

  it("is in the copy's RESOURCES and MODULES, and nowhere else", async () => {
    const index = await import(pathToFileURL(path.join(copy, "resources", "index.ts")).href);
    const modules = await import(pathToFileURL(path.join(copy, "resources", "modules.ts")).href);
    const gadgets = modules.MODULES.find((m: ModuleDefinition) => m.key === "gadgets");
    expect(gadgets).toMatchObject({ moduleID: 99, name: "Gadgets" });
    // order 0 puts it first in the menu, before every module of the project.
    expect(modules.MODULES.map((m: ModuleDefinition) => m.key)).toEqual([
      "gadgets",
      ...MODULES.map((m) => m.key),
    ]);
    expect(index.resourceByName("widgets")).toMatchObject({
      moduleID: 99,
      parent: "gadgets",
      label: "Widgets",
    });
    expect(index.RESOURCES.map((r: ResourceDefinition) => r.name)).toEqual(
      [...RESOURCES.map((r) => r.name), "widgets"].sort(),
    );
    expect(RESOURCES.map((r) => r.name)).not.toContain("widgets");
  });
});
