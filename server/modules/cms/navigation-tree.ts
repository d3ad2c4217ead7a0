/**
 * A navigation as the public reads it: hidden items gone, each label in the first locale of
 * the chain it has (else the default's), entry links resolved to their published slug in the
 * first locale of the chain the entry is published in.
 */
import { sql } from "kysely";
import type { NavItem } from "../../../schemas/cms-navigation";
import type { AppContext } from "../../context";
import type { TypeRegistry } from "./type-registry";

export interface PublicNavItem {
  label: string;
  kind: NavItem["kind"];
  url: string | null;
  entry?: { type: string; id: string; slug: string | null };
  children: PublicNavItem[];
}

export async function resolveNavigation(
  ctx: AppContext,
  registry: TypeRegistry,
  domainId: string,
  items: NavItem[],
  chain: readonly string[] = [],
): Promise<PublicNavItem[]> {
  const ids: string[] = [];
  const collect = (list: NavItem[]) =>
    list.forEach((i) => {
      if (!i.hidden && i.kind === "entry" && i.entryId) ids.push(i.entryId);
      if (!i.hidden) collect(i.children ?? []);
    });
  collect(items);
  const types = await registry.all();
  const found = ids.length
    ? await ctx.db
        .selectFrom("cms_entries")
        .select(["id", "type_id", "published", "locale", "source_id"])
        .where((eb) => eb.or([eb("id", "in", ids), eb("source_id", "in", ids)]))
        .where("status", "=", "published")
        .where(sql<boolean>`domain_ids @> array[${domainId}]::uuid[]`)
        .execute()
    : [];
  // Each entry as the chain reads it: its variant in the first locale it is published in, else itself.
  const rank = (locale: string | null) => (locale === null ? chain.length : chain.indexOf(locale));
  const best = new Map<string, (typeof found)[number]>();
  for (const r of found) {
    const entryId = r.source_id ?? r.id;
    if (r.locale !== null && !chain.includes(r.locale)) continue;
    const kept = best.get(entryId);
    if (!kept || rank(r.locale) < rank(kept.locale)) best.set(entryId, r);
  }
  const slugOf = new Map<string, string | null>();
  for (const [entryId, r] of best) {
    const type = [...types.values()].find((t) => t.id === r.type_id);
    const field =
      type && Object.keys(type.schema.properties).find((n) => type.schema.properties[n]["x-kind"] === "slug");
    const value = field ? (r.published as Record<string, unknown> | null)?.[field] : null;
    slugOf.set(entryId, typeof value === "string" ? value : null);
  }
  const labelOf = (item: NavItem) => chain.map((l) => item.labels?.[l]).find(Boolean) ?? item.label;
  const resolve = (list: NavItem[]): PublicNavItem[] =>
    list.flatMap((i): PublicNavItem[] => {
      if (i.hidden) return [];
      const children = resolve(i.children ?? []);
      if (i.kind === "entry") {
        // An entry not published in this domain is left out, not linked to a 404.
        if (!i.entryId || !slugOf.has(i.entryId)) return [];
        const slug = slugOf.get(i.entryId) ?? null;
        return [
          {
            label: labelOf(i),
            kind: i.kind,
            url: `/${i.type}/${slug ?? i.entryId}`,
            entry: { type: i.type ?? "", id: i.entryId, slug },
            children,
          },
        ];
      }
      return [{ label: labelOf(i), kind: i.kind, url: i.kind === "url" ? (i.url ?? null) : null, children }];
    });
  return resolve(items);
}
