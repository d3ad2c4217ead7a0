/**
 * Multi-page forms (issue 29): a `page` field (a page break) starts a page titled by its label;
 * the fields up to the next break are on that page. A break may carry `show`/`hide` rules in the
 * one rule language (the same `logic` fields use): a page whose break is hidden is skipped, and
 * its fields with it (form-answers.ts `fieldStates`). A form without breaks is one page, as
 * before. Shared by the builder, the public form (with and without JavaScript) and the server,
 * so each says the same about which page comes next and what a page must hold. Pure.
 */
import type { FieldError } from "./error-messages";
import { type Answers, type CheckedAnswers, checkAnswers, fieldStates } from "./form-answers";
import type { FormDefinition, FormFieldDef } from "./form-definition";

/** The most pages a form has. */
export const MAX_FORM_PAGES = 20;

export interface FormPage {
  /** 0 for the first page. */
  index: number;
  /** The break that starts the page; null for a first page that starts without one. */
  pageBreak: FormFieldDef | null;
  /** The break's label ("" for an untitled first page). */
  title: string;
  /** The fields of the page, in order (the break not among them). */
  fields: FormFieldDef[];
}

/** Whether a field is a page break. */
export const isPageBreak = (f: Pick<FormFieldDef, "kind">) => f.kind === "page";

/**
 * The pages of a form, in order. A break first in the form titles the first page rather than
 * leaving an empty one before it.
 *
 * @example
 * formPages([{ id: "name", … }, { id: "more", kind: "page", label: "More" }, { id: "age", … }]).map((p) => p.title);
 * // ["", "More"]
 */
export function formPages(fields: readonly FormFieldDef[]): FormPage[] {
  const pages: FormPage[] = [{ index: 0, pageBreak: null, title: "", fields: [] }];
  for (const f of fields) {
    const current = pages[pages.length - 1];
    if (!isPageBreak(f)) current.fields.push(f);
    else if (pages.length === 1 && !current.pageBreak && !current.fields.length) {
      current.pageBreak = f;
      current.title = f.label;
    } else pages.push({ index: pages.length, pageBreak: f, title: f.label, fields: [] });
  }
  return pages;
}

/** Whether the form has more than one page (older forms never do). */
export const isMultiPage = (fields: readonly FormFieldDef[]) => formPages(fields).length > 1;

/** The page index of every field (breaks included). */
export function pageOfFields(fields: readonly FormFieldDef[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const page of formPages(fields)) {
    if (page.pageBreak) out.set(page.pageBreak.id, page.index);
    for (const f of page.fields) out.set(f.id, page.index);
  }
  return out;
}

/** The pages shown for these answers (the others are skipped by their break's rules), in order. */
export function shownPages(fields: readonly FormFieldDef[], values: Answers): number[] {
  const { visible } = fieldStates(fields, values);
  return formPages(fields)
    .filter((p) => !p.pageBreak || visible.has(p.pageBreak.id))
    .map((p) => p.index);
}

/**
 * Where Next (`step` 1) or Back (`step` -1) goes from `current`: the nearest page not skipped
 * for these answers, or null when there is none (Next on the last page sends the form).
 */
export function stepPage(
  fields: readonly FormFieldDef[],
  values: Answers,
  current: number,
  step: 1 | -1,
): number | null {
  const shown = shownPages(fields, values);
  const candidates =
    step === 1 ? shown.filter((p) => p > current) : shown.filter((p) => p < current).reverse();
  return candidates[0] ?? null;
}

/** Whether `page` is the last page shown for these answers (its button sends the form). */
export function isLastPage(fields: readonly FormFieldDef[], values: Answers, page: number): boolean {
  return stepPage(fields, values, page, 1) === null;
}

/**
 * The answers checked as on sending, with the problems of the pages `which` picks only: Next
 * is refused for what the visitor can see on the page and fix (the current page's visible
 * fields), and a page reached is refused for the pages before it.
 *
 * @example
 * checkPages(fields, answers, (page) => page === 1).errors; // the second page's problems
 */
export function checkPages(
  fields: readonly FormFieldDef[],
  raw: Answers,
  which: (page: number) => boolean,
): CheckedAnswers {
  const pageOf = pageOfFields(fields);
  const checked = checkAnswers(fields, raw);
  return { values: checked.values, errors: checked.errors.filter((e) => which(pageOf.get(e.field) ?? 0)) };
}

/**
 * What makes a multi-page draft impossible to fill in page by page (paths as the API's
 * `details`): a page with nothing on it, a break that is required rather than shown or skipped,
 * a skip rule reading answers not given yet, a field's rule reading a later page's answer.
 */
export function pageProblems(def: FormDefinition): FieldError[] {
  const pages = formPages(def.fields);
  if (pages.length < 2) return [];
  const problems: FieldError[] = [];
  const pageOf = pageOfFields(def.fields);
  const at = (f: FormFieldDef) => `fields.${def.fields.indexOf(f)}`;
  if (pages.length > MAX_FORM_PAGES)
    problems.push({ field: "fields", message: `A form has at most ${MAX_FORM_PAGES} pages` });
  for (const page of pages) {
    const shows = page.fields.some((f) => f.kind !== "hidden");
    if (!shows && page.pageBreak)
      problems.push({
        field: `${at(page.pageBreak)}.label`,
        message: `Page “${page.title}” has no fields: add some after it, or remove the page break`,
      });
    else if (!shows)
      problems.push({
        field: "fields.0",
        message: "The first page has no fields: add some before the first page break",
      });
  }
  def.fields.forEach((f) => {
    const mine = pageOf.get(f.id) ?? 0;
    (f.logic ?? []).forEach((rule, r) => {
      if (isPageBreak(f) && rule.action === "require")
        problems.push({
          field: `${at(f)}.logic.${r}.action`,
          message: `Page “${f.label}” can be shown or skipped, not required`,
        });
      rule.conditions.forEach((c, k) => {
        const theirs = pageOf.get(c.field);
        if (theirs === undefined) return;
        const path = `${at(f)}.logic.${r}.conditions.${k}.field`;
        if (isPageBreak(f) && theirs >= mine)
          problems.push({
            field: path,
            message: `Page “${f.label}” can be skipped only by answers on earlier pages; “${c.field}” is on this page or after it`,
          });
        else if (!isPageBreak(f) && theirs > mine)
          problems.push({
            field: path,
            message: `A condition of ${f.label} reads “${c.field}”, which is on a later page: the visitor has left this page by then`,
          });
      });
    });
  });
  return problems;
}
