/**
 * Validation messages in words, shared by the server (400 `details`) and the forms of the
 * SPA, so both sides say the same thing about the same input. Pure: no Node, no React.
 */
import { decimalPlacesOf } from "./decimal";

/** A field error as the API sends it in `details` of a 400 answer. */
export interface FieldError {
  field: string;
  message: string;
}

/** The part of an Ajv `ErrorObject` the messages read. */
export interface AjvErrorLike {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Optional fields accept `null` to clear them; a message lists only the real choices. */
const withoutNull = <T>(values: readonly T[]): T[] => values.filter((v) => v !== null && v !== "null");

/**
 * What a value of each string format looks like, said to a person (the formats of
 * schemas/contract.ts; `date-time` and `time` as schemas/formats.ts defines them).
 */
const FORMAT_MESSAGES: Readonly<Record<string, string>> = {
  email: "must be a valid email address",
  uri: "must be a full web address, such as https://example.com/page",
  uuid: "must be a valid ID (a UUID such as 0b7c5a3e-9d1f-4c2a-8e6b-1f2d3c4b5a69)",
  date: "must be a real date written YYYY-MM-DD",
  "date-time": "must be a date and time with its time zone, such as 2024-03-05T14:30:00Z",
  time: "must be a time of day written HH:MM or HH:MM:SS (00:00 to 23:59), without a time zone",
};

const FRIENDLY: Readonly<Record<string, (e: AjvErrorLike) => string>> = {
  required: () => "is required",
  additionalProperties: () => "is not allowed",
  format: (e) => FORMAT_MESSAGES[String(e.params.format)] ?? `must be a valid ${e.params.format}`,
  minLength: (e) =>
    e.params.limit === 1 ? "must not be empty" : `must be at least ${e.params.limit} characters`,
  maxLength: (e) => `must be at most ${e.params.limit} characters`,
  enum: (e) => `must be one of ${withoutNull(e.params.allowedValues as unknown[]).join(", ")}`,
  type: (e) => {
    // A nullable field's type is ["string", "null"]; "null" is not worth saying.
    const type = withoutNull(String(e.params.type).split(","))[0];
    return `must be ${type === "integer" ? "a whole number" : `a ${type}`}`;
  },
  uniqueItems: () => "must not repeat values",
  multipleOf: (e) => {
    const places = decimalPlacesOf(Number(e.params.multipleOf));
    if (places === null) return `must be a multiple of ${e.params.multipleOf}`;
    return places === 1 ? "must have at most 1 decimal place" : `must have at most ${places} decimal places`;
  },
};

/**
 * The message of one Ajv error: a friendly sentence for the common keywords, else Ajv's own.
 *
 * @example
 * friendlyMessage({ instancePath: "", keyword: "required", params: { missingProperty: "name" } }); // "is required"
 */
export function friendlyMessage(e: AjvErrorLike): string {
  return FRIENDLY[e.keyword]?.(e) ?? e.message ?? "is invalid";
}

/**
 * The field an Ajv error is about, as a dotted property path (`deviceInfo.deviceId`);
 * `(body)` when it is about the whole object.
 *
 * @example
 * fieldPathOf({ instancePath: "/images/0", keyword: "format", params: { format: "uri" } }); // "images.0"
 */
export function fieldPathOf(e: AjvErrorLike): string {
  const base = e.instancePath.replace(/^\//, "").replace(/\//g, ".");
  const leaf =
    e.keyword === "required"
      ? String(e.params.missingProperty)
      : e.keyword === "additionalProperties"
        ? String(e.params.additionalProperty)
        : "";
  return [base, leaf].filter(Boolean).join(".") || "(body)";
}

/**
 * Turns Ajv errors into `[{ field, message }]`, the field being the property path.
 *
 * @example
 * fieldErrors(validate.errors ?? []); // [{ field: "email", message: "must be a valid email address" }]
 */
export function fieldErrors(errors: readonly AjvErrorLike[]): FieldError[] {
  return errors.map((e) => ({ field: fieldPathOf(e), message: friendlyMessage(e) }));
}
