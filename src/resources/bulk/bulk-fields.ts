/**
 * Which fields a bulk edit offers, and the resource narrowed to one of them for its form.
 * Pure.
 */
import type { ResourceDefinition } from "../../../resources/contract";

/**
 * The fields one value may be set on for many records: writable, not a key that must be
 * unique on its own (one value on many records would be refused on all but one), not the
 * revision an edit form sends back.
 *
 * @example
 * bulkFieldsOf(products); // ["name", "status", "price", "currency", "category_id", …] — no "sku_code"
 */
export function bulkFieldsOf(def: ResourceDefinition): string[] {
  const { schema } = def;
  const uniqueAlone = new Set((schema["x-unique"] ?? []).filter((k) => k.length === 1).map((k) => k[0]));
  return Object.entries(schema.properties)
    .filter(([name, field]) => !field.readOnly && !uniqueAlone.has(name) && name !== def.revisionField)
    .map(([name]) => name);
}

/** The resource with only `field` in its schema and form, so the create/edit form shows its one control. */
export function oneFieldDef(def: ResourceDefinition, field: string): ResourceDefinition {
  const { schema } = def;
  const ui = { ...(def.uiSchema ?? {}) } as Record<string, unknown>;
  delete ui["ui:order"];
  return {
    ...def,
    schema: {
      ...schema,
      properties: { [field]: schema.properties[field] },
      required: schema.required.includes(field) ? [field] : [],
    },
    uiSchema: { ...ui, [field]: { ...((ui[field] as object) ?? {}), "ui:autofocus": false } },
  };
}
