/** The records admins may add custom fields to: every resource whose schema says `x-custom`. */
import type { ResourceDefinition } from "../../../resources/contract";
import { RESOURCES } from "../../../resources/index";

/** Those resources by their `x-custom` key (the `entity` of a custom field). */
export function customEntities(
  defs: readonly ResourceDefinition[] = RESOURCES,
): Map<string, ResourceDefinition> {
  return new Map(defs.flatMap((d) => (d.schema["x-custom"] ? [[d.schema["x-custom"], d] as const] : [])));
}
