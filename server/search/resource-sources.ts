/**
 * Search sources derived from resource definitions, with no edit per resource: the records of
 * each resource with `x-searchable` text fields, named by its `x-label` field, under its module's
 * permission. A new entity written as its two files is searched as soon as it is served.
 */
import type { ResourceDefinition } from "../../resources/contract";
import { recordPath } from "../../src/resources/routes";
import { columnsOf } from "../resources/columns";
import { type SearchSource, subtitleSql } from "./search-source";

/** Fields searched as a subtitle: short text, not a long description. */
function isShortText(def: ResourceDefinition, field: string): boolean {
  const f = def.schema.properties[field];
  return !f?.["x-multiline"] && (f?.maxLength === undefined || f.maxLength <= 500);
}

/** The source of one resource; null when it has no searched text column. */
export function resourceSource(def: ResourceDefinition): SearchSource | null {
  const { schema } = def;
  // Relations are not followed here: a column's type is all that is asked.
  const text = new Set(
    columnsOf(schema, () => "unused")
      .filter((c) => c.sqlType === "text")
      .map((c) => c.name),
  );
  const all = schema["x-searchable"].filter((f) => text.has(f));
  // Names, codes, emails: long text (`x-multiline`, a description) is for the list's own search.
  const short = all.filter((f) => !schema.properties[f]?.["x-multiline"]);
  const searched = short.length ? short : all;
  if (!searched.length) return null;
  const label = schema["x-label"];
  const title = text.has(label) ? `t.${label}` : `t.${label}::text`;
  const others = searched.filter((f) => f !== label && isShortText(def, f)).slice(0, 2);
  return {
    key: def.name,
    label: def.label,
    icon: def.icon,
    allowed: (principal) => principal.modules.has(def.moduleID),
    part: {
      from: `${schema["x-table"]} t`,
      title: `coalesce(${title}, '')`,
      name: title,
      subtitle: subtitleSql(others.map((f) => `t.${f}`)),
      searched: searched.map((f) => `t.${f}`),
    },
    path: (hit) => recordPath(def, "show", hit.id),
  };
}

/** The sources of some resources (those with searched text), in the order given. */
export function resourceSources(defs: readonly ResourceDefinition[]): SearchSource[] {
  return defs.flatMap((def) => resourceSource(def) ?? []);
}
