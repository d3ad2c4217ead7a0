/**
 * A form's submissions as a resource definition, so they get the generated list (columns,
 * filters, search, sort, CSV export, delete, live updates) like any other records: the form's
 * published fields become an EntitySchema, one column per answerable field typed by its kind
 * (but files, which the drawer links), after when it was sent and where it came from (the UTM
 * parameters the server copies out of `tracking`: first, so they are in view at 1440 px
 * whatever the number of answers, each with a filter of its own). Pure.
 */
import type { ResourceDefinition } from "../../../resources/contract";
import { MODULE_IDS } from "../../../resources/modules";
import { auditProperties, type EntitySchema, type FieldSchema } from "../../../schemas/contract";
import { answers, type FormDefinition, type FormFieldDef } from "../../../schemas/form-definition";
import type { FormFieldKind } from "../../../schemas/forms";

/** The Refine resource name of a form's submissions (also their admin API path under /forms). */
export const submissionsResourceName = (formId: string) => `forms/${formId}/submissions`;

/** Tracking values each list row carries flat, beside `tracking` itself, with their column titles. */
export const TRACKING_COLUMNS = [
  { field: "utm_source", title: "UTM source" },
  { field: "utm_medium", title: "UTM medium" },
  { field: "utm_campaign", title: "UTM campaign" },
] as const;

/** Keys of a row that are the submission's own, not answers. */
export const SUBMISSION_KEYS: ReadonlySet<string> = new Set([
  "id",
  "created_at",
  "version",
  "tracking",
  "referrer",
  "files",
  ...TRACKING_COLUMNS.map((c) => c.field),
]);

/** Kinds of free text, which `q` searches (the server searches choices too; they have a select). */
const TEXT_KINDS: ReadonlySet<FormFieldKind> = new Set(["text", "longtext", "email", "phone", "hidden"]);

/** Kinds whose answers are lists: shown, never sorted or filtered. */
const LIST_KINDS: ReadonlySet<FormFieldKind> = new Set(["checkboxes", "file"]);

/** Tracking columns `q` searches besides the text answers (the server's list). */
const SEARCHED_TRACKING: ReadonlySet<string> = new Set(["utm_source", "utm_campaign"]);

/**
 * The JSON Schema of one field's answer, as the server stores it: numbers and ratings as
 * numbers, consent as a boolean, ticked boxes and uploaded files as lists, a date as
 * `YYYY-MM-DD`; a choice as one of the options, so it filters by a select; the rest text.
 *
 * @example
 * answerSchema({ id: "plan", kind: "radio", label: "Plan", options: ["Free", "Pro"], validation: {} });
 * // { type: "string", title: "Plan", readOnly: true, enum: ["Free", "Pro"] }
 */
export function answerSchema(field: FormFieldDef): FieldSchema {
  const base = { title: field.label.trim() || field.id, readOnly: true } as const;
  switch (field.kind) {
    case "number":
    case "rating":
      return { ...base, type: "number" };
    case "consent":
      return { ...base, type: "boolean" };
    case "checkboxes":
    case "file":
      return { ...base, type: "array", items: { type: "string" } };
    case "date":
      return { ...base, type: "string", format: "date" };
    case "email":
      return { ...base, type: "string", format: "email" };
    case "longtext":
      return { ...base, type: "string", "x-multiline": true };
    case "dropdown":
    case "radio": {
      const options = [...new Set(field.options ?? [])];
      return options.length ? { ...base, type: "string", enum: options } : { ...base, type: "string" };
    }
    default:
      return { ...base, type: "string" };
  }
}

/** The fields of a definition that hold an answer, in the form's order. */
export const answerFields = (definition: Pick<FormDefinition, "fields">): FormFieldDef[] =>
  definition.fields.filter(answers);

/**
 * The resource definition of a form's submissions, over the definition the public answers
 * (the published one; the draft for a form never published). No create or edit: a submission
 * is the respondent's words. A field named like a tracking column (`utm_source`) is that column.
 *
 * @example
 * submissionsDefinition("0b7c…", definition).schema["x-list"];
 * // ["created_at", "utm_source", "utm_medium", "utm_campaign", "email", "plan"]
 */
export function submissionsDefinition(
  formId: string,
  definition: Pick<FormDefinition, "fields">,
): ResourceDefinition {
  // The rows' flat tracking values win over an answer of the same name (the server's rule).
  const fields = answerFields(definition).filter((f) => !SUBMISSION_KEYS.has(f.id));
  const tracking = TRACKING_COLUMNS;
  const properties: Record<string, FieldSchema> = {
    id: auditProperties.id,
    created_at: { ...auditProperties.created_at, title: "Submitted" },
  };
  for (const f of fields) properties[f.id] = answerSchema(f);
  for (const c of tracking) properties[c.field] = { type: "string", title: c.title, readOnly: true };
  const schema: EntitySchema = {
    $id: `form-submissions:${formId}`,
    title: "Submission",
    type: "object",
    additionalProperties: false,
    "x-table": "form_submissions",
    "x-label": "created_at",
    "x-defaultSort": "-created_at",
    // A file answer is a list of tokens, which say nothing in a cell: the drawer links the files.
    "x-list": [
      "created_at",
      ...tracking.map((c) => c.field),
      ...fields.filter((f) => f.kind !== "file").map((f) => f.id),
    ],
    "x-searchable": [
      ...fields.filter((f) => TEXT_KINDS.has(f.kind)).map((f) => f.id),
      ...tracking.filter((c) => SEARCHED_TRACKING.has(c.field)).map((c) => c.field),
    ],
    // Sorted and filtered by: every answer but lists, and the tracking columns.
    "x-filterable": [
      "created_at",
      ...fields.filter((f) => !LIST_KINDS.has(f.kind)).map((f) => f.id),
      ...tracking.map((c) => c.field),
    ],
    required: [],
    properties,
  };
  return {
    name: submissionsResourceName(formId),
    schema,
    moduleID: MODULE_IDS.forms,
    base: "forms",
    label: "Submissions",
    singular: "Submission",
    icon: "InboxOutlined",
    columnWidths: { created_at: 170, ...Object.fromEntries(tracking.map((c) => [c.field, 140])) },
    // The three UTM columns filter alike, though `q` searches two of them.
    textFilters: tracking.map((c) => c.field),
    routes: { create: false, edit: false },
    csv: "export",
  };
}
