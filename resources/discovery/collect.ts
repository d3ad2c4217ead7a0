/**
 * Turns the exports of the definition files into the lists everyone reads: every module of
 * `resources/*.module.ts` and every resource of the other `resources/*.ts`. Pure: the files are found
 * by a finder (Node reads the folder, the SPA build uses `import.meta.glob`), so a new
 * definition file is picked up with no registry to edit. A mistake in a definition stops
 * start-up, the build and the tests with a message that names its file.
 */
import type { ModuleDefinition, ResourceDefinition } from "../contract";

/** Exports of each definition file, by its path from the project root (`resources/products.ts`). */
export type DefinitionFiles = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** Module definitions are `resources/<key>.module.ts`; resource definitions the other `resources/*.ts`. */
export type DefinitionKind = "resource" | "module";

/**
 * What a file of `resources/` defines, by its name; null for files no finder imports (tests,
 * declarations, `index.ts`, which imports the finders).
 */
export function definitionKindOf(fileName: string): DefinitionKind | null {
  if (!fileName.endsWith(".ts") || fileName.endsWith(".test.ts") || fileName.endsWith(".d.ts")) return null;
  if (fileName === "index.ts") return null;
  return fileName.endsWith(".module.ts") ? "module" : "resource";
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** An export that claims to be a module: it has a moduleID and a key, and no schema. */
export function isModuleDefinition(value: unknown): value is ModuleDefinition {
  return isObject(value) && "moduleID" in value && "key" in value && !("schema" in value);
}

/** An export that claims to be a resource: it has a name and a schema. */
export function isResourceDefinition(value: unknown): value is ResourceDefinition {
  return isObject(value) && typeof value.name === "string" && isObject(value.schema);
}

/** Each definition found, once, with the file (and export) it came from. */
function found<T>(files: DefinitionFiles, guard: (value: unknown) => value is T) {
  const seen = new Map<T, string>();
  for (const file of Object.keys(files).sort()) {
    for (const [exportName, value] of Object.entries(files[file])) {
      // A definition re-exported by another file is still one definition.
      if (guard(value) && !seen.has(value)) seen.set(value, `${file} (export ${exportName})`);
    }
  }
  return [...seen].map(([definition, where]) => ({ definition, where }));
}

const KEY = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** Plain code-unit order: the same in every locale, so every consumer sees the same list. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const nonEmpty = (value: unknown) => typeof value === "string" && value.trim() !== "";

/** Menu order of a module: its `order`, else its moduleID. */
export const moduleMenuOrder = (m: Pick<ModuleDefinition, "moduleID" | "order">) => m.order ?? m.moduleID;

/**
 * The modules defined in `files`, in menu order (`order`, else moduleID; then key).
 * Throws on a bad or duplicate moduleID or key, naming the files.
 *
 * @example
 * collectModules({ "resources/crm.module.ts": { crmModule: { moduleID: 5, key: "crm", ... } } });
 */
export function collectModules(files: DefinitionFiles): ModuleDefinition[] {
  const list = found(files, isModuleDefinition);
  const byId = new Map<number, string>();
  const byKey = new Map<string, string>();
  for (const { definition: m, where } of list) {
    if (!Number.isInteger(m.moduleID) || m.moduleID < 1) {
      throw new Error(`${where}: moduleID must be a positive whole number, got ${String(m.moduleID)}`);
    }
    if (typeof m.key !== "string" || !KEY.test(m.key)) {
      throw new Error(
        `${where}: key must be lower-case kebab-case (it is a URL segment), got ${String(m.key)}`,
      );
    }
    for (const field of ["name", "icon", "description"] as const) {
      if (!nonEmpty(m[field])) throw new Error(`${where}: ${field} is missing`);
    }
    if (m.order !== undefined && !Number.isFinite(m.order))
      throw new Error(`${where}: order must be a number`);
    const sameId = byId.get(m.moduleID);
    if (sameId) {
      throw new Error(
        `${where}: moduleID ${m.moduleID} is already taken by ${sameId} (moduleIDs are stored in grants: pick an unused one)`,
      );
    }
    const sameKey = byKey.get(m.key);
    if (sameKey) throw new Error(`${where}: key "${m.key}" is already taken by ${sameKey}`);
    byId.set(m.moduleID, where);
    byKey.set(m.key, where);
  }
  return list
    .map(({ definition }) => definition)
    .sort((a, b) => moduleMenuOrder(a) - moduleMenuOrder(b) || compare(a.key, b.key));
}

/**
 * The resources defined in `files`, sorted by name. Throws on a duplicate name, or a moduleID
 * or parent that is not one of `modules`, naming the file.
 *
 * @example
 * collectResources({ "resources/brands.ts": { brands } }, MODULES); // [brands]
 */
export function collectResources(
  files: DefinitionFiles,
  modules: readonly Pick<ModuleDefinition, "moduleID" | "key">[],
): ResourceDefinition[] {
  const list = found(files, isResourceDefinition);
  const byName = new Map<string, string>();
  const moduleKeys = modules.map((m) => m.key).join(", ");
  for (const { definition: r, where } of list) {
    if (!KEY.test(r.name)) throw new Error(`${where}: name must be plural kebab-case, got "${r.name}"`);
    const sameName = byName.get(r.name);
    if (sameName) throw new Error(`${where}: resource "${r.name}" is already defined by ${sameName}`);
    byName.set(r.name, where);
    if (!modules.some((m) => m.moduleID === r.moduleID)) {
      throw new Error(
        `${where}: moduleID ${String(r.moduleID)} is not a module of resources/*.module.ts (use MODULE_IDS.<key>: ${moduleKeys})`,
      );
    }
    if (r.parent !== undefined && !modules.some((m) => m.key === r.parent)) {
      throw new Error(`${where}: parent "${r.parent}" is not a module key (${moduleKeys})`);
    }
    if (r.order !== undefined && !Number.isFinite(r.order))
      throw new Error(`${where}: order must be a number`);
  }
  return list.map(({ definition }) => definition).sort((a, b) => compare(a.name, b.name));
}
