/**
 * Resources defined at run time, as families of names: each CMS collection or single is the
 * resource `entries/<apiName>` (base `cms`, the CMS module's grant), and each form's answers the
 * resource `forms/<formId>/submissions` (base `forms`, the Forms module's grant). The socket's
 * live updates and anything else that checks a resource by name accept these beside
 * resources/index.ts. `client-timeline` is the CRM's live channel of clients' timelines (a reply
 * arriving, a colleague's note): no records of its own, the CRM module's grant.
 * `automation-runs` is the channel of an automation's runs (server/modules/automation/live.ts:
 * its `ids` are the automations whose runs moved), the Automation module's grant.
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
  // Clients' timelines (a reply arriving, a colleague's note): a live channel, no records of its own.
  { pattern: /^client-timeline$/, moduleID: MODULE_IDS.crm, base: "crm" },
  // An automation's runs (started, stepped, ended): the run history open on its page reads again.
  { pattern: /^automation-runs$/, moduleID: MODULE_IDS.automation, base: "api" },
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
