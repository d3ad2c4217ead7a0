/**
 * The checks of a form definition a JSON Schema cannot say (ids unique, conditions naming fields
 * that exist, every mail address real, patterns safe to run, forms someone can actually send),
 * shared with the builder so it can say the same before saving. Pure.
 */
import type { FieldError } from "./error-messages";
import { isEmailAddress } from "./form-answers";
import { answers, type FormDefinition, hasOptions } from "./form-definition";
import { pageProblems } from "./form-pages";
import { DEFAULT_TRACKING_PARAMETERS, type FormFieldKind } from "./forms";

/** Field ids the submissions list uses for its own columns. */
export const RESERVED_FIELD_IDS = [
  "id",
  "created_at",
  "version",
  "tracking",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "referrer",
];

/**
 * A pattern with a repeated group that repeats inside (`(a+)+`, `(\w*x?)*`, `(a|aa){2,}`) can
 * take exponential time on a crafted answer, and the server checks every answer with it: such
 * patterns are refused (a safe one can always be written without the nesting).
 */
export function nestedRepeat(pattern: string): boolean {
  // Per open group: whether something inside it repeats (or alternates).
  const stack: boolean[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "[") {
      while (i < pattern.length && pattern[i] !== "]") i += pattern[i] === "\\" ? 2 : 1;
      continue;
    }
    if (c === "(") stack.push(false);
    else if (c === ")") {
      const inner = stack.pop() ?? false;
      const next = pattern[i + 1];
      const quantified = next === "*" || next === "+" || next === "{" || next === "?";
      if (inner && quantified && next !== "?") return true;
      if (stack.length) stack[stack.length - 1] ||= inner || quantified;
    } else if ((c === "*" || c === "+" || c === "{") && stack.length) stack[stack.length - 1] = true;
    else if (c === "|" && stack.length) stack[stack.length - 1] = true;
  }
  return false;
}

const compiles = (pattern: string) => {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
};

/**
 * What the schema cannot check. Paths as the API's `details` say them (`fields.2.id`).
 *
 * @example
 * definitionProblems({ fields: [a, { ...a }], settings }); // [{ field: "fields.1.id", message: "Field ID … is used twice" }]
 */
export function definitionProblems(def: FormDefinition): FieldError[] {
  const problems: FieldError[] = [];
  const ids = new Map<string, number>();
  def.fields.forEach((f, i) => {
    const at = `fields.${i}`;
    if (RESERVED_FIELD_IDS.includes(f.id) || f.id in Object.prototype)
      problems.push({
        field: `${at}.id`,
        message: `Field ID "${f.id}" is kept for the submissions list; choose another`,
      });
    else if (ids.has(f.id)) problems.push({ field: `${at}.id`, message: `Field ID "${f.id}" is used twice` });
    ids.set(f.id, i);
    if (!f.label.trim())
      problems.push({ field: `${at}.label`, message: "Label needs words, not only spaces" });
    if (hasOptions(f.kind)) {
      const options = f.options ?? [];
      if (!options.length)
        problems.push({ field: `${at}.options`, message: `${f.label} needs at least one option` });
      if (new Set(options.map((o) => o.trim())).size !== options.length || options.some((o) => !o.trim()))
        problems.push({
          field: `${at}.options`,
          message: `${f.label} has the same option twice, or an empty one`,
        });
    }
    if (f.kind === "hidden" && f.required && !f.defaultValue)
      problems.push({
        field: `${at}.required`,
        message: `${f.label} is hidden from respondents: it can be required only with a default value`,
      });
    if (f.kind === "checkboxes" && f.validation.minItems) {
      const most = Math.min(f.options?.length ?? 0, f.validation.maxItems ?? Number.POSITIVE_INFINITY);
      if (f.validation.minItems > most)
        problems.push({
          field: `${at}.validation.minItems`,
          message: `${f.label} asks for more choices than it offers or allows`,
        });
    }
    const v = f.validation;
    if (v.pattern && !compiles(v.pattern))
      problems.push({
        field: `${at}.validation.pattern`,
        message: `Pattern of ${f.label} is not a valid expression`,
      });
    else if (v.pattern && nestedRepeat(v.pattern))
      problems.push({
        field: `${at}.validation.pattern`,
        message: `Pattern of ${f.label} repeats a group that repeats inside, which can take too long to check; write it without the nesting`,
      });
    if (v.minLength !== undefined && v.maxLength !== undefined && v.minLength > v.maxLength)
      problems.push({
        field: `${at}.validation.maxLength`,
        message: `Maximum length of ${f.label} is below its minimum`,
      });
    if (v.min !== undefined && v.max !== undefined && v.min > v.max)
      problems.push({ field: `${at}.validation.max`, message: `Maximum of ${f.label} is below its minimum` });
  });
  def.fields.forEach((f, i) => {
    (f.logic ?? []).forEach((rule, r) => {
      rule.conditions.forEach((c, k) => {
        const target = ids.get(c.field);
        const path = `fields.${i}.logic.${r}.conditions.${k}.field`;
        if (target === undefined || !answers(def.fields[target]))
          problems.push({
            field: path,
            message: `A condition of ${f.label} names a field that is not in the form`,
          });
        else if (c.field === f.id)
          problems.push({ field: path, message: `A condition of ${f.label} names the field itself` });
      });
    });
  });
  const cycle = showCycle(def);
  if (cycle)
    problems.push({
      field: `fields.${ids.get(cycle[0])}.logic`,
      message: `Fields ${cycle.join(" and ")} each wait on the other to show, so neither ever shows`,
    });
  problems.push(...pageProblems(def));
  const mail = def.settings.mail;
  for (const list of ["Destination", "sendCc", "sendBcc"] as const)
    mail[list].forEach((address, i) => {
      if (!isEmailAddress(address.trim()))
        problems.push({
          field: `settings.mail.${list}.${i}`,
          message: `"${address}" is not an email address`,
        });
    });
  if (mail.isEmail && !mail.Destination.length)
    problems.push({
      field: "settings.mail.Destination",
      message: "Destination needs at least one address to send to",
    });
  const replyTo = mail.replyToField ? def.fields[ids.get(mail.replyToField) ?? -1] : undefined;
  if (mail.replyToField && replyTo?.kind !== "email")
    problems.push({
      field: "settings.mail.replyToField",
      message: "Reply-To field must be an email field of the form",
    });
  if (mail.confirmation?.enabled && !mail.replyToField)
    problems.push({
      field: "settings.mail.confirmation.enabled",
      message: "A confirmation mail needs the Reply-To field, to know where to send it",
    });
  const crm = def.settings.crm;
  const kinds: Record<string, FormFieldKind> = { emailField: "email", phoneField: "phone" };
  for (const key of ["emailField", "nameField", "phoneField", "companyField"] as const) {
    const id = crm?.[key];
    if (!id) continue;
    const field = def.fields[ids.get(id) ?? -1];
    const wanted = kinds[key];
    if (
      !field ||
      (wanted && field.kind !== wanted) ||
      (!wanted && !["text", "hidden", "dropdown"].includes(field.kind))
    )
      problems.push({
        field: `settings.crm.${key}`,
        message: wanted
          ? `Choose ${wanted === "email" ? "an email" : "a phone"} field of the form`
          : "Choose a short text, hidden or dropdown field of the form",
      });
  }
  const utm = def.settings.utm;
  const defaults = new Set(DEFAULT_TRACKING_PARAMETERS.map((p) => p.name));
  const standard = utm.defaultParameters.map((p) => `${p.id}:${p.name}:${p.type}`).join();
  if (standard !== DEFAULT_TRACKING_PARAMETERS.map((p) => `${p.id}:${p.name}:${p.type}`).join())
    problems.push({
      field: "settings.utm.defaultParameters",
      message:
        "Default parameters must be utm_source, utm_medium, utm_campaign, utm_term and utm_content (ids 1 to 5, type 0)",
    });
  const names = new Set<string>();
  utm.customParameters.forEach((p, i) => {
    if (defaults.has(p.name))
      problems.push({
        field: `settings.utm.customParameters.${i}.name`,
        message: `${p.name} is a default parameter already`,
      });
    else if (names.has(p.name))
      problems.push({
        field: `settings.utm.customParameters.${i}.name`,
        message: `Parameter ${p.name} is there twice`,
      });
    names.add(p.name);
  });
  return problems;
}

/**
 * Two or more fields whose showing waits on each other (A shows when B is answered, B when A
 * is): none of them can ever show. Answers the ids of one such loop, or null.
 */
function showCycle(def: FormDefinition): string[] | null {
  const waitsOn = new Map(
    def.fields.map((f) => [
      f.id,
      (f.logic ?? []).filter((r) => r.action === "show").flatMap((r) => r.conditions.map((c) => c.field)),
    ]),
  );
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === "done") return null;
    if (state.get(id) === "open") return path.slice(path.indexOf(id));
    state.set(id, "open");
    path.push(id);
    for (const next of waitsOn.get(id) ?? []) {
      const found = visit(next);
      if (found) return found;
    }
    path.pop();
    state.set(id, "done");
    return null;
  };
  for (const f of def.fields) {
    const found = visit(f.id);
    if (found) return found;
  }
  return null;
}
