/**
 * `x-options` fields (schemas/contract.ts): a value is the `value` of an option of an
 * admin-managed list (the CRM's `crm_dropdowns`, spec §3 `commonDropdown`); on an array field,
 * each item is. The list is data, so no schema or check constraint can hold it: every write
 * (the engine's create and update, CSV imports) is checked here against the list as it is at
 * that moment — options not archived. An archived option a record already holds stays allowed
 * on that record (it was valid when written; archiving must not make the record unsaveable).
 */

import { baseType, type EntitySchema } from "../../schemas/contract";
import { dropdownListLabel } from "../../schemas/crm";
import { fieldTitle } from "../../schemas/error-messages";
import type { FieldError } from "../http/errors";
import { CUSTOM, type Row } from "./records";
import type { AnyDb } from "./rules";

interface OptionField {
  field: string;
  list: string;
  many: boolean;
  custom: boolean;
}

const fieldsCache = new WeakMap<EntitySchema, OptionField[]>();

/** The `x-options` fields of a schema (custom `enum` fields among them). */
export function optionFieldsOf(schema: EntitySchema): OptionField[] {
  let found = fieldsCache.get(schema);
  if (!found) {
    const custom = schema["x-customFields"] ?? [];
    found = Object.entries(schema.properties).flatMap(([field, f]) =>
      f["x-options"]
        ? [{ field, list: f["x-options"], many: baseType(f) === "array", custom: custom.includes(field) }]
        : [],
    );
    fieldsCache.set(schema, found);
  }
  return found;
}

const valuesOf = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === "string");

const json = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value);

/** What a stored row holds in an option field (a custom field's value is in `custom`). */
function storedValues(row: Row, f: OptionField): string[] {
  if (f.custom) return valuesOf((json(row[CUSTOM]) as Row | null)?.[f.field]);
  return valuesOf(f.many ? json(row[f.field]) : row[f.field]);
}

const pairKey = (list: string, value: string) => `${list}\u0000${value}`;

/** A write to check: its body, and the stored record (or how to read it) when it updates one. */
export interface OptionWrite {
  body: Row;
  existing?: Row | null | (() => Promise<Row | null>);
}

/**
 * The field errors of each write's option values, in the writes' order: a value that is no
 * offered option of its list, and not already on the record. One query for all the writes.
 *
 * @example
 * await optionProblems(db, clientSchema, [{ body: { source: "fax" } }]);
 * // [[{ field: "source", message: "Source must be one of the options of the Sources list" }]]
 */
export async function optionProblems(
  db: AnyDb,
  schema: EntitySchema,
  writes: readonly OptionWrite[],
): Promise<FieldError[][]> {
  const fields = optionFieldsOf(schema);
  const wanted = new Map<string, Set<string>>();
  for (const { body } of writes) {
    for (const f of fields) {
      if (!Object.hasOwn(body, f.field)) continue;
      for (const value of valuesOf(body[f.field])) {
        const set = wanted.get(f.list) ?? new Set<string>();
        set.add(value);
        wanted.set(f.list, set);
      }
    }
  }
  if (!wanted.size) return writes.map(() => []);
  const offered = new Set<string>();
  const rows = await db
    .selectFrom("crm_dropdowns")
    .select(["list", "value"])
    .where("archived", "=", false)
    .where((eb) =>
      eb.or(
        [...wanted].map(([list, values]) => eb.and([eb("list", "=", list), eb("value", "in", [...values])])),
      ),
    )
    .execute();
  for (const r of rows) offered.add(pairKey(r.list, r.value));

  const out: FieldError[][] = [];
  for (const { body, existing } of writes) {
    const errors: FieldError[] = [];
    let stored: Row | null | undefined = typeof existing === "function" ? undefined : existing;
    for (const f of fields) {
      if (!Object.hasOwn(body, f.field)) continue;
      let missing = valuesOf(body[f.field]).filter((v) => !offered.has(pairKey(f.list, v)));
      if (missing.length && existing) {
        if (stored === undefined) stored = await (existing as () => Promise<Row | null>)();
        const kept = stored ? storedValues(stored, f) : [];
        missing = missing.filter((v) => !kept.includes(v));
      }
      if (!missing.length) continue;
      const title = fieldTitle(schema, f.field);
      const list = dropdownListLabel(f.list);
      const message = f.many
        ? `${title} must be options of the ${list} list: '${missing[0]}' is not`
        : `${title} must be one of the options of the ${list} list`;
      errors.push({ field: f.field, message });
    }
    out.push(errors);
  }
  return out;
}
