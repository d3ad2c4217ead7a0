/**
 * Where a type's fields hold values in stored entries: a collection's or single's entries hold
 * them at the top; a component's are held by every instance of it, at any depth, inside other
 * components and dynamic-zone blocks of every type that uses it. A change to a type (a rename, a
 * removal, a kind change) rewrites each of these holders.
 */
import type { ContentField, TypeCatalogue } from "../../../schemas/cms-fields";
import { walkValues } from "./entry-values";
import type { ContentType } from "./type-registry";

type Values = Record<string, unknown>;

const isObject = (v: unknown): v is Values => typeof v === "object" && v !== null && !Array.isArray(v);

/** The objects in `values` (an entry of `owner`) that hold the fields of `changed`. */
export function holdersOf(
  changed: ContentType,
  owner: ContentType,
  values: Values | null,
  catalogue: TypeCatalogue,
): Values[] {
  if (!values) return [];
  if (changed.kind !== "component") return owner.id === changed.id ? [values] : [];
  const found: Values[] = [];
  walkValues(owner.schema.properties, values, catalogue, (field: ContentField, value) => {
    if (field["x-kind"] === "component" && field["x-component"] === changed.apiName) {
      for (const item of Array.isArray(value) ? value : [value]) if (isObject(item)) found.push(item);
    }
    if (field["x-kind"] === "dynamiczone" && Array.isArray(value)) {
      for (const block of value)
        if (isObject(block) && block.__component === changed.apiName) found.push(block);
    }
  });
  return found;
}

/** Replaces a holder's fields in place with `rewritten`, keeping a block's `__component`. */
export function replaceHolder(holder: Values, rewritten: Values): void {
  const block = holder.__component;
  for (const key of Object.keys(holder)) delete holder[key];
  if (block !== undefined) holder.__component = block;
  Object.assign(holder, rewritten);
}
