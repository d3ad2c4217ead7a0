/**
 * Content types built in the admin: created, changed and deleted as data, never by a deploy.
 * A change is safe for the entries already written: a renamed field keeps its values, a removed
 * field that holds values needs a confirmation naming how many entries lose them, and a kind
 * change converts every stored value or is refused.
 */
import { sql } from "kysely";
import {
  type ContentField,
  type ContentTypeKind,
  checkContentType,
  contentSchemaOf,
  convertValue,
  FIELD_NAME,
  RESERVED_TYPE_NAMES,
} from "../../../schemas/cms-fields";
import type { FieldError } from "../../../schemas/error-messages";
import { plural } from "../../../src/lib/text";
import type { AppContext } from "../../context";
import { badRequest, conflict, HttpError, notFound } from "../../http/errors";
import { holdersOf, replaceHolder } from "./type-holders";
import { type ContentType, TypeRegistry } from "./type-registry";

export interface TypeInput {
  kind: ContentTypeKind;
  apiName: string;
  name: string;
  properties: Record<string, ContentField>;
  required?: string[];
}

export interface TypeChange {
  name?: string;
  properties?: Record<string, ContentField>;
  required?: string[];
  /** Old field name → new: the values move with the field. */
  renames?: Record<string, string>;
  /** Remove fields that hold values (the answer without it says how many entries hold them). */
  confirm?: boolean;
}

/** A type as the admin API answers it. */
export type TypeRecord = ContentType & { entryCount: number };

const SYSTEM_FIELDS = new Set([
  "id",
  "status",
  "domain_ids",
  "revision",
  "version",
  "published_at",
  "publish_at",
  "unpublish_at",
  "draft_changed",
  "locale",
  "source_id",
  "created_at",
  "updated_at",
  "created_by",
  "updated_by",
]);

function refuse(errors: FieldError[]): never {
  throw badRequest(errors[0]?.message ?? "The content type is not valid", errors);
}

export class ContentTypesService {
  constructor(
    private readonly ctx: AppContext,
    readonly registry: TypeRegistry,
  ) {}

  async list(kind?: ContentTypeKind): Promise<TypeRecord[]> {
    const types = [...(await this.registry.all()).values()].filter((t) => !kind || t.kind === kind);
    const counts = await this.ctx.db
      .selectFrom("cms_entries")
      .select(["type_id", sql<number>`count(*)::int`.as("n")])
      .groupBy("type_id")
      .execute();
    const byId = new Map(counts.map((c) => [c.type_id, Number(c.n)]));
    return types.map((t) => ({ ...t, entryCount: byId.get(t.id) ?? 0 }));
  }

  /** A type by id or API name. */
  async find(idOrName: string): Promise<ContentType> {
    const types = await this.registry.all();
    const type = types.get(idOrName) ?? [...types.values()].find((t) => t.id === idOrName);
    if (!type) throw notFound("Content type not found");
    return type;
  }

  async get(idOrName: string): Promise<TypeRecord> {
    const type = await this.find(idOrName);
    return { ...type, entryCount: await this.entryCount(type.id) };
  }

  private async entryCount(typeId: string): Promise<number> {
    const row = await this.ctx.db
      .selectFrom("cms_entries")
      .select(sql<number>`count(*)::int`.as("n"))
      .where("type_id", "=", typeId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private check(
    self: { apiName: string; kind: ContentTypeKind },
    properties: Record<string, ContentField>,
    required: readonly string[],
    types: Map<string, ContentType>,
  ): void {
    const errors: FieldError[] = [];
    for (const name of Object.keys(properties)) {
      if (SYSTEM_FIELDS.has(name))
        errors.push({
          field: `properties.${name}`,
          message: `Field name '${name}' is used by every entry; choose another`,
        });
    }
    for (const r of required) {
      if (!Object.hasOwn(properties, r))
        errors.push({ field: "required", message: `Required field '${r}' is not a field of this type` });
    }
    // The type itself, as it will be, beside the others.
    const next = new Map(types);
    next.set(self.apiName, { kind: self.kind, schema: { properties, required } } as ContentType);
    errors.push(...checkContentType(self, properties, TypeRegistry.catalogueOf(next)));
    if (errors.length) refuse(errors);
  }

  async create(input: TypeInput, actorId: string): Promise<TypeRecord> {
    const types = await this.registry.all();
    if ((RESERVED_TYPE_NAMES as readonly string[]).includes(input.apiName))
      refuse([{ field: "apiName", message: `API name '${input.apiName}' is reserved; choose another` }]);
    if (types.has(input.apiName))
      throw conflict(`A content type with the API name '${input.apiName}' already exists`, [
        { field: "apiName", message: "API name is already in use" },
      ]);
    const required = input.required ?? [];
    this.check(input, input.properties, required, types);
    const schema = contentSchemaOf(input.apiName, input.name, input.properties, required);
    try {
      await this.ctx.db
        .insertInto("content_types")
        .values({
          kind: input.kind,
          api_name: input.apiName,
          name: input.name,
          schema: JSON.stringify(schema),
          created_by: actorId,
          updated_by: actorId,
        })
        .execute();
    } catch (error) {
      if ((error as { code?: string }).code === "23505")
        throw conflict(`A content type with the API name '${input.apiName}' already exists`, [
          { field: "apiName", message: "API name is already in use" },
        ]);
      throw error;
    }
    await this.registry.changed();
    return this.get(input.apiName);
  }

  async update(idOrName: string, change: TypeChange, actorId: string): Promise<TypeRecord> {
    const type = await this.find(idOrName);
    const types = await this.registry.all();
    const before = type.schema.properties;
    const renames = change.renames ?? {};
    const properties = change.properties ?? before;
    const required = change.required ?? type.schema.required.filter((r) => Object.hasOwn(properties, r));
    const renameErrors: FieldError[] = [];
    for (const [from, to] of Object.entries(renames)) {
      if (!Object.hasOwn(before, from))
        renameErrors.push({ field: `renames.${from}`, message: `'${from}' is not a field of this type` });
      else if (!FIELD_NAME.test(to) || !Object.hasOwn(properties, to))
        renameErrors.push({
          field: `renames.${from}`,
          message: `'${to}' is not a field of the changed type`,
        });
    }
    if (renameErrors.length) refuse(renameErrors);
    this.check(type, properties, required, types);

    // Each old field: where its values go (renamed, kept, or removed).
    const target = (name: string) => renames[name] ?? name;
    const removed = Object.keys(before).filter((n) => !Object.hasOwn(properties, target(n)));
    const converted = Object.keys(before).filter(
      (n) => Object.hasOwn(properties, target(n)) && properties[target(n)]["x-kind"] !== before[n]["x-kind"],
    );

    await this.ctx.db.transaction().execute(async (trx) => {
      // A component's values live in the entries of every type that uses it, at any depth.
      let q = trx.selectFrom("cms_entries").select(["id", "type_id", "data", "published"]).forUpdate();
      if (type.kind !== "component") q = q.where("type_id", "=", type.id);
      const ownerOf = new Map([...types.values()].map((t) => [t.id, t]));
      const entries = (await q.execute()).map((e) => {
        const owner = ownerOf.get(e.type_id);
        const data = e.data as Record<string, unknown>;
        const published = e.published as Record<string, unknown> | null;
        return {
          id: e.id,
          data,
          published,
          holders: owner
            ? [
                ...holdersOf(type, owner, data, this.registry),
                ...holdersOf(type, owner, published, this.registry),
              ]
            : [],
        };
      });
      const holding = (field: string) =>
        entries.filter((e) => e.holders.some((h) => h[field] != null)).length;
      const losing = removed.map((f) => ({ field: f, count: holding(f) })).filter((l) => l.count > 0);
      if (losing.length && !change.confirm) {
        throw new HttpError(
          409,
          `Removing ${losing.map((l) => `${before[l.field].title} deletes its values in ${plural(l.count, "entry", "entries")}`).join("; ")}. Confirm to remove.`,
          losing.map((l) => ({
            field: `properties.${l.field}`,
            message: `${plural(l.count, "entry holds", "entries hold")} a value`,
          })),
        );
      }
      const rewrite = (values: Record<string, unknown> | null, errors: FieldError[]) => {
        if (!values) return values;
        const out: Record<string, unknown> = {};
        for (const [name, value] of Object.entries(values)) {
          if (!Object.hasOwn(before, name)) continue;
          const to = target(name);
          if (!Object.hasOwn(properties, to)) continue;
          if (converted.includes(name)) {
            const result = convertValue(before[name]["x-kind"], properties[to], value);
            if (!result.ok) {
              errors.push({
                field: `properties.${to}`,
                message: `${properties[to].title} cannot become ${properties[to]["x-kind"]}: a stored value does not convert`,
              });
              continue;
            }
            out[to] = result.value;
          } else out[to] = value;
        }
        return out;
      };
      const errors: FieldError[] = [];
      const changes = Object.keys(renames).length || removed.length || converted.length;
      if (changes) {
        for (const e of entries) {
          if (!e.holders.length) continue;
          for (const holder of e.holders) replaceHolder(holder, rewrite(holder, errors) ?? {});
          if (errors.length) break;
          await trx
            .updateTable("cms_entries")
            .set({
              data: JSON.stringify(e.data),
              published: e.published ? JSON.stringify(e.published) : null,
            })
            .where("id", "=", e.id)
            .execute();
        }
      }
      if (errors.length) {
        const failed = errors[0];
        throw badRequest(`${failed.message}. Change the entries first, or keep the kind.`, [failed]);
      }
      await trx
        .updateTable("content_types")
        .set({
          name: change.name ?? type.name,
          schema: JSON.stringify(
            contentSchemaOf(type.apiName, change.name ?? type.name, properties, required),
          ),
          schema_version: sql`schema_version + 1`,
          updated_at: sql`now()`,
          updated_by: actorId,
        })
        .where("id", "=", type.id)
        .execute();
    });
    await this.registry.changed();
    return this.get(type.id);
  }

  async remove(idOrName: string, confirm: boolean): Promise<void> {
    const type = await this.find(idOrName);
    const types = await this.registry.all();
    const users = [...types.values()].filter((t) =>
      Object.values(t.schema.properties).some(
        (f) =>
          f["x-component"] === type.apiName ||
          f["x-components"]?.includes(type.apiName) ||
          (f["x-kind"] === "relation" && f["x-target"] === type.apiName),
      ),
    );
    const others = users.filter((t) => t.id !== type.id);
    if (others.length)
      throw conflict(
        `${type.name} is used by ${others.map((t) => t.name).join(", ")}; remove those fields first`,
      );
    const count = await this.entryCount(type.id);
    if (count && !confirm)
      throw conflict(
        `${type.name} has ${plural(count, "entry", "entries")}; confirm to delete the type and its entries`,
      );
    await this.ctx.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("record_versions").where("resource", "=", `cms:${type.apiName}`).execute();
      await trx.deleteFrom("content_types").where("id", "=", type.id).execute();
    });
    await this.registry.changed();
  }
}
