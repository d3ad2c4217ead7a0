/**
 * The JSON Schema a CMS entry's values are validated by, built from its type's stored fields
 * (schemas/cms-fields.ts): one schema per field kind, components inlined to any depth, dynamic
 * zones as blocks told apart by `__component`, optional fields nullable. Pure: the server's
 * validator, the entry forms and the OpenAPI document read the same schema.
 */
import { type ContentField, type ContentSchema, SLUG_PATTERN, type TypeCatalogue } from "./cms-fields";

const UUID = { type: "string", format: "uuid" } as const;

/** The JSON Schema of one field's value (without null). */
export function fieldValueSchema(f: ContentField, catalogue: TypeCatalogue): Record<string, unknown> {
  return valueSchemaOf(f, catalogue, 0);
}

function valueSchemaOf(f: ContentField, catalogue: TypeCatalogue, depth: number): Record<string, unknown> {
  const common: Record<string, unknown> = { title: f.title };
  if (f.description) common.description = f.description;
  if (f.default !== undefined && f.default !== null) common.default = f.default;
  const many = (item: Record<string, unknown>) => ({
    ...common,
    type: "array",
    items: item,
    ...(f.minItems !== undefined ? { minItems: f.minItems } : {}),
    maxItems: f.maxItems ?? 100,
  });
  const text = (extra: Record<string, unknown>) => ({
    ...common,
    type: "string",
    ...(f.minLength !== undefined ? { minLength: f.minLength } : {}),
    ...(f.pattern ? { pattern: f.pattern, "x-patternMessage": f["x-patternMessage"] } : {}),
    ...extra,
  });
  switch (f["x-kind"]) {
    case "text":
      return text({ maxLength: f.maxLength ?? 255 });
    case "longtext":
      return text({ maxLength: f.maxLength ?? 20_000 });
    case "richtext":
      return text({ maxLength: f.maxLength ?? 200_000, "x-richText": true });
    case "email":
      return text({ format: "email", maxLength: f.maxLength ?? 320 });
    case "url":
      return text({ format: "uri", maxLength: f.maxLength ?? 2000 });
    case "slug":
      return {
        ...common,
        type: "string",
        minLength: 1,
        maxLength: f.maxLength ?? 200,
        pattern: SLUG_PATTERN,
        "x-patternMessage": "may only contain lower-case letters, digits and single dashes between them",
      };
    case "integer":
    case "decimal":
      return {
        ...common,
        type: f["x-kind"] === "integer" ? "integer" : "number",
        ...(f.minimum !== undefined ? { minimum: f.minimum } : {}),
        ...(f.maximum !== undefined ? { maximum: f.maximum } : {}),
      };
    case "boolean":
      return { ...common, type: "boolean" };
    case "date":
      return { ...common, type: "string", format: "date" };
    case "datetime":
      return { ...common, type: "string", format: "date-time" };
    case "enum":
      return { ...common, type: "string", enum: f.enum ?? [], "x-enumLabels": f["x-enumLabels"] };
    case "media":
    case "relation":
      return f["x-multiple"] ? many({ ...UUID, title: f.title }) : { ...common, ...UUID };
    case "component": {
      const object = componentObjectSchema(f["x-component"] ?? "", catalogue, depth + 1);
      return f["x-multiple"] ? many(object) : { ...common, ...object, title: f.title };
    }
    case "dynamiczone": {
      const allowed = [...(f["x-components"] ?? [])];
      return many({
        type: "object",
        title: f.title,
        required: ["__component"],
        properties: { __component: { type: "string", title: "Block kind", enum: allowed } },
        allOf: allowed.map((c) => ({
          if: { properties: { __component: { const: c } } },
          // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, never awaited.
          then: componentObjectSchema(c, catalogue, depth + 1, true),
        })),
      });
    }
    case "json":
      return { ...common };
  }
}

/** Components nest to any depth; this bounds a schema built from a corrupted catalogue. */
const MAX_DEPTH = 32;

export function componentObjectSchema(
  apiName: string,
  catalogue: TypeCatalogue,
  depth: number,
  block = false,
): Record<string, unknown> {
  if (depth > MAX_DEPTH) return { type: "object" };
  const component = catalogue.component(apiName);
  const schema = objectSchemaOf(component?.properties ?? {}, component?.required ?? [], catalogue, depth);
  if (block) (schema.properties as Record<string, unknown>).__component = { const: apiName };
  return schema;
}

function objectSchemaOf(
  properties: Readonly<Record<string, ContentField>>,
  required: readonly string[],
  catalogue: TypeCatalogue,
  depth: number,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(properties)) {
    const value = valueSchemaOf(f, catalogue, depth);
    // An optional field may be cleared with null; a required one must hold a value.
    out[name] = required.includes(name) || f["x-kind"] === "json" ? value : nullable(value);
  }
  return { type: "object", additionalProperties: false, properties: out, required: [...required] };
}

function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  if (typeof schema.type !== "string") return schema;
  const out: Record<string, unknown> = { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
  return out;
}

/** The JSON Schema an entry's values are validated by (the one validator, client and server). */
export function entryJsonSchema(
  schema: Pick<ContentSchema, "properties" | "required">,
  catalogue: TypeCatalogue,
) {
  return objectSchemaOf(schema.properties, schema.required, catalogue, 0);
}
