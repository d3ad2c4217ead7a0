/**
 * A content type as a resource definition, so its entries get the generated list, form and
 * show screens (ARCHITECTURE.md §3): the type's stored schema becomes an EntitySchema whose
 * fields are the values' JSON Schema with the screens' hints (relation selects, the asset
 * picker, text areas), beside the entry's own read-only fields (status, dates). Pure.
 */
import type { ResourceDefinition } from "../../../resources/contract";
import { MODULE_IDS } from "../../../resources/modules";
import { componentObjectSchema, fieldValueSchema } from "../../../schemas/cms-entry-schema";
import {
  type ContentField,
  type ContentSchema,
  type ContentTypeKind,
  RELATION_RESOURCES,
  type TypeCatalogue,
} from "../../../schemas/cms-fields";
import { isLocalisedField } from "../../../schemas/cms-locales";
import { auditProperties, type EntitySchema, type FieldSchema } from "../../../schemas/contract";
import { BLOCK_KIND_WIDGET } from "../../resources/form-schema";

/** A content type as GET /cms/content-types answers it. */
export interface ContentTypeRecord {
  id: string;
  kind: ContentTypeKind;
  apiName: string;
  name: string;
  schema: ContentSchema;
  schemaVersion: number;
  entryCount: number;
  updatedAt: string;
}

export const ENTRY_STATUSES = ["draft", "published", "unpublished"] as const;
export const ENTRY_STATUS_LABELS = ["Draft", "Published", "Unpublished"] as const;
/** The widget of a media field holding asset ids (form/widgets.ts). */
export const ASSET_WIDGET = "asset";

/** The Refine resource name of a type's entries (also the admin API path under /cms). */
export const entriesResourceName = (apiName: string) => `entries/${apiName}`;

export function catalogueOf(types: readonly ContentTypeRecord[]): TypeCatalogue {
  const byName = new Map(types.map((t) => [t.apiName, t]));
  return {
    kindOf: (name) => byName.get(name)?.kind,
    component: (name) => {
      const t = byName.get(name);
      return t?.kind === "component" ? t.schema : undefined;
    },
  };
}

/** A type's fields in the builder's order (jsonb keeps keys in its own order, so the order is stored). */
export function fieldOrder(
  schema: Pick<ContentSchema, "properties"> & { "x-order"?: readonly string[] },
): string[] {
  const names = Object.keys(schema.properties);
  const order = (schema["x-order"] ?? []).filter((n) => names.includes(n));
  return [...order, ...names.filter((n) => !order.includes(n))];
}

/** A relation's target as a resource: another type's entries, or a resource such as products. */
function relationTarget(f: ContentField, types: readonly ContentTypeRecord[]) {
  const target = f["x-target"] ?? "";
  const type = types.find((t) => t.apiName === target);
  if (type) return { resource: entriesResourceName(target), labelField: type.schema["x-label"] };
  return { resource: target, labelField: RELATION_RESOURCES[target]?.labelField ?? "name" };
}

/** One field as the generated form edits it. */
function formField(
  f: ContentField,
  types: readonly ContentTypeRecord[],
  catalogue: TypeCatalogue,
): FieldSchema {
  const kind = f["x-kind"];
  const value = fieldValueSchema(f, catalogue);
  if (kind === "relation") return { ...value, "x-relation": relationTarget(f, types) } as FieldSchema;
  if (kind === "media") return { ...value, "x-asset": true } as FieldSchema;
  if (kind === "longtext") return { ...value, "x-multiline": true } as FieldSchema;
  if (kind === "dynamiczone") {
    // rjsf offers a choice of block kinds through oneOf; the server checks the same blocks by if/then.
    const blocks = (f["x-components"] ?? []).map((c) => {
      const object = componentObjectSchema(c, catalogue, 1, true) as { properties: Record<string, unknown> };
      const title = types.find((t) => t.apiName === c)?.name ?? c;
      const inner = catalogue.component(c);
      return {
        ...object,
        title,
        // The builder's order, for the show page (jsonb keeps keys in an order of its own).
        ...(inner ? { "x-order": fieldOrder(inner) } : {}),
        properties: { ...object.properties, __component: { type: "string", const: c, default: c } },
      };
    });
    return { ...value, items: { oneOf: blocks } } as unknown as FieldSchema;
  }
  if (kind === "component") {
    // Its fields in the builder's order when the show page lists them.
    const inner = catalogue.component(f["x-component"] ?? "");
    if (inner) {
      const order = fieldOrder(inner);
      return (value.items
        ? { ...value, items: { ...(value.items as object), "x-order": order } }
        : { ...value, "x-order": order }) as unknown as FieldSchema;
    }
  }
  if (kind === "json")
    return { ...value, type: "object", additionalProperties: true } as unknown as FieldSchema;
  return value as unknown as FieldSchema;
}

/** Form hints of fields the derived uiSchema does not know (asset ids, many relations, blocks). */
function uiSchemaOf(schema: ContentSchema, types: readonly ContentTypeRecord[]): Record<string, unknown> {
  const ui: Record<string, unknown> = {
    "ui:order": [...fieldOrder(schema), "*"],
  };
  for (const [name, f] of Object.entries(schema.properties)) {
    const kind = f["x-kind"];
    if (kind === "media")
      ui[name] = { "ui:widget": ASSET_WIDGET, "ui:options": { multiple: Boolean(f["x-multiple"]) } };
    if (kind === "component") {
      const inner = catalogueOf(types).component(f["x-component"] ?? "");
      if (inner)
        ui[name] = f["x-multiple"]
          ? { items: { "ui:order": [...fieldOrder(inner), "*"] } }
          : { "ui:order": [...fieldOrder(inner), "*"] };
    }
    if (kind === "dynamiczone") {
      // Each block headed by its component's name and number, its own title not repeated under it.
      const blocks = (f["x-components"] ?? []).map((c) => {
        const inner = catalogueOf(types).component(c);
        return {
          "ui:label": false,
          __component: { "ui:widget": "hidden" },
          ...(inner ? { "ui:order": [...fieldOrder(inner), "*"] } : {}),
        };
      });
      ui[name] = {
        "ui:options": { addLabel: "Add block" },
        items: { "ui:widget": BLOCK_KIND_WIDGET, "ui:label": false, oneOf: blocks },
      };
    }
    if (kind === "component" && f["x-multiple"])
      ui[name] = {
        ...(ui[name] as object),
        "ui:options": { addLabel: `Add ${String(f.title).toLowerCase()}` },
      };
  }
  return ui;
}

/** The resource definition of a collection's or single's entries. */
export function entryDefinition(
  type: ContentTypeRecord,
  types: readonly ContentTypeRecord[],
): ResourceDefinition {
  const catalogue = catalogueOf(types);
  const fields: Record<string, FieldSchema> = {};
  for (const [name, f] of Object.entries(type.schema.properties))
    fields[name] = formField(f, types, catalogue);
  const schema: EntitySchema = {
    $id: type.schema.$id,
    title: type.name,
    type: "object",
    additionalProperties: false,
    "x-table": "cms_entries",
    "x-label": type.schema["x-label"] || "id",
    "x-defaultSort": "-updated_at",
    "x-list": [...type.schema["x-list"], "domain_ids", "status", "updated_at"],
    "x-searchable": type.schema["x-searchable"],
    "x-filterable": [...type.schema["x-filterable"], "status", "domain_ids", "updated_at"],
    required: type.schema.required,
    properties: {
      id: auditProperties.id,
      ...fields,
      domain_ids: {
        type: "array",
        title: "Domains",
        description: "Where the entry is delivered once published",
        items: { type: "string", format: "uuid", title: "Domain" },
        maxItems: 100,
        "x-relation": { resource: "domains", labelField: "name" },
      } as unknown as FieldSchema,
      status: {
        type: "string",
        title: "Status",
        enum: ENTRY_STATUSES,
        "x-enumLabels": ENTRY_STATUS_LABELS,
        readOnly: true,
      },
      published_at: { type: "string", format: "date-time", title: "Published", readOnly: true },
      created_at: auditProperties.created_at,
      updated_at: auditProperties.updated_at,
    },
  };
  return {
    name: entriesResourceName(type.apiName),
    schema,
    moduleID: MODULE_IDS.cms,
    base: "cms",
    label: type.name,
    singular: type.name,
    icon: type.kind === "single" ? "FileOutlined" : "FileTextOutlined",
    parent: "cms",
    order: 10,
    uiSchema: uiSchemaOf(type.schema, types),
    csv: false,
    revisionField: "revision",
    autosave: true,
  };
}

/**
 * The definition a locale's variant is edited with: the type's localised fields only (shared
 * ones are the entry's, edited in the default locale), and no domains (a variant follows its
 * entry's).
 */
export function variantDefinition(def: ResourceDefinition, type: ContentTypeRecord): ResourceDefinition {
  const shared = new Set(
    Object.entries(type.schema.properties)
      .filter(([, f]) => !isLocalisedField(f))
      .map(([name]) => name),
  );
  shared.add("domain_ids");
  const properties = Object.fromEntries(
    Object.entries(def.schema.properties).filter(([name]) => !shared.has(name)),
  ) as EntitySchema["properties"];
  const order = (def.uiSchema?.["ui:order"] as string[] | undefined) ?? [];
  return {
    ...def,
    schema: {
      ...def.schema,
      properties,
      required: (def.schema.required ?? []).filter((name) => !shared.has(name)),
    },
    uiSchema: { ...def.uiSchema, "ui:order": order.filter((name) => !shared.has(name)) },
  };
}
