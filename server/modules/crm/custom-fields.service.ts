/**
 * CRM custom fields (issue 16, spec §3 `customFieldsData`): an admin adds, renames, reorders
 * and removes fields of clients and opportunities at run time. A definition is a row of
 * `crm_custom_fields`; the engine reads them through its catalogue (server/resources/
 * custom-fields.ts) on every request of those resources, so a change shows in the API, lists,
 * forms, CSV files and OpenAPI at once, on every instance. Values live in each record's
 * `custom` jsonb, so a field is never a migration.
 *
 * What a schema change may not do to stored values: a field's key and entity never change (its
 * values are found by them), and its type or list changes only while no record holds a value
 * (a date would otherwise read back as a number). Deleting a field removes its values.
 */
import { sql } from "kysely";
import type { ResourceDefinition } from "../../../resources/contract";
import { MODULE_IDS } from "../../../resources/modules";
import { dropdownListLabel } from "../../../schemas/crm";
import {
  type CustomField,
  type CustomFieldType,
  customKeyProblem,
  MAX_CUSTOM_FIELDS,
} from "../../../schemas/custom-fields";
import type { AppContext } from "../../context";
import { badRequest, conflict, notFound } from "../../http/errors";
import { customFields } from "../../resources/custom-fields";
import { customEntities } from "./custom-entities";
import { enqueueIndexes } from "./custom-field-indexes";
import type { Db } from "./timeline";

/** Resource name of custom field changes on the socket: open lists and forms read their schema again. */
export const CUSTOM_FIELDS_RESOURCE = "custom-fields";

export interface CustomFieldInput {
  entity: string;
  key: string;
  label: string;
  type: CustomFieldType;
  list?: string | null;
  required?: boolean;
  position?: number;
  description?: string | null;
}

const COLUMNS = [
  "id",
  "entity",
  "key",
  "label",
  "type",
  "list",
  "required",
  "position",
  "description",
] as const;

export class CustomFieldsService {
  private readonly entities = customEntities();

  constructor(private readonly ctx: AppContext) {}

  private get catalogue() {
    return customFields(this.ctx);
  }

  list(entity?: string): Promise<readonly CustomField[]> {
    return entity ? this.catalogue.fieldsOf(entity) : this.catalogue.all();
  }

  private entityDef(entity: string): ResourceDefinition {
    const def = this.entities.get(entity);
    if (!def) {
      const message = `Entity must be one of ${[...this.entities.keys()].join(", ")}`;
      throw badRequest(message, [{ field: "entity", message }]);
    }
    return def;
  }

  /** Whether any record of the field's entity holds a value for it. */
  private async hasValues(db: Db, def: ResourceDefinition, key: string): Promise<boolean> {
    const found = await sql<{ one: number }>`select 1 as one from ${sql.table(def.schema["x-table"])}
      where custom ? ${key} limit 1`.execute(db);
    return found.rows.length > 0;
  }

  /** An `enum` field's list must have options to offer; other types have no list. */
  private async checkList(
    db: Db,
    type: CustomFieldType,
    list: string | null | undefined,
  ): Promise<string | null> {
    if (type !== "enum") return null;
    if (!list) {
      const message = "Choose the dropdown list whose options this field offers";
      throw badRequest(message, [{ field: "list", message }]);
    }
    const option = await db
      .selectFrom("crm_dropdowns")
      .select("id")
      .where("list", "=", list)
      .limit(1)
      .executeTakeFirst();
    if (!option) {
      const message = `The ${dropdownListLabel(list)} list has no options yet: add them under CRM › Dropdown lists first`;
      throw badRequest(message, [{ field: "list", message }]);
    }
    return list;
  }

  async create(input: CustomFieldInput, actorId: string): Promise<CustomField> {
    const def = this.entityDef(input.entity);
    const problem = customKeyProblem(def.schema, input.key);
    if (problem) throw badRequest(problem, [{ field: "key", message: problem }]);
    const field = await this.ctx.db.transaction().execute(async (trx) => {
      const { n, last } = await trx
        .selectFrom("crm_custom_fields")
        .select([sql<number>`count(*)::int`.as("n"), sql<number | null>`max(position)`.as("last")])
        .where("entity", "=", input.entity)
        .executeTakeFirstOrThrow();
      if (n >= MAX_CUSTOM_FIELDS) {
        throw badRequest(
          `${def.label} have ${MAX_CUSTOM_FIELDS} custom fields, the most they may have; delete one first`,
        );
      }
      const list = await this.checkList(trx, input.type, input.list);
      const taken = await trx
        .selectFrom("crm_custom_fields")
        .select("id")
        .where("entity", "=", input.entity)
        .where("key", "=", input.key)
        .executeTakeFirst();
      if (taken) {
        const message = `${def.label} already have a custom field with the key '${input.key}'`;
        throw conflict(message, [{ field: "key", message }]);
      }
      await enqueueIndexes(this.ctx, trx, input.entity);
      return trx
        .insertInto("crm_custom_fields")
        .values({
          entity: input.entity,
          key: input.key,
          label: input.label.trim(),
          type: input.type,
          list,
          required: input.required ?? false,
          position: input.position ?? (last ?? 0) + 10,
          description: input.description?.trim() || null,
          created_by: actorId,
          updated_by: actorId,
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
    });
    await this.changed("created", field.id, actorId);
    return field;
  }

  async update(id: string, patch: Partial<CustomFieldInput>, actorId: string): Promise<CustomField> {
    const field = await this.ctx.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom("crm_custom_fields")
        .select(COLUMNS)
        .where("id", "=", id)
        .forUpdate()
        .executeTakeFirst();
      if (!existing) throw notFound("Custom field not found");
      for (const part of ["entity", "key"] as const) {
        if (patch[part] !== undefined && patch[part] !== existing[part]) {
          const message =
            part === "key"
              ? "A field's key never changes (its values are kept under it): add a new field instead"
              : "A field stays on its entity: add a new field to the other one instead";
          throw badRequest(message, [{ field: part, message }]);
        }
      }
      const type = patch.type ?? existing.type;
      const list = type === "enum" ? (patch.list === undefined ? existing.list : patch.list) : null;
      if (type !== existing.type || list !== existing.list) {
        const def = this.entityDef(existing.entity);
        await this.checkList(trx, type, list);
        if (await this.hasValues(trx, def, existing.key)) {
          const what = type !== existing.type ? "type" : "dropdown list";
          const message = `Some ${def.label.toLowerCase()} already have a value for ${existing.label}, so its ${what} cannot change: add a new field instead`;
          throw conflict(message, [{ field: type !== existing.type ? "type" : "list", message }]);
        }
        if (type !== existing.type) await enqueueIndexes(this.ctx, trx, existing.entity);
      }
      return trx
        .updateTable("crm_custom_fields")
        .set({
          label: patch.label?.trim() ?? existing.label,
          type,
          list,
          required: patch.required ?? existing.required,
          position: patch.position ?? existing.position,
          description:
            patch.description === undefined ? existing.description : patch.description?.trim() || null,
          updated_at: new Date(),
          updated_by: actorId,
        })
        .where("id", "=", id)
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
    });
    await this.changed("updated", id, actorId);
    return field;
  }

  /** Deletes a field and its values on every record, in one transaction. */
  async remove(id: string, actorId: string): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      const field = await trx
        .deleteFrom("crm_custom_fields")
        .where("id", "=", id)
        .returning(["entity", "key"])
        .executeTakeFirst();
      if (!field) throw notFound("Custom field not found");
      const def = this.entities.get(field.entity);
      await enqueueIndexes(this.ctx, trx, field.entity);
      if (def) {
        await sql`update ${sql.table(def.schema["x-table"])} set custom = custom - ${field.key}
          where custom ? ${field.key}`.execute(trx);
      }
    });
    await this.changed("deleted", id, actorId);
  }

  /** Puts an entity's fields in the order of `ids` (every field of the entity, once). */
  async reorder(entity: string, ids: readonly string[], actorId: string): Promise<readonly CustomField[]> {
    this.entityDef(entity);
    await this.ctx.db.transaction().execute(async (trx) => {
      const own = await trx
        .selectFrom("crm_custom_fields")
        .select("id")
        .where("entity", "=", entity)
        .forUpdate()
        .execute();
      const known = new Set(own.map((r) => r.id));
      if (ids.length !== known.size || ids.some((i) => !known.has(i))) {
        const message = "List every custom field of this entity once, in the new order";
        throw badRequest(message, [{ field: "ids", message }]);
      }
      for (const [i, fieldId] of ids.entries()) {
        await trx
          .updateTable("crm_custom_fields")
          .set({ position: (i + 1) * 10, updated_at: new Date(), updated_by: actorId })
          .where("id", "=", fieldId)
          .execute();
      }
    });
    await this.changed("updated", [...ids], actorId);
    return this.list(entity);
  }

  /** After a committed change: every instance reads the fields again, open screens are told. */
  private async changed(type: "created" | "updated" | "deleted", ids: string | string[], actorId: string) {
    await this.catalogue.changed();
    this.ctx.events.publish({
      resource: CUSTOM_FIELDS_RESOURCE,
      moduleID: MODULE_IDS.crm,
      type,
      ids: Array.isArray(ids) ? ids : [ids],
      actorId,
    });
  }
}
