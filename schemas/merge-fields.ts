/**
 * Merge fields of CRM messages (issue 16): `{{client.name}}` in an email's subject and body, an
 * SMS, a sequence step's template, filled from the client and the sending user when the message
 * is sent. One renderer for every channel, pure so the server and the SPA read a template alike.
 *
 * A field is `{{ group.key }}`, optionally with a fallback for an empty value:
 * `Hello {{client.first_name | there}}`. Any `{{word}}` or `{{word.word}}` is a merge field: one
 * the message cannot fill is reported (a typo must not reach a client as `{{clinet.name}}`).
 */
import type { EntitySchema } from "./contract";

/** A field the compose dialogs offer in their "Insert field" menu. */
export interface MergeField {
  key: string;
  label: string;
}

export const CLIENT_MERGE_FIELDS: readonly MergeField[] = [
  { key: "client.name", label: "Client's name" },
  { key: "client.first_name", label: "Client's first name" },
  { key: "client.last_name", label: "Client's last name" },
  { key: "client.company", label: "Company" },
  { key: "client.email", label: "Client's email" },
  { key: "client.phone", label: "Client's phone" },
  { key: "client.job_title", label: "Job title" },
];

export const USER_MERGE_FIELDS: readonly MergeField[] = [
  { key: "user.name", label: "Your name" },
  { key: "user.first_name", label: "Your first name" },
  { key: "user.email", label: "Your email" },
];

/** What fills a template: each known field's text, or null when the record has no value. */
export type MergeValues = Readonly<Record<string, string | null>>;

/** The client's fields a template may use (a custom field's value under its key). */
export interface MergeClient {
  name: string;
  email?: string | null;
  phone?: string | null;
  company?: string | null;
  job_title?: string | null;
  custom?: Readonly<Record<string, unknown>> | null;
}

export interface MergeUser {
  first_name: string;
  last_name: string;
  email: string;
}

// `{{ key }}` or `{{ key | fallback }}`; keys are dotted words. The fallback holds no braces.
// After the first word a part may hold dashes or be an index: an automation's
// `{{steps.check-score.items.0}}` names a step by its id.
const FIELD = /\{\{\s*([A-Za-z_]\w*(?:\.[A-Za-z0-9_][\w-]*)*)\s*(?:\|([^{}]*))?\}\}/g;

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text as HTML character data or attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * The merge fields a template uses, each once, in order of first use.
 *
 * @example
 * mergeFieldsIn("Hi {{client.first_name}}, {{ user.name }} here"); // ["client.first_name", "user.name"]
 */
export function mergeFieldsIn(template: string): string[] {
  return [...new Set(Array.from(template.matchAll(FIELD), (m) => m[1]))];
}

/** The fields of a template that `values` cannot fill (unknown to it), each once. */
export function unknownMergeFields(template: string, values: MergeValues): string[] {
  return mergeFieldsIn(template).filter((key) => !Object.hasOwn(values, key));
}

/**
 * Fills a template's merge fields. An empty value gives the field's fallback, else nothing;
 * an unknown field is left as written (check with `unknownMergeFields` first). With `html`,
 * values are escaped: a client named `<b>Ann</b>` cannot add markup to an email.
 *
 * @example
 * renderMergeFields("Dear {{client.first_name | customer}}", { "client.first_name": null }); // "Dear customer"
 */
export function renderMergeFields(
  template: string,
  values: MergeValues,
  options: { html?: boolean } = {},
): string {
  return template.replace(FIELD, (whole, key: string, fallback: string | undefined) => {
    if (!Object.hasOwn(values, key)) return whole;
    const value = values[key];
    // A fallback typed in the rich-text editor is HTML already (`&amp;`): kept as written.
    if (value === null || value === "") return fallback?.trim() ?? "";
    return options.html ? escapeHtml(value) : value;
  });
}

/** A custom field's value as text: lists joined, yes/no for booleans, nothing for empty. */
function customText(value: unknown): string | null {
  if (value === null || value === undefined || value === "") return null;
  if (Array.isArray(value)) return value.length ? value.map(String).join(", ") : null;
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "object") return null;
  return String(value);
}

/**
 * The values a message to `client` from `user` is filled with: the standard fields, and
 * `client.<key>` for each custom field (`customKeys`: the defined ones, so a client without a
 * value still knows the field; the keys of `client.custom` are added). A custom field never
 * hides a standard one of the same name.
 */
export function mergeValuesOf(
  client: MergeClient,
  user: MergeUser | null,
  customKeys: readonly string[] = [],
): Record<string, string | null> {
  const name = client.name.trim();
  const space = name.indexOf(" ");
  const values: Record<string, string | null> = {};
  const custom = client.custom ?? {};
  for (const key of new Set([...customKeys, ...Object.keys(custom)])) {
    values[`client.${key}`] = customText(custom[key]);
  }
  Object.assign(values, {
    "client.name": name,
    "client.first_name": space === -1 ? name : name.slice(0, space),
    "client.last_name": space === -1 ? null : name.slice(space + 1).trim() || null,
    "client.company": client.company ?? null,
    "client.email": client.email ?? null,
    "client.phone": client.phone ?? null,
    "client.job_title": client.job_title ?? null,
  });
  if (user) {
    Object.assign(values, {
      "user.name": `${user.first_name} ${user.last_name}`.trim(),
      "user.first_name": user.first_name,
      "user.email": user.email,
    });
  }
  return values;
}

/** `{{key}}`, as a field is written in a template (the insert menus write this). */
export const mergeFieldToken = (key: string) => `{{${key}}}`;

/**
 * The merge fields of a client schema's custom fields (`x-customFields`, with their titles), for
 * the insert menus: what admins defined, whether or not this client has a value.
 *
 * @example
 * customMergeFields(withCustomFields(clientSchema, fields)); // [{ key: "client.plan", label: "Plan" }]
 */
export function customMergeFields(schema: Pick<EntitySchema, "properties" | "x-customFields">): MergeField[] {
  return (schema["x-customFields"] ?? []).map((key) => ({
    key: `client.${key}`,
    label: schema.properties[key]?.title ?? key.replaceAll("_", " "),
  }));
}
