/**
 * Public answers' references made whole, to the depth the caller asks (`populate`): a media
 * id becomes the asset (URL, alt text, caption, focal point, size), a related entry id becomes
 * that entry's published values (itself populated one level less), a product id the product.
 * A reference to something unpublished, outside the domain or gone becomes null. Each level
 * is one query per kind, whatever the number of records.
 */
import { sql } from "kysely";
import type { AppContext } from "../../context";
import type { AnyDb } from "../../resources/rules";
import { assetUrls } from "../../storage/serve";
import { referencesOf, walkValues } from "./entry-values";
import type { ContentType, TypeRegistry } from "./type-registry";

type Values = Record<string, unknown>;

export const MAX_POPULATE = 5;

export interface PublicMedia {
  id: string;
  name: string;
  url: string;
  thumbnailUrl: string | null;
  mime: string;
  width: number | null;
  height: number | null;
  alt: string;
}

/** A published entry as the public API answers it. */
export function publicEntry(row: {
  id: string;
  published: Values | null;
  published_at: Date | string | null;
  /** The locale the values are in (issue 29). */
  locale?: string | null;
}): Values {
  return {
    id: row.id,
    ...(row.published ?? {}),
    ...(row.locale ? { locale: row.locale } : {}),
    publishedAt: row.published_at ? new Date(row.published_at).toISOString() : null,
  };
}

export class Populator {
  constructor(
    private readonly ctx: AppContext,
    private readonly registry: TypeRegistry,
  ) {}

  /** Replaces references in `records` (public entries of `type`) in place, `depth` levels deep. */
  async populate(type: ContentType, records: Values[], depth: number, domainId: string): Promise<void> {
    if (depth <= 0 || !records.length) return;
    const types = await this.registry.all();
    const refs = records.flatMap((r) => referencesOf(type.schema.properties, r, this.registry));
    if (!refs.length) return;
    const media = await this.media([...new Set(refs.filter((r) => r.kind === "media").map((r) => r.id))]);
    // Related entries by target type, populated one level less before they are placed.
    const related = new Map<string, Values>();
    const byTarget = new Map<string, Set<string>>();
    for (const r of refs) {
      if (r.kind !== "relation") continue;
      if (!byTarget.has(r.target)) byTarget.set(r.target, new Set());
      byTarget.get(r.target)?.add(r.id);
    }
    for (const [target, ids] of byTarget) {
      const targetType = types.get(target);
      const found = targetType
        ? await this.entries(targetType, [...ids], domainId)
        : target === "products"
          ? await this.products([...ids])
          : [];
      if (targetType) await this.populate(targetType, found, depth - 1, domainId);
      for (const f of found) related.set(f.id as string, f);
    }
    for (const record of records) {
      walkValues(type.schema.properties, record, this.registry, (field, value, _path, holder, key) => {
        const kind = field["x-kind"];
        if (kind !== "media" && kind !== "relation") return;
        const lookup = (id: unknown) =>
          typeof id !== "string" ? null : ((kind === "media" ? media.get(id) : related.get(id)) ?? null);
        holder[key] = Array.isArray(value) ? value.map(lookup).filter((v) => v !== null) : lookup(value);
      });
    }
  }

  private async media(ids: string[]): Promise<Map<string, PublicMedia>> {
    if (!ids.length) return new Map();
    const rows = await this.ctx.db
      .selectFrom("dam_assets")
      .select(["id", "name", "storage_key", "mime", "width", "height", "alt"])
      .where("id", "in", ids)
      .execute();
    const origin = this.ctx.config.publicUrl;
    return new Map(
      rows.map((r) => {
        const urls = assetUrls(r.storage_key, r.mime);
        return [
          r.id,
          {
            id: r.id,
            name: r.name,
            url: `${origin}${urls.url}`,
            thumbnailUrl: urls.thumbnailUrl ? `${origin}${urls.thumbnailUrl}` : null,
            mime: r.mime,
            width: r.width,
            height: r.height,
            alt: r.alt,
          },
        ];
      }),
    );
  }

  private async entries(type: ContentType, ids: string[], domainId: string): Promise<Values[]> {
    const rows = await this.ctx.db
      .selectFrom("cms_entries")
      .select(["id", "published", "published_at"])
      .where("id", "in", ids)
      .where("type_id", "=", type.id)
      .where("status", "=", "published")
      .where(sql<boolean>`domain_ids @> array[${domainId}]::uuid[]`)
      .execute();
    return rows.map((r) => publicEntry(r as never));
  }

  private async products(ids: string[]): Promise<Values[]> {
    const db = this.ctx.db as unknown as AnyDb;
    const rows = await db
      .selectFrom("products")
      .select(["id", "name", "sku_code", "price", "currency", "images"])
      .where("id", "in", ids)
      .execute();
    return rows.map((r) => ({ ...r, price: r.price === null ? null : Number(r.price) }));
  }
}
