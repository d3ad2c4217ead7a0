/**
 * The run-time side of `x-custom` resources (ARCHITECTURE.md §3, runtime entities): the custom
 * field definitions admins keep in `crm_custom_fields`, read once and kept on every instance
 * until one changes (server/db/shared-cache.ts: the change is broadcast through the database),
 * and each resource's effective schema — its static schema plus its custom fields as top-level
 * properties (schemas/custom-fields.ts). The engine reads the effective schema on every request
 * of such a resource, so a field added in the admin is validated, stored, listed, filtered,
 * exported and documented at once, without a migration or a restart.
 *
 * One effective schema object is kept per content of the definitions, so everything derived
 * from a schema and cached by it (records.ts plans, body validators, list options) is worked out
 * once per change, not per request.
 */
import type { ValidateFunction } from "ajv";
import type { Kysely, Transaction } from "kysely";
import type { ResourceDefinition } from "../../resources/contract";
import type { EntitySchema } from "../../schemas/contract";
import { type CustomField, withCustomFields } from "../../schemas/custom-fields";
import { fieldErrors, invalidInputMessage } from "../../schemas/error-messages";
import type { AppContext } from "../context";
import { SharedCache } from "../db/shared-cache";
import type { Database } from "../db/types";
import { badRequest } from "../http/errors";
import { compileBody } from "../http/validation";
import { bodySchemaOf } from "./records";

/** The broadcast channel of custom field changes. */
const CHANNEL = "atelier_custom_fields";
/** Effective schemas kept by content, across changes (a change back reuses its schema). */
const MAX_SHAPES = 32;

type Mode = "create" | "update";
type Executor = Kysely<Database> | Transaction<Database>;

export class CustomFieldCatalogue {
  private readonly cache: SharedCache<readonly CustomField[]>;
  /** Effective schemas by the definitions array they were made from (the cached one, mostly). */
  private readonly byArray = new WeakMap<readonly CustomField[], Map<EntitySchema, EntitySchema>>();
  /** Effective schemas by content, for definitions read again (the broadcast down, a change elsewhere). */
  private readonly byContent = new Map<string, EntitySchema>();
  private readonly defs = new WeakMap<EntitySchema, ResourceDefinition>();
  private readonly validators = new WeakMap<EntitySchema, Record<Mode, ValidateFunction>>();

  constructor(private readonly ctx: Pick<AppContext, "db" | "broadcast" | "log">) {
    this.cache = new SharedCache(ctx, CHANNEL, 1);
  }

  /**
   * Every definition, of every entity, in order (entity, position, label). `db`: the caller's
   * transaction, when it has one — on PGlite (one connection) a read outside it would wait for
   * the transaction to end, which waits for the read.
   */
  async all(db: Executor = this.ctx.db): Promise<readonly CustomField[]> {
    const generation = this.cache.generation;
    return this.cache.get("all") ?? this.cache.keep("all", await this.load(db), generation);
  }

  /** The definitions of one entity (an `x-custom` key), in order; `db` as for `all`. */
  async fieldsOf(entity: string, db?: Executor): Promise<CustomField[]> {
    return (await this.all(db)).filter((f) => f.entity === entity);
  }

  /** Call after a committed change to any definition: every instance reads them again. */
  changed(): Promise<void> {
    return this.cache.changed();
  }

  /** `schema` with its custom fields now (the schema itself when it has no `x-custom`). */
  async schemaOf(schema: EntitySchema): Promise<EntitySchema> {
    if (!schema["x-custom"]) return schema;
    const all = await this.all();
    let bySchema = this.byArray.get(all);
    if (!bySchema) {
      bySchema = new Map();
      this.byArray.set(all, bySchema);
    }
    let effective = bySchema.get(schema);
    if (!effective) {
      const own = all.filter((f) => f.entity === schema["x-custom"]);
      const key = `${schema.$id}\u0000${JSON.stringify(own)}`;
      effective = this.byContent.get(key) ?? withCustomFields(schema, own);
      this.byContent.delete(key);
      this.byContent.set(key, effective);
      if (this.byContent.size > MAX_SHAPES)
        this.byContent.delete(this.byContent.keys().next().value as string);
      bySchema.set(schema, effective);
    }
    return effective;
  }

  /** `def` with its effective schema (one object per schema, for what is cached by definition). */
  async defOf(def: ResourceDefinition): Promise<ResourceDefinition> {
    const schema = await this.schemaOf(def.schema);
    if (schema === def.schema) return def;
    let found = this.defs.get(schema);
    if (!found) {
      found = { ...def, schema };
      this.defs.set(schema, found);
    }
    return found;
  }

  /**
   * Checks a create or update body against the effective schema with the one validator (the
   * engine's body schemas, so the same words as every route's 400): the route lets an
   * `x-custom` resource's body through (its fields are not known when routes are compiled).
   * Fills defaults as the routes do.
   */
  validate(schema: EntitySchema, mode: Mode, body: unknown): void {
    let compiled = this.validators.get(schema);
    if (!compiled) {
      compiled = {
        create: compileBody(bodySchemaOf(schema, "create")),
        update: compileBody(bodySchemaOf(schema, "update")),
      };
      this.validators.set(schema, compiled);
    }
    const check = compiled[mode];
    if (!check(body)) {
      const details = fieldErrors(check.errors ?? []);
      throw badRequest(invalidInputMessage(details), details);
    }
  }

  private async load(db: Executor): Promise<CustomField[]> {
    const rows = await db
      .selectFrom("crm_custom_fields")
      .select(["id", "entity", "key", "label", "type", "list", "required", "position", "description"])
      .orderBy("entity")
      .orderBy("position")
      .orderBy("label")
      .execute();
    return rows;
  }
}

/** One catalogue per running app (its context), shared by the engine and the module's routes. */
const catalogues = new WeakMap<object, CustomFieldCatalogue>();

/**
 * The app's custom field catalogue.
 *
 * @example
 * const schema = await customFields(ctx).schemaOf(clientSchema);
 */
export function customFields(ctx: Pick<AppContext, "db" | "broadcast" | "log">): CustomFieldCatalogue {
  let catalogue = catalogues.get(ctx);
  if (!catalogue) {
    catalogue = new CustomFieldCatalogue(ctx);
    catalogues.set(ctx, catalogue);
  }
  return catalogue;
}
