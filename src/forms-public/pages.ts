/**
 * A multi-page form in the browser (render.ts draws every page, only the current one shown):
 * which page shows, the progress above it, and what the main button says (Next, or the form's
 * own label on the last page shown for the answers so far; skipped pages count for nothing).
 * Every change goes through the attributes the renderer writes, so the page drawn by the
 * server and the one moved here look the same.
 */
import type { Answers } from "../../schemas/form-answers";
import type { FormFieldDef } from "../../schemas/form-definition";
import { shownPages } from "../../schemas/form-pages";

const NEXT_LABEL = "Next";

/** "Page 2 of 3" (as render.ts `progressText`, without carrying the renderer in this bundle). */
const progressText = (position: number, count: number) => `Page ${position} of ${count}`;

/** The page a multi-page form shows (`data-page` of the form), or null for a one-page form. */
export function currentPage(el: HTMLFormElement): number | null {
  const page = el.dataset.page;
  return page === undefined ? null : Number(page);
}

/**
 * Shows `page` (null: the current one again) and brings the progress and the buttons up to
 * date with the pages the answers leave shown.
 */
export function showPage(
  el: HTMLFormElement,
  fields: readonly FormFieldDef[],
  values: Answers,
  sendLabel: string,
  page: number | null = null,
) {
  const now = page ?? currentPage(el);
  if (now === null) return;
  el.dataset.page = String(now);
  for (const section of el.querySelectorAll<HTMLElement>(".atf-step")) {
    const hidden = section.dataset.page !== String(now);
    if (section.hidden !== hidden) section.hidden = hidden;
  }
  const input = el.querySelector<HTMLInputElement>('input[name="_page"]');
  if (input) input.value = String(now);
  const shown = shownPages(fields, values);
  const position = Math.max(0, shown.indexOf(now));
  const last = position >= shown.length - 1;
  const text = el.querySelector(".atf-progress-text");
  const words = progressText(position + 1, shown.length);
  if (text && text.textContent !== words) text.textContent = words;
  const bar = el.querySelector<HTMLProgressElement>(".atf-progress-bar");
  if (bar) {
    bar.max = shown.length;
    bar.value = position + 1;
  }
  const main = el.querySelector<HTMLButtonElement>(".atf-submit");
  if (main) {
    const label = last ? sendLabel : NEXT_LABEL;
    if (main.textContent !== label) main.textContent = label;
    main.value = last ? "send" : "next";
  }
  const back = el.querySelector<HTMLButtonElement>(".atf-back");
  if (back) back.hidden = position === 0;
}

/** After moving to a page: its heading (or first control) takes the focus, the form's top in view. */
export function focusPage(el: HTMLFormElement) {
  const section = el.querySelector<HTMLElement>(".atf-step:not([hidden])");
  if (!section) return;
  const heading = section.querySelector<HTMLElement>(".atf-page-heading");
  const target =
    heading ??
    section.querySelector<HTMLElement>(".atf-field:not([hidden]) input:not([type=hidden]), select, textarea");
  if (heading) heading.tabIndex = -1;
  target?.focus({ preventScroll: true });
  if (el.getBoundingClientRect().top < 0) el.scrollIntoView({ block: "start" });
}
