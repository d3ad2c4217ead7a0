/**
 * Ajv configuration for route schemas, shared with the SPA's forms
 * (schemas/validator-config.ts). Bodies are validated strictly (no type coercion, unknown
 * properties rejected); query strings and params are coerced from text.
 */
import type { FastifySchemaCompiler } from "fastify";
import { createAjv } from "../../schemas/validator-config";

const strict = createAjv({ coerce: false });
const coercing = createAjv({ coerce: true });

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const ajv = httpPart === "body" ? strict : coercing;
  return ajv.compile(schema) as ReturnType<FastifySchemaCompiler<object>>;
};

/** A body validator outside a route (CSV rows, job payloads): the same strict Ajv as route bodies. */
export const compileBody = (schema: object) => strict.compile(schema);
