/**
 * Ajv configuration for route schemas. Bodies are validated strictly (no type coercion,
 * unknown properties rejected); query strings and params are coerced from text.
 */
import Ajv from "ajv";
import addFormats from "ajv-formats";
import type { FastifySchemaCompiler } from "fastify";

function createAjv(coerce: boolean) {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    coerceTypes: coerce ? "array" : false,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

const strict = createAjv(false);
const coercing = createAjv(true);

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const ajv = httpPart === "body" ? strict : coercing;
  return ajv.compile(schema) as ReturnType<FastifySchemaCompiler<object>>;
};
