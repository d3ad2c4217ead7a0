/** A CMS entry as stored (its row) and as the admin API answers it (its record). */
import { isoOrNull as iso } from "../../../src/lib/dates";
import type { ContentType } from "./type-registry";

export type Values = Record<string, unknown>;

/** An entry row as stored. */
export interface EntryRow {
  id: string;
  type_id: string;
  domain_ids: string[];
  status: "draft" | "published" | "unpublished";
  data: Values;
  published: Values | null;
  published_at: Date | string | null;
  slug: string | null;
  /** A variant in another locale: its locale and its entry (null for an entry itself). */
  locale: string | null;
  source_id: string | null;
  revision: number;
  version: number;
  draft_changed: boolean;
  publish_at: Date | string | null;
  unpublish_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  created_by: string | null;
  updated_by: string | null;
}

/** The entry as the admin API answers it: its draft's fields beside the entry's own. */
export function entryRecord(type: ContentType, row: EntryRow): Values {
  const out: Values = {};
  for (const name of Object.keys(type.schema.properties)) out[name] = row.data[name] ?? null;
  return {
    ...out,
    id: row.id,
    locale: row.locale ?? null,
    source_id: row.source_id ?? null,
    status: row.status,
    domain_ids: row.domain_ids,
    revision: row.revision,
    version: row.version,
    draft_changed: row.draft_changed,
    published_at: iso(row.published_at),
    publish_at: iso(row.publish_at),
    unpublish_at: iso(row.unpublish_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    created_by: row.created_by,
    updated_by: row.updated_by,
  };
}
