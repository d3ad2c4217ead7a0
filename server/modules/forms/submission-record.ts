/**
 * A form submission as its admins read it: the answers' JSON types for filters, the tracking
 * values listed as columns, the list options over a definition's fields, and a stored row as
 * the list and the API answer it.
 */

import { sql } from "kysely";
import { answers, type FormDefinition, type FormFieldDef } from "../../../schemas/form-definition";
import { instantText } from "../../db/instants";
import { type JsonField, jsonListFields } from "../../entities/jsonb-fields";
import type { ListOptions } from "../../http/list-query";

/** Tracking values listed as columns of their own. */
export const TRACKING_COLUMNS = ["utm_source", "utm_medium", "utm_campaign", "referrer"] as const;
/** How a field's answer compares in filters: its JSON type (schemas/form-answers.ts stores these). */
export function answerSchema(f: Pick<FormFieldDef, "kind">): JsonField {
  switch (f.kind) {
    case "number":
    case "rating":
      return { type: "number" };
    case "consent":
      return { type: "boolean" };
    case "date":
      return { type: "string", format: "date" };
    case "checkboxes":
    case "file":
      return { type: "array" };
    default:
      return { type: "string" };
  }
}

/**
 * An instant as ISO 8601 text: a Date, or PostgreSQL's text when the list's statement reads
 * instants so (server/db/prepared.ts `instantsAsText`: no Date made per row only to be written).
 */
const instantOf = (value: unknown): string =>
  value instanceof Date
    ? value.toISOString()
    : typeof value === "string" && value.charCodeAt(10) === 32
      ? String(instantText(value))
      : new Date(value as string).toISOString();

export const parse = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T;

// biome-ignore lint/suspicious/noExplicitAny: a form_submissions row.
export function toSubmission(row: any) {
  const answersOf = parse<Record<string, unknown>>(row.answers);
  const tracking = parse<Record<string, unknown> & { parameters?: Record<string, string> }>(row.tracking);
  return {
    id: row.id as string,
    created_at: instantOf(row.created_at),
    version: row.version as number,
    ...answersOf,
    utm_source: tracking.parameters?.utm_source ?? "",
    utm_medium: tracking.parameters?.utm_medium ?? "",
    utm_campaign: tracking.parameters?.utm_campaign ?? "",
    referrer: (tracking.referrer as string) ?? "",
    tracking,
  };
}

/** What a definition's list reads: its answer fields and the list options over them. */
interface ListShape {
  fields: FormFieldDef[];
  options: ListOptions;
}

/**
 * List shapes by definition object (a changed form is a new object): the same options object
 * on every request of a form also keeps its list queries' readings (list-query.ts).
 */
const listShapes = new WeakMap<FormDefinition, ListShape>();
const noDefinition = buildListShape(null);

export function listShapeOf(def: FormDefinition | null): ListShape {
  if (def === null) return noDefinition;
  let shape = listShapes.get(def);
  if (!shape) {
    shape = buildListShape(def);
    listShapes.set(def, shape);
  }
  return shape;
}

function buildListShape(def: FormDefinition | null): ListShape {
  const fields = (def?.fields ?? []).filter(answers);
  const schemas = Object.fromEntries(fields.map((f) => [f.id, answerSchema(f)]));
  const json = jsonListFields("t.answers", schemas, Object.keys(schemas));
  const tracking = Object.fromEntries(
    TRACKING_COLUMNS.map((c) => [
      c,
      c === "referrer" ? sql`(t.tracking ->> 'referrer')` : sql`(t.tracking -> 'parameters' ->> ${c})`,
    ]),
  );
  const text = fields.filter((f) => json.filterFields[f.id] === "string").map((f) => f.id);
  return {
    fields,
    options: {
      table: "t",
      defaultSort: "-created_at",
      sortFields: [...Object.keys(json.filterFields), ...TRACKING_COLUMNS, "created_at"],
      filterFields: {
        ...json.filterFields,
        ...Object.fromEntries(TRACKING_COLUMNS.map((c) => [c, "string" as const])),
        created_at: "date",
        version: "integer",
        id: "uuid",
      },
      expressions: { ...json.expressions, ...tracking },
      search: [...text, "utm_source", "utm_campaign"],
    },
  };
}
