/**
 * Every resource of the product, sorted by name: each export that is a resource definition
 * in `resources/*.ts`, found on disk by the server and tests and by `import.meta.glob` in the
 * SPA. Adding an entity = one schema file, one resource file and its migration; nothing here.
 */
import type { ResourceDefinition } from "./contract";
import { collectResources } from "./discovery/collect";
import { RESOURCE_FILES } from "./discovery/resource-files";
import { MODULES } from "./modules";

export const RESOURCES: readonly ResourceDefinition[] = collectResources(RESOURCE_FILES, MODULES);

export function resourceByName(name: string): ResourceDefinition | undefined {
  return RESOURCES.find((r) => r.name === name);
}

export type { ResourceDefinition } from "./contract";
