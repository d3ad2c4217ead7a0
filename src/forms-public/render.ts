/**
 * A public form as HTML, built as a string: the server sends it as the form's page (which works
 * without JavaScript: a plain form post, errors rendered back with the answers refilled), the
 * inline embed and the admin's preview put it in a page, and enhance.ts then adds the logic,
 * the checks as one types, and sending without leaving the page. No DOM here.
 *
 * The page template (form.html at the repository root, built by Vite with the page's script and
 * style) holds four tokens that {@link renderFormDocument} fills, see {@link FORM_TEMPLATE_TOKENS}.
 */
import { type Answers, fieldStates } from "../../schemas/form-answers";
import { answers, HONEYPOT_FIELD } from "../../schemas/form-definition";
import { formPages, shownPages } from "../../schemas/form-pages";
import { EMBED_BODY_CLASS, FORM_DATA_ID } from "./embed-protocol";
import { attrs, escapeHtml, tag } from "./html";
import { CLOSED_MESSAGE, summary } from "./messages";
import type { PublicForm } from "./public-form";
import { FIELD_RENDERERS } from "./render-fields";

export { EMBED_BODY_CLASS, FORM_DATA_ID } from "./embed-protocol";

export interface RenderOptions {
  /** Where the form posts without JavaScript; by default the forms base's submissions route. */
  action?: string;
  /** Answers to fill in (the page rendered again with its errors); a field's default otherwise. */
  values?: Record<string, unknown>;
  /** Per-field messages (`field` is the field's id); others are listed above the button. */
  errors?: ReadonlyArray<{ field: string; message: string }>;
  /** Sent along as hidden `_t_<name>` inputs: the URL's tracked parameters, `landing`, `referrer`. */
  tracking?: Readonly<Record<string, string>>;
  /** The admin's live preview: marked so, never posts. */
  preview?: boolean;
  /** A multi-page form's page to show (0 for the first; a skipped one gives the nearest before). */
  page?: number;
}

/** The hidden input naming the page a multi-page form shows (the page without JavaScript posts it). */
export const PAGE_INPUT = "_page";
/** The name of a multi-page form's buttons; their value says which: `next`, `back` or `send`. */
export const NAV_INPUT = "_nav";
export const NEXT_LABEL = "Next";
export const BACK_LABEL = "Back";

/** "Page 2 of 3": where a visitor stands among the pages shown for their answers. */
export const progressText = (position: number, count: number) => `Page ${position} of ${count}`;

/** The page shown of `wanted`: itself when shown for these answers, else the nearest shown before it. */
export function pageToShow(shown: readonly number[], wanted: number | undefined): number {
  const before = shown.filter((p) => p <= (wanted ?? 0));
  return before[before.length - 1] ?? shown[0] ?? 0;
}

/** The form's submissions route under the default forms base (the server passes its own). */
export const submissionsPath = (slug: string) => `/forms/f/${encodeURIComponent(slug)}/submissions`;

/** Where the file fields upload, one file a request, `?field=<id>` naming the field. */
export const filesPath = (slug: string) => `/forms/f/${encodeURIComponent(slug)}/files`;

/** Prefix of the hidden inputs that carry tracking without JavaScript. */
export const TRACKING_INPUT_PREFIX = "_t_";

/** The DOM id of a field's control: unique across forms, so two embeds on one page do not clash. */
export const fieldDomId = (slug: string, fieldId: string) =>
  `atf-${slug.replace(/[^A-Za-z0-9_-]/g, "_")}-${fieldId}`;

const TRUE_WORDS = new Set(["true", "on", "yes", "1"]);

/**
 * The answers the page starts with: the given ones, else each field's default. A consent posted
 * as `yes` is read as `true`, as the logic's conditions compare it.
 */
export function initialValues(form: Pick<PublicForm, "fields">, values?: Readonly<Record<string, unknown>>) {
  const out: Answers = {};
  for (const f of form.fields) {
    const given = values && Object.hasOwn(values, f.id) ? values[f.id] : f.defaultValue;
    if (given === undefined) continue;
    out[f.id] =
      f.kind === "consent"
        ? given === true || (typeof given === "string" && TRUE_WORDS.has(given.toLowerCase()))
        : given;
  }
  return out;
}

/**
 * The whole `<form>` of a public form: one block per field (hidden by the logic when the
 * answers so far say so), the honeypot, the tracking inputs, the button and the status region.
 *
 * @example
 * renderFormHtml(form, { errors: [{ field: "email", message: "Email is required" }], values: { email: "" } });
 */
export function renderFormHtml(form: PublicForm, opts: RenderOptions = {}): string {
  const values = initialValues(form, opts.values);
  const states = fieldStates(form.fields, values);
  const errors = new Map<string, string>();
  for (const e of opts.errors ?? []) if (!errors.has(e.field)) errors.set(e.field, e.message);
  const known = new Set(form.fields.filter(answers).map((f) => f.id));

  const action = opts.action ?? submissionsPath(form.slug);
  // Files go beside the submissions, on the same base: the server's page and the inline embed
  // (another site) both get it right by naming only where the form posts.
  const files = /\/submissions(\?.*)?$/.test(action)
    ? action.replace(/\/submissions(\?.*)?$/, "/files")
    : filesPath(form.slug);

  const renderBlock = (field: PublicForm["fields"][number]) => {
    const id = fieldDomId(form.slug, field.id);
    const required = states.required.has(field.id);
    const error = known.has(field.id) ? errors.get(field.id) : undefined;
    const inner = FIELD_RENDERERS[field.kind]?.({
      field,
      id,
      value: values[field.id],
      error,
      required,
      uploadUrl: `${files}?field=${encodeURIComponent(field.id)}`,
    });
    if (inner === undefined) return "";
    return tag(
      "div",
      {
        class: `atf-field atf-field--${field.kind}`,
        "data-field": field.id,
        "data-kind": field.kind,
        "data-required": required,
        "data-invalid": Boolean(error),
        hidden: field.kind === "hidden" || !states.visible.has(field.id),
      },
      inner,
    );
  };
  const pages = formPages(form.fields);
  const multi = pages.length > 1;
  const shown = multi ? shownPages(form.fields, values) : [0];
  const current = pageToShow(shown, opts.page);
  const position = shown.indexOf(current);
  const last = position === shown.length - 1;
  // One page: the fields as before. Several: a section per page, only the current one shown
  // (the others' answers still post with it, so the page without JavaScript carries them).
  const body = multi
    ? pages
        .map((page) =>
          tag(
            "section",
            {
              class: "atf-step",
              "data-page": page.index,
              hidden: page.index !== current,
              "aria-label": page.title || undefined,
            },
            [page.pageBreak, ...page.fields].map((f) => (f ? renderBlock(f) : "")).join(""),
          ),
        )
        .join("")
    : form.fields.map(renderBlock).join("");
  const progress = multi
    ? `${tag(
        "div",
        { class: "atf-progress" },
        tag(
          "p",
          { class: "atf-progress-text", "aria-live": "polite" },
          progressText(position + 1, shown.length),
        ) +
          tag(
            "progress",
            { class: "atf-progress-bar", max: shown.length, value: position + 1, "aria-hidden": "true" },
            "",
          ),
      )}<input${attrs({ type: "hidden", name: PAGE_INPUT, value: String(current) })}>`
    : "";
  const sendLabel = escapeHtml(form.settings.submit.buttonLabel || "Submit");
  const actions = multi
    ? tag(
        "button",
        { type: "submit", class: "atf-submit", name: NAV_INPUT, value: last ? "send" : "next" },
        last ? sendLabel : NEXT_LABEL,
      ) +
      tag(
        "button",
        { type: "submit", class: "atf-back", name: NAV_INPUT, value: "back", hidden: position === 0 },
        BACK_LABEL,
      )
    : tag("button", { type: "submit", class: "atf-submit" }, sendLabel);

  const honeypot =
    `<div class="atf-hp" aria-hidden="true">` +
    `<label for="${escapeHtml(fieldDomId(form.slug, HONEYPOT_FIELD))}">Website</label>` +
    `<input${attrs({ type: "text", id: fieldDomId(form.slug, HONEYPOT_FIELD), name: HONEYPOT_FIELD, value: "", tabindex: "-1", autocomplete: "off" })}>` +
    `</div>`;

  const tracking = Object.entries(opts.tracking ?? {})
    .map(
      ([name, value]) =>
        `<input${attrs({ type: "hidden", name: `${TRACKING_INPUT_PREFIX}${name}`, value })}>`,
    )
    .join("");

  return tag(
    "form",
    {
      class: "atf",
      method: "post",
      action: opts.preview ? undefined : action,
      novalidate: true,
      "accept-charset": "utf-8",
      "data-slug": form.slug,
      "data-version": form.version,
      "data-preview": opts.preview === true,
      "data-page": multi ? current : undefined,
    },
    `${progress}<div class="atf-fields">${body}</div>${honeypot}${tracking}` +
      tag("div", { class: "atf-alert", role: "alert" }, escapeHtml(summary(opts.errors ?? [], known))) +
      `<div class="atf-actions">${actions}</div>` +
      `<div class="atf-status" role="status" aria-live="polite"></div>`,
  );
}

/**
 * The tokens of form.html that {@link renderFormDocument} fills: the page title, the body's
 * classes, the content (the page heading and the form, or the success or closed message), and
 * the place of the form's data for the page's script.
 */
export const FORM_TEMPLATE_TOKENS = {
  title: "__ATELIER_FORM_TITLE__",
  bodyClass: "__ATELIER_BODY_CLASS__",
  content: "<!--atelier:form-->",
  data: "<!--atelier:data-->",
} as const;

export interface DocumentOptions {
  /** {@link renderFormHtml}'s output. */
  formHtml: string;
  title: string;
  /** `sent`: after a post without JavaScript (`?sent=1`); `closed`: the form takes no answers. */
  state: "open" | "sent" | "closed";
  embed: boolean;
}

/**
 * JSON that can sit inside a `<script>` element: `<` is escaped, so no `</script>` or `<!--`
 * inside an answer or a label can end the element.
 */
export const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/** The success message, as the page shows it after sending (the script shows the same one). */
export const successHtml = (form: Pick<PublicForm, "settings">) =>
  tag(
    "div",
    { class: "atf atf-success", role: "status", tabindex: "-1" },
    `<p>${escapeHtml(form.settings.submit.successMessage)}</p>`,
  );

/**
 * The form's page: form.html (built) with its tokens filled.
 *
 * @example
 * renderFormDocument(template, form, { formHtml: renderFormHtml(form), title: form.name, state: "open", embed: false });
 */
export function renderFormDocument(template: string, form: PublicForm, opts: DocumentOptions): string {
  const body =
    opts.state === "sent"
      ? successHtml(form)
      : opts.state === "closed"
        ? `<div class="atf atf-closed" role="status"><p>${escapeHtml(CLOSED_MESSAGE)}</p></div>`
        : opts.formHtml;
  const heading = opts.embed ? "" : `<h1 class="atf-page-title">${escapeHtml(form.name)}</h1>`;
  const data = `<script type="application/json" id="${FORM_DATA_ID}">${scriptJson(form)}</script>`;
  const fill: Record<string, string> = {
    [FORM_TEMPLATE_TOKENS.title]: escapeHtml(opts.title),
    [FORM_TEMPLATE_TOKENS.bodyClass]: opts.embed ? `atf-page ${EMBED_BODY_CLASS}` : "atf-page",
    [FORM_TEMPLATE_TOKENS.content]: heading + body,
    [FORM_TEMPLATE_TOKENS.data]: data,
  };
  // One pass over the template, so text put in by one token is never read as another token,
  // and no `$&` in an answer is read as a replacement pattern.
  const pattern = new RegExp(Object.keys(fill).map(escapeRegExp).join("|"), "g");
  return template.replace(pattern, (token) => fill[token]);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
