/**
 * The `dropdowns` resource's rules: an option's `value` is what records store (spec §3
 * `commonDropdown`), so an option some record still holds is never deleted and its value or
 * list never changes — it is archived instead (kept on those records, no longer offered), or
 * relabelled. Records are found through every `x-options` field that names the list: the
 * resources' own fields and the custom `enum` fields that take their options from it.
 */
import { sql } from "kysely";
import type { ResourceDefinition } from "../../../resources/contract";
import { RESOURCES } from "../../../resources/index";
import { baseType } from "../../../schemas/contract";
import { conflict } from "../../http/errors";
import type { AnyDb, ResourceRules } from "../../resources/rules";

interface Use {
  def: ResourceDefinition;
  count: number;
}

/** How many records of each resource hold `value` of `list` (the first resource that does). */
export async function optionUse(
  db: AnyDb,
  list: string,
  value: string,
  defs: readonly ResourceDefinition[] = RESOURCES,
): Promise<Use | null> {
  const count = async (def: ResourceDefinition, holds: ReturnType<typeof sql>) => {
    const found = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(def.schema["x-table"])}
      where ${holds}`.execute(db);
    return found.rows[0]?.n ?? 0;
  };
  for (const def of defs) {
    for (const [field, f] of Object.entries(def.schema.properties)) {
      if (f["x-options"] !== list) continue;
      // A list field (tags) holds it as one of its items; jsonb `?` finds a string item.
      const holds =
        baseType(f) === "array" ? sql`${sql.ref(field)} ? ${value}` : sql`${sql.ref(field)} = ${value}`;
      const n = await count(def, holds);
      if (n) return { def, count: n };
    }
  }
  const custom = await db
    .selectFrom("crm_custom_fields")
    .select(["entity", "key"])
    .where("type", "=", "enum")
    .where("list", "=", list)
    .execute();
  for (const { entity, key } of custom) {
    const def = defs.find((d) => d.schema["x-custom"] === entity);
    if (!def) continue;
    const n = await count(def, sql`custom ->> ${key} = ${value}`);
    if (n) return { def, count: n };
  }
  return null;
}

const records = (use: Use) =>
  `${use.count.toLocaleString("en")} ${(use.count === 1 ? use.def.singular : use.def.label).toLowerCase()}`;

export const dropdownRules: ResourceRules = {
  async beforeWrite({ db, existing, values }) {
    if (!existing) return;
    const moved = (["list", "value"] as const).filter((k) => k in values && values[k] !== existing[k]);
    if (!moved.length) return;
    const use = await optionUse(db, String(existing.list), String(existing.value));
    if (!use) return;
    const message = `${existing.label} is used by ${records(use)}, so its ${moved[0]} cannot change; change its label instead`;
    throw conflict(
      message,
      moved.map((field) => ({ field, message })),
    );
  },

  async beforeDelete({ db, ids }) {
    const options = await db
      .selectFrom("crm_dropdowns")
      .select(["list", "value", "label"])
      .where("id", "in", [...ids])
      .execute();
    for (const o of options) {
      const use = await optionUse(db, o.list, o.value);
      if (use) {
        throw conflict(
          `${o.label} is still used by ${records(use)}; archive it instead: it stays on them and is no longer offered`,
        );
      }
    }
  },
};
