/**
 * The delivery API of each content type in the OpenAPI document (`/api/docs/json`): a path per
 * collection and single with its entries' fields, made from the stored types when the document
 * is asked for, so a type built in the admin appears without a restart.
 */
import { entryJsonSchema } from "../../../schemas/cms-entry-schema";
import type { OpenApiDocument as Document } from "../../http/docs";
import { MAX_POPULATE } from "./populate";
import { PUBLIC_CMS_PREFIX } from "./public.routes";
import { type ContentType, TypeRegistry } from "./type-registry";

type Json = Record<string, unknown>;

/** References are ids, or the item itself when populated: any JSON, described. */
function referencesLoose(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(referencesLoose);
  if (typeof node !== "object" || node === null) return node;
  const n = node as Json;
  if (n.format === "uuid") return { description: "An id; with populate, the referenced item" };
  return Object.fromEntries(Object.entries(n).map(([k, v]) => [k, referencesLoose(v)]));
}

function entrySchema(type: ContentType, types: ReadonlyMap<string, ContentType>): Json {
  const values = entryJsonSchema(type.schema, TypeRegistry.catalogueOf(types)) as Json;
  return {
    type: "object",
    title: type.name,
    properties: {
      id: { type: "string", format: "uuid" },
      ...(referencesLoose(values.properties) as Json),
      publishedAt: { type: ["string", "null"], format: "date-time" },
    },
  };
}

const param = (name: string, description: string) => ({
  name,
  in: "path",
  required: true,
  description,
  schema: { type: "string" },
});
const query = (name: string, schema: Json, description: string) => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
});
const populate = query(
  "populate",
  { type: "integer", minimum: 0, maximum: MAX_POPULATE, default: 1 },
  "How deep references are made whole",
);
const ok = (schema: Json) => ({
  200: { description: "Published content", content: { "application/json": { schema } } },
  304: { description: "Not modified (If-None-Match matched the ETag)" },
  404: { description: "No such domain, type or published entry" },
});

export function cmsOpenApi(registry: TypeRegistry) {
  let snapshot: ReadonlyMap<string, ContentType> = new Map();
  return {
    /** Reads the types before the document is made (the transform itself is synchronous). */
    async prepare(): Promise<void> {
      snapshot = await registry.all();
    },
    transform(doc: Document): Document {
      const paths: Record<string, unknown> = { ...(doc.paths ?? {}) };
      const domain = param("domain", "The domain's key");
      for (const type of snapshot.values()) {
        if (type.kind === "component") continue;
        const schema = entrySchema(type, snapshot);
        const tags = [`public cms: ${type.name}`];
        if (type.kind === "single") {
          paths[`${PUBLIC_CMS_PREFIX}/{domain}/singles/${type.apiName}`] = {
            get: {
              tags,
              summary: `${type.name} in this domain`,
              parameters: [domain, populate],
              responses: ok({ type: "object", properties: { data: schema } }),
            },
          };
          continue;
        }
        paths[`${PUBLIC_CMS_PREFIX}/{domain}/${type.apiName}`] = {
          get: {
            tags,
            summary: `Published ${type.name} entries (list contract)`,
            parameters: [
              domain,
              query("page", { type: "integer", minimum: 1 }, "1-based page"),
              query("pageSize", { type: "integer", minimum: 1, maximum: 200 }, "Entries a page"),
              query(
                "sort",
                { type: "string" },
                `Comma list of ${type.schema["x-filterable"].join(", ")} or published_at; - for descending`,
              ),
              query("filters", { type: "string" }, "JSON of Refine CrudFilters over the same fields"),
              query(
                "q",
                { type: "string" },
                `Searches ${type.schema["x-searchable"].join(", ") || "nothing"}`,
              ),
              populate,
            ],
            responses: ok({
              type: "object",
              properties: { data: { type: "array", items: schema }, total: { type: "integer" } },
            }),
          },
        };
        paths[`${PUBLIC_CMS_PREFIX}/{domain}/${type.apiName}/{ref}`] = {
          get: {
            tags,
            summary: `One published ${type.name} entry by slug or id`,
            parameters: [domain, param("ref", "The entry's slug or id"), populate],
            responses: ok({ type: "object", properties: { data: schema } }),
          },
        };
      }
      return { ...doc, paths };
    },
  };
}
