/**
 * The one Ajv configuration (STYLE.md habit 3): the Fastify route compiler and the SPA's
 * react-jsonschema-form validator both build their Ajv from here, so both sides give the
 * same verdict on the same input. Pure: Ajv runs in Node and in the browser.
 */
import Ajv, { type Options } from "ajv";
import addFormats from "ajv-formats";

/**
 * Ajv options. Bodies are validated strictly (no type coercion, unknown properties
 * rejected, never silently removed); query strings and params are coerced from text.
 */
export function ajvOptions({ coerce }: { coerce: boolean }): Options {
  return {
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    coerceTypes: coerce ? "array" : false,
    strict: false,
  };
}

/** Ajv with the standard formats (email, uri, uuid, date-time…) of ajv-formats. */
export class FormatsAjv extends Ajv {
  constructor(options?: Options) {
    super(options);
    addFormats(this);
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
