/**
 * A form submission as its admins read it: the answers' JSON types for filters, the tracking
 * values listed as columns, and a stored row as the list and the API answer it.
 */

import type { FormFieldDef } from "../../../schemas/form-definition";
import { instantText } from "../../db/instants";
import type { JsonField } from "../../entities/jsonb-fields";

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
