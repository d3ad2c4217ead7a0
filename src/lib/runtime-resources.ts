/**
 * Resources defined at run time, as families of names: each CMS collection or single is the
 * resource `entries/<apiName>` (base `cms`, the CMS module's grant), and each form's answers the
 * resource `forms/<formId>/submissions` (base `forms`, the Forms module's grant). The socket's
 * live updates and anything else that checks a resource by name accept these beside
 * resources/index.ts.
 */
import type { ServiceBaseName } from "../../resources/contract";
import { MODULE_IDS } from "../../resources/modules";

export interface RuntimeFamily {
  /** The names of the family: one whole name per match. */
  pattern: RegExp;
  moduleID: number;
  base: ServiceBaseName;
}

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

export const RUNTIME_FAMILIES: readonly RuntimeFamily[] = [
  { pattern: /^entries\/[a-z][a-z0-9-]{0,62}$/, moduleID: MODULE_IDS.cms, base: "cms" },
  { pattern: new RegExp(`^forms/${UUID}/submissions$`), moduleID: MODULE_IDS.forms, base: "forms" },
  // The CRM's custom field definitions: a change makes open lists and forms read their schema again.
  { pattern: /^custom-fields$/, moduleID: MODULE_IDS.crm, base: "crm" },
];

/**
 * The family of a run-time resource name, if it is one.
 *
 * @example
 * runtimeFamilyOf("entries/article")?.base; // "cms"
 * runtimeFamilyOf("forms/0b7c…/submissions")?.moduleID; // 6 (Forms)
 * runtimeFamilyOf("entries/../users"); // undefined
 */
export function runtimeFamilyOf(name: string): RuntimeFamily | undefined {
  return RUNTIME_FAMILIES.find((f) => f.pattern.test(name));
}
