/**
 * The content types, read once and kept until one changes (on any instance: the change is
 * broadcast through the database). Every entry request reads its type from here, so the
 * public API does not ask the database for the schema on each call. While the broadcast is
 * not connected, each read goes to the database: a change elsewhere could be missed.
 */
import type { ValidateFunction } from "ajv";
import { entryJsonSchema, fieldValueSchema } from "../../../schemas/cms-entry-schema";
import type { ContentSchema, ContentTypeKind, TypeCatalogue } from "../../../schemas/cms-fields";
import type { AppContext } from "../../context";
import { type JsonListFields, jsonListFields } from "../../entities/jsonb-fields";
import { compileBody } from "../../http/validation";

export interface ContentType {
  id: string;
  kind: ContentTypeKind;
  apiName: string;
  name: string;
  schema: ContentSchema;
  schemaVersion: number;
  createdAt: string;
  updatedAt: string;
}

const TYPES_CHANNEL = "atelier_cms_types";

export class TypeRegistry implements TypeCatalogue {
  private types: Map<string, ContentType> | undefined;
  private loading: Promise<Map<string, ContentType>> | undefined;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly listFieldsCache = new Map<string, JsonListFields>();
  private listening = false;

  constructor(private readonly ctx: AppContext) {
    ctx.broadcast.subscribe(TYPES_CHANNEL, () => this.forget());
    ctx.broadcast.onStatus((connected) => {
      this.listening = connected;
      this.forget();
    });
  }

  private readonly forgetListeners: (() => void)[] = [];

  private forget(): void {
    this.types = undefined;
    this.loading = undefined;
    this.validators.clear();
    this.listFieldsCache.clear();
    for (const listener of this.forgetListeners) listener();
  }

  /** Calls `listener` whenever the types may have changed (here or on another instance). */
  onChange(listener: () => void): void {
    this.forgetListeners.push(listener);
  }

  /** Call after a committed change to any type, before answering. */
  async changed(): Promise<void> {
    this.forget();
    await this.ctx.broadcast.publish(TYPES_CHANNEL, "changed");
  }

  /** Every type by API name. */
  async all(): Promise<Map<string, ContentType>> {
    if (this.types && this.listening) return this.types;
    this.loading ??= this.load();
    const loading = this.loading;
    const types = await loading;
    if (this.loading === loading) this.types = types;
    return types;
  }

  /**
   * A type's filterable and searchable fields as the list contract reads them from the jsonb
   * `column`, each by its value's JSON Schema (an integer compares as a number, a date as a day).
   */
  listFields(type: ContentType, column: string): JsonListFields {
    const key = `${type.id}:${type.schemaVersion}:${column}`;
    let fields = this.listFieldsCache.get(key);
    if (!fields) {
      const schemas = Object.fromEntries(
        Object.entries(type.schema.properties).map(([name, f]) => [name, fieldValueSchema(f, this)]),
      );
      fields = jsonListFields(column, schemas, [
        ...new Set([...type.schema["x-filterable"], ...type.schema["x-searchable"]]),
      ]);
      this.listFieldsCache.set(key, fields);
    }
    return fields;
  }

  private async load(): Promise<Map<string, ContentType>> {
    const rows = await this.ctx.db.selectFrom("content_types").selectAll().orderBy("name").execute();
    return new Map(
      rows.map((r) => [
        r.api_name,
        {
          id: r.id,
          kind: r.kind,
          apiName: r.api_name,
          name: r.name,
          schema: (typeof r.schema === "string" ? JSON.parse(r.schema) : r.schema) as ContentSchema,
          schemaVersion: r.schema_version,
          createdAt: new Date(r.created_at).toISOString(),
          updatedAt: new Date(r.updated_at).toISOString(),
        },
      ]),
    );
  }

  /** A catalogue over a snapshot of the types (synchronous, as the schema builders need). */
  static catalogueOf(types: ReadonlyMap<string, Pick<ContentType, "kind" | "schema">>): TypeCatalogue {
    return {
      kindOf: (name) => types.get(name)?.kind,
      component: (name) => {
        const t = types.get(name);
        return t?.kind === "component" ? t.schema : undefined;
      },
    };
  }

  // TypeCatalogue over the last snapshot read (call all() first).
  kindOf(name: string) {
    return this.types?.get(name)?.kind;
  }
  component(name: string) {
    const t = this.types?.get(name);
    return t?.kind === "component" ? t.schema : undefined;
  }

  /** The validator of a type's entry values (components inlined), compiled once per version. */
  async validatorOf(type: ContentType): Promise<ValidateFunction> {
    const types = await this.all();
    const key = `${type.id}:${type.schemaVersion}`;
    let validate = this.validators.get(key);
    if (!validate) {
      validate = compileBody(entryJsonSchema(type.schema, TypeRegistry.catalogueOf(types)));
      this.validators.set(key, validate);
    }
    return validate;
  }
}
