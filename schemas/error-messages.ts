/**
 * Validation messages in a person's words, shared by the server (400 `details`, CSV import
 * reports) and the forms of the SPA, so every side says the same sentence about the same
 * input: the field's title, then what is wrong ("SKU code may only contain letters…").
 * Never a regular expression, never a field key. Pure: no Node, no React.
 */
import { plural } from "../src/lib/text";
import { decimalPlacesOf } from "./decimal";
import { wordsOfKey } from "./key-words";

export { wordsOfKey };

/** A field error as the API sends it in `details` of a 400 answer. */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * The part of an Ajv `ErrorObject` the messages read. `parentSchema` (Ajv's `verbose`
 * option, set in schemas/validator-config.ts and by rjsf) is the schema that failed: it
 * gives the field's title and hints.
 */
export interface AjvErrorLike {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  parentSchema?: unknown;
}

/** What of a schema the messages read. */
interface MessageHints {
  title?: string;
  "x-enumLabels"?: readonly string[];
  /** What a value of a `pattern` field may hold, after its title ("may only contain…"). */
  "x-patternMessage"?: string;
  properties?: Readonly<Record<string, unknown>>;
}

const hintsOf = (schema: unknown): MessageHints =>
  typeof schema === "object" && schema !== null ? (schema as MessageHints) : {};

/** Optional fields accept `null` to clear them; a message lists only the real choices. */
const withoutNull = <T>(values: readonly T[]): T[] => values.filter((v) => v !== null && v !== "null");

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A number as a person writes it (999,999,999.99). */
const amount = (value: unknown) =>
  typeof value === "number" ? value.toLocaleString("en-US", { maximumFractionDigits: 20 }) : String(value);

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

const TYPE_WORDS: Readonly<Record<string, string>> = {
  integer: "a whole number",
  number: "a number",
  string: "text",
  boolean: "true or false",
  array: "a list",
  object: "a set of fields",
};

type Predicate = (e: AjvErrorLike, field: MessageHints) => string;

/** What is wrong, said after the field's title: one entry per Ajv keyword. */
const PREDICATES: Readonly<Record<string, Predicate>> = {
  required: () => "is required",
  additionalProperties: () => "is not a field that can be set here",
  format: (e) => FORMAT_MESSAGES[String(e.params.format)] ?? "is not in the expected format",
  pattern: (_e, field) => field["x-patternMessage"] ?? "is not in the expected format",
  minLength: (e) =>
    e.params.limit === 1
      ? "must not be empty"
      : `must be at least ${plural(Number(e.params.limit), "character")}`,
  maxLength: (e) => `must be at most ${plural(Number(e.params.limit), "character")}`,
  enum: (e, field) => {
    // A label is what the form and a CSV file show; the value is what the API takes.
    const labels = field["x-enumLabels"] ?? [];
    const choices = withoutNull(e.params.allowedValues as unknown[]).map((value, i) => {
      const label = labels[i];
      return label === undefined || label.toLowerCase() === String(value).toLowerCase()
        ? String(value)
        : `${label} (${value})`;
    });
    return `must be one of ${choices.join(", ")}`;
  },
  const: (e) => `must be ${amount(e.params.allowedValue)}`,
  type: (e) => {
    // A nullable field's type is ["string", "null"]; "null" is not worth saying.
    const type = withoutNull(String(e.params.type).split(","))[0];
    return `must be ${TYPE_WORDS[type] ?? "a different kind of value"}`;
  },
  minimum: (e) => `must be ${amount(e.params.limit)} or more`,
  maximum: (e) => `must be ${amount(e.params.limit)} or less`,
  exclusiveMinimum: (e) => `must be more than ${amount(e.params.limit)}`,
  exclusiveMaximum: (e) => `must be less than ${amount(e.params.limit)}`,
  minItems: (e) => `must hold at least ${plural(Number(e.params.limit), "item")}`,
  maxItems: (e) => `must hold at most ${plural(Number(e.params.limit), "item")}`,
  uniqueItems: () => "must not repeat values",
  multipleOf: (e) => {
    const places = decimalPlacesOf(Number(e.params.multipleOf));
    if (places === null) return `must be a multiple of ${amount(e.params.multipleOf)}`;
    return `must have at most ${plural(places, "decimal place")}`;
  },
};

/** A property named by an error's params; rjsf quotes it ('sku_code') while its localizer runs. */
const propertyOf = (value: unknown) => String(value).replace(/^'(.*)'$/, "$1");

/** The path segments of an Ajv error's field (`/images/0` → ["images", "0"]), with the property it names. */
function segmentsOf(e: AjvErrorLike): string[] {
  const base = e.instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (e.keyword === "required") return [...base, propertyOf(e.params.missingProperty)];
  if (e.keyword === "additionalProperties") return [...base, propertyOf(e.params.additionalProperty)];
  return base;
}

/** The schema of the field an error is about (for `required`, the missing property's). */
function fieldSchemaOf(e: AjvErrorLike): MessageHints {
  const parent = hintsOf(e.parentSchema);
  if (e.keyword === "required") return hintsOf(parent.properties?.[propertyOf(e.params.missingProperty)]);
  if (e.keyword === "additionalProperties") return {};
  return parent;
}

/**
 * Who the message is about: the field's title, else its name in words; an item of a list by
 * its place ("Image 2", or "Images item 2" when the items have no title); "The data" for the
 * whole body.
 */
function subjectOf(e: AjvErrorLike, field: MessageHints): string {
  const path = segmentsOf(e);
  const last = path.at(-1);
  if (last === undefined) return "The data";
  if (/^\d+$/.test(last)) {
    const list = path.at(-2);
    return `${field.title ?? `${list === undefined ? "The list" : wordsOfKey(list)} item`} ${Number(last) + 1}`;
  }
  return field.title ?? wordsOfKey(last);
}

/**
 * The sentence for one Ajv error: the field's title (from the failing schema, Ajv's
 * `parentSchema`), then what is wrong. Starts with a capital letter; a `pattern` says the
 * field's `x-patternMessage` instead of the expression.
 *
 * @example
 * validationMessage({ instancePath: "/sku_code", keyword: "pattern", params: {},
 *   parentSchema: { title: "SKU code", "x-patternMessage": "may only contain letters" } });
 * // "SKU code may only contain letters"
 */
export function validationMessage(e: AjvErrorLike): string {
  const field = fieldSchemaOf(e);
  const predicate = PREDICATES[e.keyword]?.(e, field) ?? "is not valid";
  return capitalise(`${subjectOf(e, field)} ${predicate}`);
}

/**
 * The field an Ajv error is about, as a dotted property path (`deviceInfo.deviceId`);
 * `(body)` when it is about the whole object.
 *
 * @example
 * fieldPathOf({ instancePath: "/images/0", keyword: "format", params: { format: "uri" } }); // "images.0"
 */
export function fieldPathOf(e: AjvErrorLike): string {
  return segmentsOf(e).join(".") || "(body)";
}

/**
 * Turns Ajv errors into `[{ field, message }]`: the property path, and the sentence.
 *
 * @example
 * fieldErrors(validate.errors ?? []); // [{ field: "email", message: "Email must be a valid email address" }]
 */
export function fieldErrors(errors: readonly AjvErrorLike[]): FieldError[] {
  return errors.map((e) => ({ field: fieldPathOf(e), message: validationMessage(e) }));
}

/**
 * The headline of a 400 answer whose fields are listed in `details`: the one problem itself,
 * or how many fields need correcting (a toast shows it; the form marks the fields).
 *
 * @example
 * invalidInputMessage([{ field: "price", message: "Price must be a number" }]); // "Price must be a number"
 * invalidInputMessage([a, b, c]); // "3 fields need correcting"
 */
export function invalidInputMessage(details: readonly FieldError[]): string {
  if (details.length === 1) return details[0].message;
  const fields = new Set(details.map((d) => d.field.split(".")[0])).size;
  return fields === 1 ? "One field needs correcting" : `${plural(fields, "field")} need correcting`;
}

/**
 * A field's title as messages say it: the schema's `title`, else its name in words.
 *
 * @example
 * fieldTitle(productSchema, "sku_code"); // "SKU code"
 */
export function fieldTitle(
  schema: { properties: Readonly<Record<string, { title?: string }>> },
  field: string,
) {
  return (
    (Object.hasOwn(schema.properties, field) ? schema.properties[field].title : undefined) ??
    wordsOfKey(field)
  );
}

/** How a message that still needs its subject begins ("is required", "must be…"). */
const PREDICATE_START = /^(is|are|must|has|have|does|do|names|repeats|needs|should)\b/;

/**
 * A field error as a sentence, whatever wrote it: one that begins with its predicate ("is
 * required") gets the field's name in words before it; any other gets a capital letter. The
 * net under every 400 answer, so no module's message reaches a person as a fragment.
 *
 * @example
 * asSentence({ field: "filters.born_on", message: "must be a date" }); // "Born on must be a date"
 * asSentence({ field: "role", message: "you cannot remove your own admin role" }); // "You cannot remove…"
 */
export function asSentence({ field, message }: FieldError): string {
  if (!PREDICATE_START.test(message)) return capitalise(message);
  const name = field
    .split(".")
    .filter((s) => !/^\d+$/.test(s))
    .at(-1);
  return `${name === undefined || name === "(body)" ? "The data" : wordsOfKey(name)} ${message}`;
}
