/**
 * How one submission reads in its drawer: the answers in the form's order (and answers to
 * fields the form no longer has), the tracking parameters in the spec's order, and which
 * addresses may become links. Pure.
 */
import type { FormFieldDef } from "../../../schemas/form-definition";
import { DEFAULT_TRACKING_PARAMETERS } from "../../../schemas/forms";
import { SUBMISSION_KEYS } from "./submissions-definition";

/** Where a submission's respondent first came from, kept by the embed script. */
export interface FirstTouch {
  parameters: Record<string, string>;
  landingPage: string;
  referrer: string;
  at: string;
}

/** A submission's `tracking` (docs/forms-api.md). */
export interface SubmissionTracking {
  parameters: Record<string, string>;
  firstTouch: FirstTouch | null;
  referrer: string;
  landingPage: string;
  userAgent: string;
}

const objectOf = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const textOf = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
const textsOf = (v: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries(objectOf(v))
      .map(([k, value]) => [k, textOf(value)] as const)
      .filter(([, value]) => value !== ""),
  );

/**
 * A row's `tracking`, read defensively (it holds what a visitor's browser sent): text only,
 * empty parameters left out; `null` when the row has none.
 *
 * @example
 * readTracking({ parameters: { utm_source: "news", gclid: "" }, referrer: "https://a.example/" });
 * // { parameters: { utm_source: "news" }, firstTouch: null, referrer: "https://a.example/", landingPage: "", userAgent: "" }
 */
export function readTracking(value: unknown): SubmissionTracking | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const t = objectOf(value);
  const first = objectOf(t.firstTouch);
  return {
    parameters: textsOf(t.parameters),
    firstTouch:
      t.firstTouch && typeof t.firstTouch === "object"
        ? {
            parameters: textsOf(first.parameters),
            landingPage: textOf(first.landingPage),
            referrer: textOf(first.referrer),
            at: textOf(first.at),
          }
        : null,
    referrer: textOf(t.referrer),
    landingPage: textOf(t.landingPage),
    userAgent: textOf(t.userAgent),
  };
}

const DEFAULT_NAMES = DEFAULT_TRACKING_PARAMETERS.map((p) => p.name);

/**
 * Parameters in the order the spec lists them (`utm_source`, `utm_medium`, `utm_campaign`,
 * `utm_term`, `utm_content`), then the custom ones by name.
 *
 * @example
 * orderedParameters({ gclid: "x1", utm_medium: "email", utm_source: "news" });
 * // [["utm_source", "news"], ["utm_medium", "email"], ["gclid", "x1"]]
 */
export function orderedParameters(parameters: Readonly<Record<string, string>>): Array<[string, string]> {
  const rank = (name: string) => {
    const i = DEFAULT_NAMES.indexOf(name);
    return i === -1 ? DEFAULT_NAMES.length : i;
  };
  return Object.entries(parameters).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
}

/** An answer nobody gave: nothing, empty text, no box ticked, no file. */
export const isBlankAnswer = (value: unknown): boolean =>
  value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);

/**
 * Answers of a row to fields the definition does not have (a field removed since, or renamed),
 * by field id: shown apart, so nothing a respondent wrote is hidden.
 *
 * @example
 * otherAnswers({ id: "…", created_at: "…", email: "a@b.c", company: "Acme" }, [{ id: "email", … }]);
 * // [["company", "Acme"]]
 */
export function otherAnswers(
  row: Readonly<Record<string, unknown>>,
  fields: readonly Pick<FormFieldDef, "id">[],
): Array<[string, unknown]> {
  const known = new Set(fields.map((f) => f.id));
  return Object.entries(row).filter(
    ([k, v]) => !known.has(k) && !SUBMISSION_KEYS.has(k) && !isBlankAnswer(v),
  );
}

/**
 * The address as a link target when it is a web address; anything else (a `javascript:` URI a
 * visitor's browser sent) stays text.
 *
 * @example
 * webAddress("https://example.com/?utm_source=x"); // "https://example.com/?utm_source=x"
 * webAddress("javascript:alert(1)"); // null
 */
export function webAddress(text: string): string | null {
  if (!/^https?:\/\//i.test(text)) return null;
  try {
    return new URL(text).href;
  } catch {
    return null;
  }
}

/** An uploaded file of a submission, as its row describes it. */
export interface SubmissionFile {
  token: string;
  name: string;
  url: string;
}

/**
 * The files one submission describes (GET …/submissions/{sid}: `files: [{ id, name, url, … }]`,
 * `id` being the token its file field's answer holds), by token. A file whose address is no
 * web or same-site address is left out.
 *
 * @example
 * submissionFiles({ files: [{ id: "t1", name: "cv.pdf", url: "/assets/forms/t1" }] }).get("t1")?.name; // "cv.pdf"
 */
export function submissionFiles(row: Readonly<Record<string, unknown>>): Map<string, SubmissionFile> {
  const out = new Map<string, SubmissionFile>();
  for (const item of Array.isArray(row.files) ? row.files : []) {
    const f = objectOf(item);
    const token = textOf(f.id);
    const url = textOf(f.url);
    if (!token || !(url.startsWith("/") || webAddress(url))) continue;
    out.set(token, { token, name: textOf(f.name) || token, url });
  }
  return out;
}
