/**
 * What the list contract (server/http/list-query.ts) may filter, sort and search on for a
 * schema: the `x-filterable` fields and `id`, the audit times, `x-searchable`. A custom field
 * (a run-time field of an `x-custom` entity) is read from the `custom` jsonb column by the
 * runtime-entity expressions (server/entities/jsonb-fields.ts): the key bound as a parameter,
 * cast as its type compares. The engine's lists and CSV exports both read this, so they agree.
 */
import type { EntitySchema } from "../../schemas/contract";
import { jsonListFields } from "../entities/jsonb-fields";
import type { FieldType, ListOptions } from "../http/list-query";
import { filterTypeOf } from "./columns";
import { CUSTOM } from "./records";

/** List options per schema, worked out once (an effective schema is one object per version). */
const cache = new WeakMap<EntitySchema, ListOptions>();

/** The list options of a schema, over the table aliased `t`. */
export function listOptionsOf(schema: EntitySchema): ListOptions {
  let options = cache.get(schema);
  if (options) return options;
  const custom = schema["x-customFields"] ?? [];
  const json = jsonListFields(`t.${CUSTOM}`, schema.properties, custom);
  const filterFields: Record<string, FieldType> = { id: "uuid" };
  for (const f of schema["x-filterable"]) {
    if (custom.includes(f)) {
      if (json.filterFields[f]) filterFields[f] = json.filterFields[f];
    } else filterFields[f] = filterTypeOf(schema.properties[f]);
  }
  options = {
    table: "t",
    defaultSort: schema["x-defaultSort"],
    sortFields: [
      ...new Set([...schema["x-filterable"].filter((f) => f in filterFields), "created_at", "updated_at"]),
    ],
    filterFields,
    ...(custom.length ? { expressions: json.expressions } : {}),
    search: schema["x-searchable"],
  };
  cache.set(schema, options);
  return options;
}
