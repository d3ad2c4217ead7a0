/**
 * The one Ajv configuration (STYLE.md habit 3): the Fastify route compiler and the SPA's
 * react-jsonschema-form validator both build their Ajv from here, so both sides give the
 * same verdict on the same input. Pure: Ajv runs in Node and in the browser.
 */
import Ajv, { type Options, type SchemaValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { isMultipleOf } from "./decimal";
import { ENGINE_FORMATS } from "./formats";

/**
 * Ajv options. Bodies are validated strictly (no type coercion, unknown properties
 * rejected, never silently removed); query strings and params are coerced from text.
 */
export function ajvOptions({ coerce }: { coerce: boolean }): Options {
  return {
    allErrors: true,
    // Errors carry the schema that failed, whose title and hints the messages say (error-messages.ts).
    verbose: true,
    removeAdditional: false,
    useDefaults: true,
    coerceTypes: coerce ? "array" : false,
    strict: false,
  };
}

/**
 * `multipleOf` decided on decimals (schemas/decimal.ts) instead of Ajv's floating-point
 * division, which refused prices such as 0.29. Its errors keep the core keyword's shape
 * (keyword, `params.multipleOf`), so messages and form errors read it unchanged.
 */
const decimalMultipleOf: SchemaValidateFunction = (step: number, data: number) => {
  if (isMultipleOf(data, step)) return true;
  decimalMultipleOf.errors = [
    { keyword: "multipleOf", params: { multipleOf: step }, message: `must be multiple of ${step}` },
  ];
  return false;
};

/**
 * Ajv with the standard formats of ajv-formats (email, uri, uuid…), the engine's own `date`,
 * `date-time` and `time` (schemas/formats.ts: what their columns can hold; `time` has no
 * zone) and the decimal-safe `multipleOf`.
 */
export class FormatsAjv extends Ajv {
  constructor(options?: Options) {
    super(options);
    addFormats(this);
    for (const [name, validate] of Object.entries(ENGINE_FORMATS)) this.addFormat(name, validate);
    this.removeKeyword("multipleOf");
    this.addKeyword({
      keyword: "multipleOf",
      type: "number",
      schemaType: "number",
      errors: true,
      validate: decimalMultipleOf,
    });
  }
}

/**
 * An Ajv instance with the shared options and formats.
 *
 * @example
 * const validate = createAjv({ coerce: false }).compile(bodySchema);
 */
export function createAjv({ coerce }: { coerce: boolean }): Ajv {
  return new FormatsAjv(ajvOptions({ coerce }));
}
