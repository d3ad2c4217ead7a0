/**
 * The builder's rules for one field, as pure functions: a new field of a kind, whether its id
 * may still change, what is wrong with it (keyed by the path under `fields.N.` that the
 * server's 400 `details` use, so both kinds of message land on the same input), and which
 * condition operators a logic rule offers over another field's answer.
 */
import { type Operator, TEXT_CONDITION_LABELS } from "../../../schemas/conditions";
import {
  answers,
  FIELD_ID_PATTERN,
  type FieldLogic,
  type FormFieldDef,
  fieldIdFrom,
  hasOptions,
} from "../../../schemas/form-definition";
import { nestedRepeat, RESERVED_FIELD_IDS } from "../../../schemas/form-definition-checks";
import { FORM_FIELD_LABELS, type FormFieldKind } from "../../../schemas/forms";
import { newField } from "./builder-state";

const FIELD_ID = new RegExp(FIELD_ID_PATTERN);

/** The palette's sections, every kind in one of them. */
export const PALETTE_GROUPS: ReadonlyArray<{ title: string; kinds: readonly FormFieldKind[] }> = [
  { title: "Text and numbers", kinds: ["text", "longtext", "email", "phone", "number", "date"] },
  { title: "Choices", kinds: ["dropdown", "radio", "checkboxes", "consent", "rating"] },
  { title: "More", kinds: ["file", "hidden", "heading", "page"] },
];

/** What a new field of each kind is called until the admin names it. */
const NEW_LABELS: Partial<Record<FormFieldKind, string>> = {
  consent: "I agree to be contacted",
  heading: "Section title",
  page: "Next page",
  hidden: "Campaign",
  rating: "How would you rate us?",
};

/**
 * A field of `kind` as the palette adds it: a label, an id from that label free among
 * `taken`, the kind's validation, and two options for a choice.
 *
 * @example
 * createField("email", ["email"]); // { id: "email_2", kind: "email", label: "Email", validation: { maxLength: 320 } }
 */
export function createField(kind: FormFieldKind, taken: Iterable<string>): FormFieldDef {
  const label = NEW_LABELS[kind] ?? FORM_FIELD_LABELS[kind];
  const field = newField(kind, fieldIdFrom(label, [...taken, ...RESERVED_FIELD_IDS]), label);
  return hasOptions(kind) ? { ...field, options: ["Option 1", "Option 2"] } : field;
}

/**
 * The id a label change gives a field whose id was never typed by hand (it still reads as
 * its old label), or undefined when the id stays.
 */
export function followLabel(
  field: FormFieldDef,
  label: string,
  taken: readonly string[],
): string | undefined {
  const others = [...taken, ...RESERVED_FIELD_IDS];
  if (field.id !== fieldIdFrom(field.label, others)) return undefined;
  const next = fieldIdFrom(label, others);
  return next === field.id ? undefined : next;
}

/** Problems of one field, by path under `fields.N.` ("label", "validation.max", "logic.0.conditions.1.value"). */
export type FieldProblems = Record<string, string>;

export interface FieldContext {
  /** The form's fields (the one checked included, at its saved place). */
  fields: readonly FormFieldDef[];
  /** Its index among them, or -1 while it is not in the list yet. */
  index: number;
}

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/**
 * What is wrong with a pattern, if anything: it must compile (as the server and the public form
 * run it: with the `u` flag) and must not repeat a group that repeats inside, which can take
 * exponential time on a crafted answer (the server refuses those too).
 */
export function patternError(pattern: string): string | undefined {
  try {
    new RegExp(pattern, "u");
  } catch (error) {
    return `Not a valid pattern: ${(error as Error).message.replace(/^Invalid regular expression: /, "")}`;
  }
  if (nestedRepeat(pattern))
    return "Repeats a group that repeats inside, like (a+)+, which can take too long to check: write it without the nesting";
  return undefined;
}

function idProblem(field: FormFieldDef, { fields, index }: FieldContext): string | undefined {
  if (!field.id) return "Give the field an id";
  if (!FIELD_ID.test(field.id))
    return "Use lower-case letters, digits and _, starting with a letter (at most 63 characters)";
  if (RESERVED_FIELD_IDS.includes(field.id))
    return `“${field.id}” is kept for the submissions list: choose another id`;
  if (fields.some((f, i) => i !== index && f.id === field.id))
    return `Another field already has the id “${field.id}”`;
  return undefined;
}

function rangeProblems(
  problems: FieldProblems,
  min: number | undefined,
  max: number | undefined,
  key: string,
) {
  if (min !== undefined && max !== undefined && min > max)
    problems[`validation.${key}`] = "Must not be below the minimum";
}

function optionProblems(field: FormFieldDef, problems: FieldProblems) {
  const options = field.options ?? [];
  if (!options.length) problems.options = "Add at least one option";
  const seen = new Set<string>();
  options.forEach((option, i) => {
    const text = option.trim();
    if (!text) problems[`options.${i}`] = `Option ${i + 1} is empty`;
    else if (seen.has(text)) problems[`options.${i}`] = `“${text}” is listed twice`;
    seen.add(text);
  });
}

function validationProblems(field: FormFieldDef, problems: FieldProblems) {
  const v = field.validation ?? {};
  rangeProblems(problems, v.minLength, v.maxLength, "maxLength");
  rangeProblems(problems, v.min, v.max, "max");
  rangeProblems(problems, v.minItems, v.maxItems, "maxItems");
  if (v.pattern) {
    const error = patternError(v.pattern);
    if (error) problems["validation.pattern"] = error;
  }
  if (field.kind === "file" && v.maxSizeMb !== undefined && v.maxSizeMb <= 0)
    problems["validation.maxSizeMb"] = "Must be more than 0";
  const count = field.options?.length ?? 0;
  if (field.kind === "checkboxes" && v.minItems !== undefined && v.minItems > count)
    problems["validation.minItems"] = `There are only ${count} options`;
}

function logicProblems(field: FormFieldDef, { fields }: FieldContext, problems: FieldProblems) {
  (field.logic ?? []).forEach((rule: FieldLogic, r) => {
    if (!rule.conditions.length) problems[`logic.${r}`] = "Add a condition, or remove the rule";
    rule.conditions.forEach((c, n) => {
      const at = `logic.${r}.conditions.${n}`;
      const source = fields.find((f) => f.id === c.field && f.id !== field.id && answers(f));
      if (!c.field) problems[`${at}.field`] = "Choose a field";
      else if (!source) problems[`${at}.field`] = `“${c.field}” is no longer a field of the form`;
      else if (!operatorsFor(source.kind).some(([op]) => op === c.operator))
        problems[`${at}.operator`] = "Choose a condition";
      else if (needsValue(c.operator) && source.kind !== "consent" && isBlank(c.value))
        problems[`${at}.value`] = "Give a value";
    });
  });
}

/**
 * What is wrong with a field, by path; empty when it can be applied.
 *
 * @example
 * fieldProblems({ ...field, id: "version" }, ctx); // { id: "“version” is taken by every submission: …" }
 */
export function fieldProblems(field: FormFieldDef, ctx: FieldContext): FieldProblems {
  const problems: FieldProblems = {};
  if (isBlank(field.label))
    problems.label =
      field.kind === "heading"
        ? "Give the section a title"
        : field.kind === "page"
          ? "Give the page a title"
          : "Give the field a label";
  const id = idProblem(field, ctx);
  if (id) problems.id = id;
  if (hasOptions(field.kind)) optionProblems(field, problems);
  validationProblems(field, problems);
  logicProblems(field, ctx, problems);
  return problems;
}

/** The field as it is stored: options only on a choice, a default value only on a hidden field. */
export function cleanField(field: FormFieldDef): FormFieldDef {
  const { options, defaultValue, placeholder, help, logic, ...rest } = field;
  return {
    ...rest,
    label: field.label.trim(),
    ...(placeholder?.trim() ? { placeholder: placeholder.trim() } : {}),
    ...(help?.trim() ? { help: help.trim() } : {}),
    ...(hasOptions(field.kind) ? { options: (options ?? []).map((o) => o.trim()) } : {}),
    ...(field.kind === "hidden" && defaultValue ? { defaultValue } : {}),
    ...(logic?.length ? { logic } : {}),
  };
}

/** Operators with their labels, as a logic rule offers them over an answer. */
export type OperatorChoice = readonly [Operator, string];

const EMPTY: OperatorChoice[] = [
  ["null", "is empty"],
  ["nnull", "is not empty"],
];
const NUMBER: OperatorChoice[] = [
  ["eq", "is"],
  ["ne", "is not"],
  ["gt", "is greater than"],
  ["lt", "is less than"],
  ["gte", "is at least"],
  ["lte", "is at most"],
  ...EMPTY,
];

/**
 * The conditions a rule may put on an answer of this kind: the spec's text conditions for
 * text, comparisons for numbers and ratings, is / is not one of the options for a choice
 * (includes / does not include for checkboxes), ticked or not for consent, and empty or not
 * for the rest. All are operators of the one condition language (schemas/conditions.ts).
 */
export function operatorsFor(kind: FormFieldKind): readonly OperatorChoice[] {
  switch (kind) {
    case "text":
    case "longtext":
    case "email":
    case "phone":
    case "hidden":
      return TEXT_CONDITION_LABELS;
    case "number":
    case "rating":
      return NUMBER;
    case "dropdown":
    case "radio":
      return [["eq", "is"], ["ne", "is not"], ...EMPTY];
    case "checkboxes":
      return [
        ["eq", "includes"],
        ["ne", "does not include"],
        ["null", "has none ticked"],
        ["nnull", "has some ticked"],
      ];
    case "consent":
      return [
        ["eq", "is ticked"],
        ["ne", "is not ticked"],
      ];
    default:
      return EMPTY;
  }
}

/** Whether a condition with this operator compares with a value (empty tests do not). */
export const needsValue = (operator: string) => operator !== "null" && operator !== "nnull";
