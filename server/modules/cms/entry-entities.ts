/**
 * The CMS's types as entities of automations (issue 30, server/resources/record-events.ts):
 * each collection or single type is `cms:<apiName>`, its entries created, updated and found
 * through the entries service (the type's validation, versions, live events), in the caller's
 * transaction. Components are parts of entries, not entities.
 */
import { sql } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import { CMS_ENTITY_PREFIX } from "../../../schemas/automation-triggers";
import { fieldValueSchema } from "../../../schemas/cms-entry-schema";
import type { TypeCatalogue } from "../../../schemas/cms-fields";
import type { EntitySchema } from "../../../schemas/contract";
import { isUuid } from "../../../schemas/uuid";
import type { Entity, EntitySource } from "../../resources/record-events";
import { cmsEntity, type EntriesService, type EntryRow, entryRecord } from "./entries.service";
import type { ContentType, TypeRegistry } from "./type-registry";

/** The entry's own fields beside its type's: what a trigger's record and a found entry hold. */
const ENTRY_FIELDS = {
  id: { type: "string", format: "uuid", title: "ID", readOnly: true },
  status: { type: "string", title: "Status", enum: ["draft", "published", "unpublished"], readOnly: true },
  created_at: { type: "string", format: "date-time", title: "Created", readOnly: true },
  updated_at: { type: "string", format: "date-time", title: "Updated", readOnly: true },
} as const;

/** A type's entry as JSON Schema: its fields' value schemas (optional ones nullable) and the entry's own. */
function entrySchemaOf(type: ContentType, catalogue: TypeCatalogue): EntitySchema {
  const required = new Set(type.schema.required ?? []);
  const fields = Object.entries(type.schema.properties).map(([key, field]) => {
    const value = fieldValueSchema(field, catalogue);
    const nullable = !required.has(key) && typeof value.type === "string";
    return [
      key,
      { ...value, ...(nullable ? { type: [value.type, "null"] } : {}), "x-kind": field["x-kind"] },
    ];
  });
  return {
    ...type.schema,
    $id: cmsEntity(type),
    title: `${type.name} entry`,
    properties: { ...ENTRY_FIELDS, ...Object.fromEntries(fields) },
  } as unknown as EntitySchema;
}

export function cmsEntities(registry: TypeRegistry, entries: EntriesService): EntitySource {
  const kept = new Map<ContentType, Entity>();
  const entityOf = (type: ContentType): Entity => {
    let entity = kept.get(type);
    if (entity) return entity;
    entity = {
      name: cmsEntity(type),
      label: `${type.name} entries`,
      singular: `${type.name} entry`,
      moduleID: MODULE_IDS.cms,
      schema: () => entrySchemaOf(type, registry),
      create: (values, via) => entries.create(type, { values }, via.actorId, via),
      update: (id, values, via) => entries.update(type, id, { values }, via.actorId, via),
      async find(db, match) {
        let query = db
          .selectFrom("cms_entries")
          .selectAll()
          .where("type_id", "=", type.id)
          .where("source_id", "is", null);
        for (const [field, value] of Object.entries(match)) {
          if (field === "id" && !isUuid(String(value))) return null;
          if (field === "id" || field === "status") query = query.where(field, "=", String(value));
          else if (value === null) query = query.where(sql`data->>${field}`, "is", null);
          else query = query.where(sql`data->>${field}`, "=", String(value));
        }
        const row = await query.orderBy("created_at").orderBy("id").limit(1).executeTakeFirst();
        return row ? entryRecord(type, row as EntryRow) : null;
      },
    };
    // The registry makes new ContentType objects when types change: old ones are let go.
    if (kept.size > 500) kept.clear();
    kept.set(type, entity);
    return entity;
  };
  const entityTypes = async () => [...(await registry.all()).values()].filter((t) => t.kind !== "component");
  return {
    list: async () => (await entityTypes()).map(entityOf),
    async get(name) {
      if (!name.startsWith(CMS_ENTITY_PREFIX)) return undefined;
      const type = (await registry.all()).get(name.slice(CMS_ENTITY_PREFIX.length));
      return type && type.kind !== "component" ? entityOf(type) : undefined;
    },
  };
}
