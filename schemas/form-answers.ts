/**
 * A form's answers: which fields show and which are required under the conditional logic, and
 * the check of a submission against the fields. The public renderer runs it as the respondent
 * types and the server runs it again on every submission, the same code on both sides, so a
 * field required only when visible is required only then on both. Pure: no Node, no React.
 */

import { parseDmy } from "../src/lib/dates";
import { plural } from "../src/lib/text";
import { matches } from "./conditions";
import type { FieldError } from "./error-messages";
import { answers, type FormFieldDef, logicFilter } from "./form-definition";

export type Answers = Record<string, unknown>;

/** What the logic makes of each field for the answers given. */
export interface FieldStates {
  visible: Set<string>;
  required: Set<string>;
}

/** The largest number of files one file field takes. */
export const MAX_FILES_PER_FIELD = 5;

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Whether text is an email address (the form's answers and its mail settings alike). */
export const isEmailAddress = (text: string) => text.length <= 320 && EMAIL.test(text);

/**
 * Visibility and requirement of every field. A rule reads the other fields' answers, and the
 * answer of a hidden field counts as empty, whether that field comes before or after it: the
 * states are worked out again with the newly hidden answers left out until nothing changes,
 * so a chain (B shows when A says yes, C when B is filled) hides as a person expects and no
 * answer to a hidden field can change what is shown or required. A page break hidden by its
 * rules hides every field of its page (a skipped page).
 */
export function fieldStates(fields: readonly FormFieldDef[], values: Answers): FieldStates {
  let hidden = new Set<string>();
  for (let round = 0; round <= fields.length; round++) {
    const seen: Answers = Object.create(null);
    for (const [k, v] of Object.entries(values)) if (!hidden.has(k)) seen[k] = v;
    const next = pass(fields, seen);
    const nowHidden = new Set(fields.filter((f) => !next.visible.has(f.id)).map((f) => f.id));
    if (nowHidden.size === hidden.size && [...nowHidden].every((id) => hidden.has(id))) return next;
    hidden = nowHidden;
  }
  return pass(fields, Object.create(null));
}

function pass(fields: readonly FormFieldDef[], seen: Answers): FieldStates {
  const visible = new Set<string>();
  const required = new Set<string>();
  // A page break's rules show or skip its whole page (schemas/form-pages.ts).
  let pageShown = true;
  for (const f of fields) {
    const rules = (f.logic ?? []).filter((r) => r.conditions.length);
    const holds = (action: string) =>
      rules.filter((r) => r.action === action).some((r) => matches(seen, [logicFilter(r)]));
    const shown = (!rules.some((r) => r.action === "show") || holds("show")) && !holds("hide");
    if (f.kind === "page") pageShown = shown;
    if (!shown || !pageShown) continue;
    visible.add(f.id);
    if (answers(f) && (f.required || holds("require"))) required.add(f.id);
  }
  return { visible, required };
}

const isBlank = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  (typeof v === "string" && v.trim() === "") ||
  (Array.isArray(v) && v.every(isBlank));

/** One value: a list of one (a plain form's field) is its item; a longer list is no single value. */
const first = (v: unknown) => (Array.isArray(v) ? (v.length === 1 ? v[0] : undefined) : v);

/** A number as a person writes it: digits, an optional sign and decimals; nothing else. */
const NUMBER = /^-?\d+(\.\d+)?$/;

const TRUE_WORDS = new Set(["true", "on", "yes", "1"]);

/** Reads `D-M-YYYY` (spec §5, src/lib/dates.ts) as `YYYY-MM-DD`, or null when it is no real date. */
export function dmyToIso(input: string): string | null {
  const date = parseDmy(input);
  return date ? date.toISOString().slice(0, 10) : null;
}

/** One field's answer, normalised to what is stored, or the sentence saying what is wrong. */
function checkValue(f: FormFieldDef, raw: unknown): { value?: unknown; problem?: string } {
  const v = f.validation ?? {};
  const text = () => {
    const value = first(raw);
    return typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : undefined;
  };
  switch (f.kind) {
    case "text":
    case "longtext":
    case "email":
    case "phone":
    case "hidden": {
      const value = text();
      if (value === undefined) return { problem: "must be text" };
      const max = v.maxLength ?? (f.kind === "hidden" ? 1000 : undefined);
      if (v.minLength !== undefined && value.length < v.minLength)
        return { problem: `must be at least ${plural(v.minLength, "character")}` };
      if (max !== undefined && value.length > max)
        return { problem: `must be at most ${plural(max, "character")}` };
      if (f.kind === "email" && !isEmailAddress(value)) return { problem: "must be a valid email address" };
      if (v.pattern && !safeTest(v.pattern, value))
        return { problem: f.kind === "phone" ? "must be a phone number" : "is not in the expected format" };
      return { value };
    }
    case "number":
    case "rating": {
      const given = first(raw);
      const written = text();
      const value =
        typeof given === "number"
          ? given
          : written !== undefined && NUMBER.test(written)
            ? Number(written)
            : Number.NaN;
      if (!Number.isFinite(value)) return { problem: "must be a number" };
      if (f.kind === "rating" && !Number.isInteger(value)) return { problem: "must be a whole number" };
      if (v.min !== undefined && value < v.min) return { problem: `must be ${v.min} or more` };
      if (v.max !== undefined && value > v.max) return { problem: `must be ${v.max} or less` };
      return { value };
    }
    case "date": {
      const value = text();
      const iso = value === undefined ? null : dmyToIso(value);
      if (!iso) return { problem: "must be a real date written day-month-year, such as 31-12-2025" };
      return { value: iso };
    }
    case "dropdown":
    case "radio": {
      const value = text();
      const option = (f.options ?? []).find((o) => o.trim() === value);
      if (option === undefined) return { problem: "must be one of its choices" };
      return { value: option };
    }
    case "checkboxes": {
      const list = (Array.isArray(raw) ? raw : [raw]).filter((x) => !isBlank(x));
      const chosen = list.map((x) =>
        typeof x === "string" ? (f.options ?? []).find((o) => o.trim() === x.trim()) : undefined,
      );
      if (chosen.some((o) => o === undefined)) return { problem: "must be among its choices" };
      const value = [...new Set(chosen as string[])];
      if (v.minItems && value.length < v.minItems)
        return { problem: `needs at least ${plural(v.minItems, "choice")}` };
      if (v.maxItems !== undefined && value.length > v.maxItems)
        return { problem: `takes at most ${plural(v.maxItems, "choice")}` };
      return { value };
    }
    case "consent": {
      const value = first(raw);
      const yes = value === true || (typeof value === "string" && TRUE_WORDS.has(value.toLowerCase()));
      return { value: yes };
    }
    case "file": {
      const list = [...new Set((Array.isArray(raw) ? raw : [raw]).filter((x) => !isBlank(x)))];
      if (!list.every((x) => typeof x === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(x)))
        return { problem: "must be uploaded files" };
      if (list.length > MAX_FILES_PER_FIELD)
        return { problem: `takes at most ${plural(MAX_FILES_PER_FIELD, "file")}` };
      return { value: list };
    }
    default:
      return {};
  }
}

/** Tests a builder's pattern; one that does not compile never matches. */
function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, "u").test(value);
  } catch {
    return false;
  }
}

export interface CheckedAnswers {
  /** The answers of visible fields, normalised (dates as `YYYY-MM-DD`, numbers as numbers). */
  values: Answers;
  errors: FieldError[];
}

/**
 * Checks a submission's answers against the fields and their logic. Answers of hidden fields
 * and unknown keys are dropped; an empty optional answer is left out.
 *
 * @example
 * checkAnswers(fields, { email: "nope" }).errors; // [{ field: "email", message: "Email must be a valid email address" }]
 */
export function checkAnswers(fields: readonly FormFieldDef[], raw: Answers): CheckedAnswers {
  const states = fieldStates(fields, raw);
  const values: Answers = {};
  const errors: FieldError[] = [];
  const own = (id: string) => (Object.hasOwn(raw, id) ? raw[id] : undefined);
  for (const f of fields) {
    if (!answers(f) || !states.visible.has(f.id)) continue;
    const given = own(f.id);
    const required = states.required.has(f.id);
    const consentMissing = f.kind === "consent" && checkValue(f, given).value !== true;
    if (isBlank(given) || (Array.isArray(given) && given.every(isBlank)) || (required && consentMissing)) {
      if (required)
        errors.push({
          field: f.id,
          message: f.kind === "consent" ? `"${f.label}" must be ticked` : `${f.label} is required`,
        });
      else if (f.kind === "consent") values[f.id] = false;
      continue;
    }
    const { value, problem } = checkValue(f, given);
    if (problem) errors.push({ field: f.id, message: `${f.label} ${problem}` });
    else if (value !== undefined) values[f.id] = value;
  }
  return { values, errors };
}

/** The answer of a field as text in mails and CSV: lists joined, consent as Yes/No. */
export function answerText(f: Pick<FormFieldDef, "kind">, value: unknown): string {
  if (value === undefined || value === null) return "";
  if (f.kind === "consent") return value ? "Yes" : "No";
  if (Array.isArray(value)) return value.join(", ");
  if (f.kind === "date" && typeof value === "string") {
    const [y, m, d] = value.split("-");
    return `${d}-${m}-${y}`;
  }
  return String(value);
}
