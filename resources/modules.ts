/**
 * The product's modules: the unit of permission (spec §6). Each is one file,
 * `resources/<key>.module.ts`, discovered like the resources, so a new module is one more
 * file and no list to edit.
 *
 * Pure data, read by the server (seed of the `modules` table, route permission checks) and
 * by the SPA (menu, access-control provider). A moduleID is stable forever: it is stored in
 * users' grants, so never renumber one or reuse a removed one.
 */
import type { ModuleDefinition } from "./contract";
import { collectModules } from "./discovery/collect";
import { MODULE_FILES } from "./discovery/module-files";

export type { ModuleDefinition } from "./contract";

/** Every module, in menu order. */
export const MODULES: readonly ModuleDefinition[] = collectModules(MODULE_FILES);

/**
 * moduleID by key (`MODULE_IDS.products`), derived from the module files. A unit test checks
 * that every `MODULE_IDS.<key>` written in the code names a module that exists.
 */
export const MODULE_IDS: Readonly<Record<string, number>> = Object.freeze(
  Object.fromEntries(MODULES.map((m) => [m.key, m.moduleID])),
);

/** Looks a module up by its key. */
export function moduleByKey(key: string): ModuleDefinition | undefined {
  return MODULES.find((m) => m.key === key);
}
