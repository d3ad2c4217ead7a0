/**
 * Reading and writing the form that render.ts built, in the browser: the answers as the server
 * takes them, the logic's visibility and requirement, and the per-field error texts. Every
 * change goes through the attributes the renderer writes (`hidden`, `required`, `data-*`), so
 * the page rendered by the server and the one updated here look the same.
 */
import type { Answers, FieldStates } from "../../schemas/form-answers";
import { answers, type FormFieldDef } from "../../schemas/form-definition";
import { normalizeDmy } from "./date-input";

/** The block of a field (`data-field`). */
export function fieldBlock(form: HTMLFormElement, id: string): HTMLElement | null {
  return form.querySelector<HTMLElement>(`.atf-field[data-field="${CSS.escape(id)}"]`);
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The answering controls of a block (inputs, select, textarea), in order. */
export const controlsOf = (block: Element) => [...block.querySelectorAll<Control>("input, select, textarea")];

/** The files uploaded for a file input, as the upload route named them. */
export const FILES_DATA = "files";

/** Text given to the check when a number input holds something that is no number. */
const NOT_A_NUMBER = "not a number";

/** One field's answer, read from its controls. */
function answerOf(field: FormFieldDef, controls: Control[]): unknown {
  const checked = () =>
    controls.filter((c): c is HTMLInputElement => c instanceof HTMLInputElement && c.checked);
  const first = controls[0];
  switch (field.kind) {
    case "checkboxes":
      return checked().map((c) => c.value);
    case "consent":
      return checked().length > 0;
    case "radio":
      return checked()[0]?.value ?? "";
    case "rating": {
      const value = checked()[0]?.value;
      return value === undefined ? "" : Number(value);
    }
    case "file": {
      try {
        const list: unknown = JSON.parse(first?.dataset[FILES_DATA] ?? "[]");
        return Array.isArray(list) ? list : [];
      } catch {
        return [];
      }
    }
    case "number":
      // A number input answers "" for "12,5,3": say it is no number rather than that it is empty.
      return first instanceof HTMLInputElement && first.validity.badInput
        ? NOT_A_NUMBER
        : (first?.value ?? "");
    case "date":
      return normalizeDmy(first?.value ?? "");
    default:
      return first?.value ?? "";
  }
}

/** Every answer of the form as the submissions route takes it (hidden fields' too). */
export function collectAnswers(form: HTMLFormElement, fields: readonly FormFieldDef[]): Answers {
  const out: Answers = {};
  for (const f of fields) {
    if (!answers(f)) continue;
    const block = fieldBlock(form, f.id);
    if (block) out[f.id] = answerOf(f, controlsOf(block));
  }
  return out;
}

/** Shows the `*` mark, and the words for screen readers where no control says `required`. */
function setRequiredMark(block: HTMLElement, required: boolean) {
  const label = block.querySelector(".atf-label, .atf-consent-label");
  if (!label) return;
  const mark = label.querySelector(".atf-req");
  if (required && !mark) {
    const star = document.createElement("span");
    star.className = "atf-req";
    star.setAttribute("aria-hidden", "true");
    star.textContent = "*";
    label.append(star);
  } else if (!required && mark) mark.remove();
  if (block.dataset.kind === "checkboxes") {
    const words = label.querySelector(".atf-sr");
    if (required && !words) {
      const span = document.createElement("span");
      span.className = "atf-sr";
      span.textContent = " (required)";
      label.append(span);
    } else if (!required && words) words.remove();
  }
}

/** Applies the logic: shows and hides blocks, marks and unmarks required answers. */
export function applyStates(form: HTMLFormElement, fields: readonly FormFieldDef[], states: FieldStates) {
  for (const f of fields) {
    const block = fieldBlock(form, f.id);
    if (!block) continue;
    const hidden = f.kind === "hidden" || !states.visible.has(f.id);
    if (block.hidden !== hidden) block.hidden = hidden;
    const required = states.required.has(f.id);
    if (block.hasAttribute("data-required") === required) continue;
    block.toggleAttribute("data-required", required);
    setRequiredMark(block, required);
    // A checkbox group has no control that is required on its own.
    if (f.kind !== "checkboxes") for (const c of controlsOf(block)) c.required = required;
  }
}

/** Shows (or clears, with null) the message under a field. */
export function showFieldError(block: HTMLElement, message: string | null) {
  const text = block.querySelector(".atf-error");
  if (text && text.textContent !== (message ?? "")) text.textContent = message ?? "";
  block.toggleAttribute("data-invalid", Boolean(message));
  for (const c of controlsOf(block)) {
    if (message) c.setAttribute("aria-invalid", "true");
    else c.removeAttribute("aria-invalid");
  }
}

/** Moves focus to a field: its checked option, else its first control. */
export function focusField(block: HTMLElement) {
  const controls = controlsOf(block);
  const target = controls.find((c) => c instanceof HTMLInputElement && c.checked) ?? controls[0];
  target?.focus();
}

/** The field a DOM event happened in, by its block. */
export function fieldIdOf(target: EventTarget | null): string | null {
  const block = target instanceof Element ? target.closest<HTMLElement>(".atf-field[data-field]") : null;
  return block?.dataset.field ?? null;
}

/** Puts saved answers back into the controls (a partial answer resumed); files are chosen again. */
export function fillAnswers(form: HTMLFormElement, fields: readonly FormFieldDef[], values: Answers) {
  for (const f of fields) {
    if (!answers(f) || f.kind === "file" || !Object.hasOwn(values, f.id)) continue;
    const block = fieldBlock(form, f.id);
    if (!block) continue;
    const value = values[f.id];
    const list = (Array.isArray(value) ? value : [value]).map((v) => String(v));
    for (const c of controlsOf(block)) {
      if (c instanceof HTMLInputElement && (c.type === "checkbox" || c.type === "radio"))
        c.checked = f.kind === "consent" ? value === true : list.includes(c.value);
      else if (value !== null && value !== undefined && !Array.isArray(value)) c.value = String(value);
    }
  }
}
