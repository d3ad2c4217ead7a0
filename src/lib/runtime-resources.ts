/**
 * Resources defined at run time, as families of names: each CMS collection or single is the
 * resource `entries/<apiName>` (base `cms`, the CMS module's grant). The socket's live updates
 * and anything else that checks a resource by name accept these beside resources/index.ts.
 */
import type { ServiceBaseName } from "../../resources/contract";
import { MODULE_IDS } from "../../resources/modules";

export interface RuntimeFamily {
  prefix: string;
  moduleID: number;
  base: ServiceBaseName;
}

export const RUNTIME_FAMILIES: readonly RuntimeFamily[] = [
  { prefix: "entries/", moduleID: MODULE_IDS.cms, base: "cms" },
];

/** The family of a run-time resource name (`entries/article`), if it is one. */
export function runtimeFamilyOf(name: string): RuntimeFamily | undefined {
  return RUNTIME_FAMILIES.find(
    (f) => name.startsWith(f.prefix) && /^[a-z][a-z0-9-]{0,62}$/.test(name.slice(f.prefix.length)),
  );
}
