/**
 * The markup of each field kind, one entry per kind (a new kind is one entry here and one in
 * schemas/forms.ts). Pure string building: it runs on the server for the page that works
 * without JavaScript, and in the browser for the inline embed and the admin's preview.
 *
 * Every control carries `aria-describedby` to its help and its error text (the error element is
 * always there, empty when the answer is fine, so the script only changes its text), and an
 * answer given before is filled in again (the page re-rendered with errors, without script).
 */
import type { FormFieldDef } from "../../schemas/form-definition";
import type { FormFieldKind } from "../../schemas/forms";
import { formatIsoDay } from "../lib/dates";
import { type AttrValue, attrs, escapeHtml, tag } from "./html";

/** What a kind's renderer is given. */
export interface FieldContext {
  field: FormFieldDef;
  /** The DOM id of the field's control; the options of a group are `${id}-1`, `${id}-2`, … */
  id: string;
  /** The answer to show: a string, a list (checkboxes), a boolean (consent), a number (rating). */
  value: unknown;
  error?: string;
  required: boolean;
  /** Where the file field sends its files (`POST`, one file a request, the field named). */
  uploadUrl: string;
}

/** The placeholder of the date field: the platform reads dates day-month-year (spec §5). */
export const DATE_PLACEHOLDER = "DD-MM-YYYY";

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** One answer as the text of an input. A stored date (`YYYY-MM-DD`) is shown day-month-year. */
function textOf(ctx: FieldContext): string {
  const v = Array.isArray(ctx.value) ? ctx.value[0] : ctx.value;
  if (typeof v === "number") return String(v);
  if (typeof v !== "string") return "";
  return ctx.field.kind === "date" && ISO_DAY.test(v) ? formatIsoDay(v) : v;
}

/** The answers of a group as a set of texts (checkboxes and the like). */
const chosen = (value: unknown) =>
  new Set((Array.isArray(value) ? value : [value]).filter((v) => v != null).map(String));

const TRUE_WORDS = new Set(["true", "on", "yes", "1"]);
const isTicked = (value: unknown) =>
  value === true || (typeof value === "string" && TRUE_WORDS.has(value.toLowerCase()));

const requiredMark = (required: boolean) =>
  required ? '<span class="atf-req" aria-hidden="true">*</span>' : "";

/** "(required)" for screen readers where no control carries `required` (a checkbox group). */
const requiredWord = (required: boolean) => (required ? '<span class="atf-sr"> (required)</span>' : "");

const labelText = (ctx: FieldContext) => `${escapeHtml(ctx.field.label)}${requiredMark(ctx.required)}`;

const help = (ctx: FieldContext) =>
  ctx.field.help ? tag("p", { class: "atf-help", id: `${ctx.id}-help` }, escapeHtml(ctx.field.help)) : "";

/** The error text under a field: always present, so that filling it in is announced. */
const errorText = (ctx: FieldContext) =>
  tag("p", { class: "atf-error", id: `${ctx.id}-error`, role: "alert" }, escapeHtml(ctx.error ?? ""));

const describedBy = (ctx: FieldContext) =>
  [ctx.field.help ? `${ctx.id}-help` : "", `${ctx.id}-error`].filter(Boolean).join(" ");

/** The attributes every answering control shares. */
const common = (ctx: FieldContext, id = ctx.id): Record<string, AttrValue> => ({
  id,
  name: ctx.field.id,
  "aria-describedby": describedBy(ctx),
  "aria-invalid": ctx.error ? "true" : undefined,
});

/** A label, the control, its help and its error, in reading order. */
const labelled = (ctx: FieldContext, control: string) =>
  `${tag("label", { class: "atf-label", for: ctx.id }, labelText(ctx))}${help(ctx)}${control}${errorText(ctx)}`;

/** A group of options under a legend (radio buttons, checkboxes, rating). */
const group = (ctx: FieldContext, inner: string, extraClass = "") =>
  tag(
    "fieldset",
    { class: `atf-group${extraClass}`, "aria-describedby": describedBy(ctx) },
    `<legend class="atf-label">${labelText(ctx)}${ctx.field.kind === "checkboxes" ? requiredWord(ctx.required) : ""}</legend>${help(ctx)}${inner}${errorText(ctx)}`,
  );

function textInput(type: string, extra: (ctx: FieldContext) => Record<string, AttrValue> = () => ({})) {
  return (ctx: FieldContext) =>
    labelled(
      ctx,
      `<input${attrs({
        ...common(ctx),
        class: "atf-input",
        type,
        value: textOf(ctx),
        placeholder: ctx.field.placeholder || undefined,
        maxlength: ctx.field.validation?.maxLength,
        required: ctx.required,
        ...extra(ctx),
      })}>`,
    );
}

function choices(type: "radio" | "checkbox") {
  return (ctx: FieldContext) => {
    const picked = chosen(ctx.value);
    const items = (ctx.field.options ?? []).map((option, i) => {
      const id = `${ctx.id}-${i + 1}`;
      const input = `<input${attrs({
        id,
        name: ctx.field.id,
        type,
        value: option,
        class: "atf-check",
        checked: picked.has(option),
        required: type === "radio" && ctx.required,
        "aria-invalid": ctx.error ? "true" : undefined,
      })}>`;
      return `<div class="atf-choice">${input}${tag("label", { for: id }, escapeHtml(option))}</div>`;
    });
    return group(ctx, `<div class="atf-options">${items.join("")}</div>`);
  };
}

/** The file field's limits, as the browser's `accept` attribute says them. */
const acceptOf = (f: FormFieldDef) =>
  f.validation?.accept?.length ? f.validation.accept.join(",") : undefined;

export const FIELD_RENDERERS: Readonly<Record<FormFieldKind, (ctx: FieldContext) => string>> = {
  checkboxes: choices("checkbox"),
  consent: (ctx) => {
    const input = `<input${attrs({
      ...common(ctx),
      type: "checkbox",
      class: "atf-check",
      value: "yes",
      checked: isTicked(Array.isArray(ctx.value) ? ctx.value[0] : ctx.value),
      required: ctx.required,
    })}>`;
    const label = tag("label", { class: "atf-consent-label", for: ctx.id }, labelText(ctx));
    return `<div class="atf-choice atf-consent">${input}${label}</div>${help(ctx)}${errorText(ctx)}`;
  },
  date: textInput("text", (ctx) => ({
    inputmode: "numeric",
    placeholder: ctx.field.placeholder || DATE_PLACEHOLDER,
    autocomplete: "off",
    maxlength: 10,
    "data-date": "dmy",
  })),
  dropdown: (ctx) => {
    const value = textOf(ctx);
    const options = (ctx.field.options ?? [])
      .map((o) => `<option${attrs({ value: o, selected: o === value })}>${escapeHtml(o)}</option>`)
      .join("");
    const empty = `<option value="">${escapeHtml(ctx.field.placeholder || "Choose…")}</option>`;
    return labelled(
      ctx,
      tag(
        "select",
        { ...common(ctx), class: "atf-input atf-select", required: ctx.required },
        empty + options,
      ),
    );
  },
  email: textInput("email", () => ({ autocomplete: "email", spellcheck: "false" })),
  file: (ctx) =>
    labelled(
      ctx,
      `<input${attrs({
        ...common(ctx),
        class: "atf-file",
        type: "file",
        multiple: true,
        accept: acceptOf(ctx.field),
        required: ctx.required,
        "data-upload-url": ctx.uploadUrl,
        "data-max-size-mb": ctx.field.validation?.maxSizeMb,
      })}>`,
    ),
  heading: (ctx) =>
    `${tag("h2", { class: "atf-heading", id: ctx.id }, escapeHtml(ctx.field.label))}${
      ctx.field.help ? tag("p", { class: "atf-help" }, escapeHtml(ctx.field.help)) : ""
    }`,
  hidden: (ctx) => `<input${attrs({ type: "hidden", id: ctx.id, name: ctx.field.id, value: textOf(ctx) })}>`,
  page: (ctx) =>
    `${tag("h2", { class: "atf-page-heading", id: ctx.id }, escapeHtml(ctx.field.label))}${
      ctx.field.help ? tag("p", { class: "atf-help" }, escapeHtml(ctx.field.help)) : ""
    }`,
  longtext: (ctx) =>
    labelled(
      ctx,
      tag(
        "textarea",
        {
          ...common(ctx),
          class: "atf-input atf-textarea",
          rows: 5,
          placeholder: ctx.field.placeholder || undefined,
          maxlength: ctx.field.validation?.maxLength,
          required: ctx.required,
        },
        // A newline right after <textarea> is dropped by the parser: keep a leading one.
        `${textOf(ctx).startsWith("\n") ? "\n" : ""}${escapeHtml(textOf(ctx))}`,
      ),
    ),
  number: textInput("number", (ctx) => ({
    step: "any",
    min: ctx.field.validation?.min,
    max: ctx.field.validation?.max,
  })),
  phone: textInput("tel", () => ({ autocomplete: "tel" })),
  radio: choices("radio"),
  rating: (ctx) => {
    const min = ctx.field.validation?.min ?? 1;
    const max = Math.max(min, Math.min(ctx.field.validation?.max ?? 5, 10));
    const value = textOf(ctx);
    let stars = "";
    for (let n = Math.max(0, min); n <= max; n++) {
      const id = `${ctx.id}-${n}`;
      stars += `<input${attrs({
        id,
        name: ctx.field.id,
        type: "radio",
        value: n,
        class: "atf-star-input",
        checked: value === String(n),
        required: ctx.required,
        "aria-invalid": ctx.error ? "true" : undefined,
      })}>${tag("label", { for: id, class: "atf-star" }, `<span class="atf-sr">${n} of ${max}</span>`)}`;
    }
    return group(ctx, `<div class="atf-stars">${stars}</div>`, " atf-rating");
  },
  text: textInput("text"),
};
