/**
 * Routes of an `x-custom` resource, whose custom fields exist only at run time: Fastify compiles
 * a route's validators once, at start-up, so its create and update bodies are let through here
 * and checked by the service against the schema of that moment (custom-fields.ts `validate`,
 * the same validator and words as every other body). The OpenAPI document still shows the
 * static fields, and the custom fields as they are when it is read (openapi.ts).
 */
import type { FastifySchemaCompiler } from "fastify";
import type { EntitySchema } from "../../schemas/contract";
import { validatorCompiler } from "../http/validation";
import { bodySchemaOf } from "./records";

/** The body of a create or update as documented: the static fields, and the custom fields besides. */
export function runtimeBodySchemaOf(schema: EntitySchema, mode: "create" | "update") {
  return {
    ...bodySchemaOf(schema, mode),
    additionalProperties: true,
    description: `Besides these fields, the ${schema.title.toLowerCase()}'s custom fields (GET /crm/custom-fields) as top-level properties; any other property is refused.`,
  };
}

/** The body as it came: the service validates it (params and query strings as on any route). */
const passBody = (body: unknown) => ({ value: body });

export const bodyCheckedByService: FastifySchemaCompiler<object> = (route) =>
  route.httpPart === "body" ? passBody : validatorCompiler(route);
