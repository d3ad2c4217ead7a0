/**
 * Errors on the generated forms: the server's per-field messages as rjsf `extraErrors`, and
 * item errors of lists drawn by one widget lifted onto the list's field. Pure.
 */
import type { ErrorSchema, RJSFValidationError, UiSchema } from "@rjsf/utils";
import { baseType, type EntitySchema } from "../../schemas/contract";

/**
 * Per-field errors as Refine's `HttpError.errors` carries them: a message, several, or
 * `{ key, message }` (the data provider puts the API's `details` there).
 */
export type ServerFieldErrors = Readonly<Record<string, unknown>>;

function messagesOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(messagesOf);
  if (typeof value === "object" && value !== null && "message" in value && typeof value.message === "string")
    return [value.message];
  return [];
}

/**
 * Array fields drawn by one custom widget (media lists): the widget shows the field's own
 * errors only, so errors of its items are lifted onto the field.
 */
export function liftedArrayFields(schema: EntitySchema, uiSchema: UiSchema): string[] {
  return Object.entries(schema.properties)
    .filter(
      ([name, f]) =>
        baseType(f) === "array" && !f.readOnly && (uiSchema[name] as UiSchema | undefined)?.["ui:widget"],
    )
    .map(([name]) => name);
}

/**
 * The array field an item's path is lifted onto: `images.1` → "images"; undefined when the
 * path is not inside a lifted field. The message already names the item ("Image 2 must…").
 */
function liftedField(path: string, lifted: readonly string[]): string | undefined {
  const match = /^\.?([^.]+)\.\d+/.exec(path);
  return match && lifted.includes(match[1]) ? match[1] : undefined;
}

/** rjsf's `transformErrors`: item errors of lifted fields move onto the field. */
export function liftItemErrors(
  errors: RJSFValidationError[],
  lifted: readonly string[],
): RJSFValidationError[] {
  return errors.map((e) => {
    const field = liftedField(e.property ?? "", lifted);
    return field ? { ...e, property: `.${field}` } : e;
  });
}

/**
 * The server's per-field messages (`{ "sku_code": "SKU code is already in use" }`) as an rjsf
 * error schema, to show on the fields as `extraErrors`; dotted paths nest, items of lifted
 * fields land on the field.
 */
export function toErrorSchema(
  errors: ServerFieldErrors | undefined,
  lifted: readonly string[] = [],
): ErrorSchema {
  const schema: Record<string, unknown> = {};
  for (const [rawPath, raw] of Object.entries(errors ?? {})) {
    const path = liftedField(rawPath, lifted) ?? rawPath;
    const messages = messagesOf(raw);
    if (messages.length === 0) continue;
    let node = schema;
    for (const key of path.split(".")) {
      node[key] ??= {};
      node = node[key] as Record<string, unknown>;
    }
    node.__errors = [...((node.__errors as string[] | undefined) ?? []), ...messages];
  }
  return schema as ErrorSchema;
}

/** The error schema without one field's entry: its message goes once the user edits it. */
export function withoutFieldErrors(errors: ErrorSchema, fields: readonly string[]): ErrorSchema {
  const out = { ...(errors as Record<string, unknown>) };
  for (const field of fields) delete out[field];
  return out as ErrorSchema;
}
