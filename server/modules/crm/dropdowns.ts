/**
 * The admin-managed option lists (spec §3 `commonDropdown`): an install starts with the
 * CRM's usual options (schemas/crm.ts DEFAULT_DROPDOWNS) so the board and the selects work on
 * day one; admins change them under CRM › Dropdown lists. A list that already has options is
 * never seeded again, so a list an admin emptied stays empty only if they archive, not delete.
 */
import { DEFAULT_DROPDOWNS } from "../../../schemas/crm";
import type { Db } from "./timeline";

/** Puts the default options into each list that has none (idempotent, safe on every start). */
export async function seedDropdowns(db: Db): Promise<void> {
  const present = new Set(
    (await db.selectFrom("crm_dropdowns").select("list").distinct().execute()).map((r) => r.list),
  );
  const rows = Object.entries(DEFAULT_DROPDOWNS)
    .filter(([list]) => !present.has(list))
    .flatMap(([list, options]) =>
      options.map((o, i) => ({
        list,
        value: o.value,
        label: o.label,
        position: (i + 1) * 10,
        probability: o.probability ?? null,
      })),
    );
  if (!rows.length) return;
  // Two instances starting at once: the unique (list, value) keeps one of each.
  await db
    .insertInto("crm_dropdowns")
    .values(rows)
    .onConflict((oc) => oc.columns(["list", "value"]).doNothing())
    .execute();
}

/** Labels of a list's options by value (archived ones too: records keep them). */
export async function optionLabels(db: Db, list: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom("crm_dropdowns")
    .select(["value", "label"])
    .where("list", "=", list)
    .execute();
  return new Map(rows.map((r) => [r.value, r.label]));
}
