/**
 * The OpenAPI document of `x-custom` resources with their custom fields as they are now: the
 * routes were documented at start-up with the static fields, so when the document is read
 * (`/api/docs/json`), the record, list and body schemas of those resources are made again from
 * the effective schema (custom-fields.ts). A field added in the admin is in the document at
 * once, as the CMS's content types are (server/modules/cms/openapi.ts).
 */
import type { ResourceDefinition } from "../../resources/contract";
import { resourcePath } from "../../resources/contract";
import type { EntitySchema } from "../../schemas/contract";
import type { OpenApiDocument, OpenApiExtension } from "../http/docs";
import { bodySchemaOf, recordSchemaOf } from "./records";
import type { ResourceService } from "./service";

type Json = Record<string, unknown>;

const json = (schema: unknown) => ({ "application/json": { schema } });

/** Sets `schema` as the JSON body of an operation's request or answer, when the document has one. */
function setContent(holder: Json | undefined, schema: unknown): void {
  const content = holder?.content as Json | undefined;
  if (content?.["application/json"]) Object.assign(content, json(schema));
}

function patchPaths(paths: Json, def: ResourceDefinition, schema: EntitySchema): void {
  const base = resourcePath(def);
  const record = recordSchemaOf(schema);
  const collection = paths[base] ? (structuredClone(paths[base]) as Json) : undefined;
  const one = paths[`${base}/{id}`] ? (structuredClone(paths[`${base}/{id}`]) as Json) : undefined;
  const op = (item: Json | undefined, method: string) => item?.[method] as Json | undefined;
  const answer = (item: Json | undefined, method: string, status: string) =>
    (op(item, method)?.responses as Json | undefined)?.[status] as Json | undefined;

  setContent(answer(collection, "get", "200"), {
    type: "object",
    properties: {
      data: { type: "array", items: record },
      total: { type: "integer" },
      totalExact: { type: "boolean" },
    },
  });
  setContent(op(collection, "post")?.requestBody as Json | undefined, bodySchemaOf(schema, "create"));
  setContent(answer(collection, "post", "201"), record);
  setContent(answer(one, "get", "200"), record);
  setContent(op(one, "patch")?.requestBody as Json | undefined, bodySchemaOf(schema, "update"));
  setContent(answer(one, "patch", "200"), record);
  if (collection) paths[base] = collection;
  if (one) paths[`${base}/{id}`] = one;
}

/** The document extension over the engine's services (only `x-custom` resources change). */
export function customFieldsOpenApi(services: () => Iterable<ResourceService>): OpenApiExtension {
  let current: Array<{ def: ResourceDefinition; schema: EntitySchema }> = [];
  return {
    async prepare() {
      const runtime = [...services()].filter((s) => s.def.schema["x-custom"]);
      current = await Promise.all(runtime.map(async (s) => ({ def: s.def, schema: await s.schemaNow() })));
    },
    transform(doc: OpenApiDocument): OpenApiDocument {
      const paths: Json = { ...(doc.paths ?? {}) };
      for (const { def, schema } of current) patchPaths(paths, def, schema);
      return { ...doc, paths };
    },
  };
}
