/**
 * A page of a type's entry rows (EntriesService.list): the default locale's, or with `locale`
 * their variants in that locale, or with `missing` the entries that have none in it yet; through
 * the list contract (list-query.ts `listPage`), its statements kept per shape.
 */
import { sql } from "kysely";
import type { StatementCache } from "../../db/statements";
import { type ListQuery, listPage } from "../../http/list-query";
import type { AnyDb } from "../../resources/rules";
import type { ContentType, TypeRegistry } from "./type-registry";

/** Fields of the entry itself that a list may filter and sort by. */
const ENTRY_COLUMNS = {
  status: "string",
  published_at: "date",
  created_at: "date",
  updated_at: "date",
} as const;

export async function entryRows(
  db: AnyDb,
  registry: TypeRegistry,
  statements: StatementCache,
  type: ContentType,
  query: ListQuery & { domain?: string; locale?: string; missing?: string },
) {
  const schema = type.schema;
  const json = registry.listFields(type, "t.data");
  let base = db.selectFrom("cms_entries as t").selectAll("t").where("t.type_id", "=", type.id);
  const params: unknown[] = [type.id];
  if (query.domain) {
    base = base.where(sql<boolean>`t.domain_ids @> array[${query.domain}]::uuid[]`);
    params.push(query.domain);
  }
  if (query.locale) {
    base = base.where("t.locale", "=", query.locale);
    params.push(query.locale);
  } else {
    base = base.where("t.source_id", "is", null);
    if (query.missing) {
      base = base.where(
        sql<boolean>`not exists (select 1 from cms_entries v where v.source_id = t.id and v.locale = ${query.missing})`,
      );
      params.push(query.missing);
    }
  }
  return listPage(
    db,
    base,
    query,
    {
      table: "t",
      defaultSort: "-updated_at",
      sortFields: [
        ...schema["x-filterable"].filter((f) => json.filterFields[f]),
        ...Object.keys(ENTRY_COLUMNS),
      ],
      filterFields: { ...json.filterFields, ...ENTRY_COLUMNS, id: "uuid", domain_ids: "uuids" },
      expressions: json.expressions,
      search: schema["x-searchable"],
    },
    {
      statements,
      key: `${query.domain ? "domain" : ""} ${query.locale ? "locale" : query.missing ? "missing" : ""}`,
      params,
    },
  );
}
