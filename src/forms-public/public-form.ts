/**
 * What the public sees of a published form: its fields and the settings a respondent's browser
 * needs. The server answers it at `GET /forms/f/{slug}.json` and embeds it in the form's page;
 * the mail settings (addresses, templates) never leave the server.
 */
import {
  type FirstTouchMode,
  type FormDefinition,
  type FormFieldDef,
  type SubmitSettings,
  trackedParameters,
} from "../../schemas/form-definition";
import { formPages } from "../../schemas/form-pages";

export interface PublicForm {
  slug: string;
  name: string;
  /** The published version the answers are given to. */
  version: number;
  fields: FormFieldDef[];
  /**
   * A multi-page form's pages (absent for a form of one page): each page's title and fields'
   * ids, in order; a page break (a field of kind `page`) starts each page after the first.
   */
  pages?: Array<{ title: string; fields: string[] }>;
  settings: {
    submit: SubmitSettings;
    /** The URL parameters recorded with an answer, by name (`utm_source`, a custom `gclid`). */
    utm: { parameters: string[] };
    firstTouch: FirstTouchMode;
  };
}

/**
 * The public side of a published version of a form. Built key by key rather than by removing
 * the mail settings, so that a setting added later stays private until it is named here.
 *
 * @example
 * toPublicForm({ slug: "contact", name: "Contact" }, 3, definition).settings.utm.parameters;
 * // ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"]
 */
export function toPublicForm(
  record: { slug: string; name: string },
  version: number,
  def: FormDefinition,
): PublicForm {
  const { submit, utm, firstTouch } = def.settings;
  const pages = formPages(def.fields);
  return {
    slug: record.slug,
    name: record.name,
    version,
    fields: def.fields.map(publicField),
    ...(pages.length > 1
      ? { pages: pages.map((p) => ({ title: p.title, fields: p.fields.map((f) => f.id) })) }
      : {}),
    settings: {
      submit: { buttonLabel: submit.buttonLabel, successMessage: submit.successMessage },
      utm: { parameters: trackedParameters(utm).map((p) => p.name) },
      firstTouch,
    },
  };
}

/** A field with the keys the renderer reads, and no others. */
function publicField(f: FormFieldDef): FormFieldDef {
  const out: FormFieldDef = { id: f.id, kind: f.kind, label: f.label, validation: { ...f.validation } };
  if (f.placeholder !== undefined) out.placeholder = f.placeholder;
  if (f.help !== undefined) out.help = f.help;
  if (f.required !== undefined) out.required = f.required;
  if (f.options !== undefined) out.options = [...f.options];
  if (f.defaultValue !== undefined) out.defaultValue = f.defaultValue;
  if (f.logic !== undefined) out.logic = f.logic;
  return out;
}
