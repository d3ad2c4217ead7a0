/**
 * A form as the builder writes it and the public renderer, the server and the submissions list
 * read it (issue 15): its fields in order (each a kind from schemas/forms.ts with its
 * validation and conditional logic) and its settings (mail, UTM, submit, first-touch). The
 * draft and each published version are one of these. Pure: no Node, no React.
 */
import type { CrudFilter } from "./conditions";
import {
  DEFAULT_TRACKING_PARAMETERS,
  type FieldValidation,
  type FormFieldKind,
  resetTracking,
  type UtmSettings,
} from "./forms";

/** What a rule does to its field when its conditions hold. */
export const LOGIC_ACTIONS = ["show", "hide", "require"] as const;
export type LogicAction = (typeof LOGIC_ACTIONS)[number];

/**
 * Conditional logic of one field: when the conditions over other fields' answers hold
 * (`all`: every one, `any`: one at least), the field is shown, hidden or required. The
 * conditions are the one condition language (schemas/conditions.ts): `{ field, operator, value }`.
 */
export interface FieldLogic {
  action: LogicAction;
  match: "all" | "any";
  conditions: Array<{ field: string; operator: string; value?: unknown }>;
}

export interface FormFieldDef {
  /** The answer's key (and the input's `name`): lower-case letters, digits and `_`, stable. */
  id: string;
  kind: FormFieldKind;
  label: string;
  placeholder?: string;
  help?: string;
  required?: boolean;
  /** dropdown, radio, checkboxes. */
  options?: string[];
  validation: FieldValidation;
  /** hidden: the value sent (a URL parameter of the same name wins). */
  defaultValue?: string;
  logic?: FieldLogic[];
}

export interface MailSettings {
  /** Notification mail on or off (spec §3). */
  isEmail: boolean;
  Destination: string[];
  sendCc: string[];
  sendBcc: string[];
  /** `{{field_id}}` placeholders are replaced by the answers; `{{form}}` by the form's name. */
  subject: string;
  body: string;
  /** An email field whose answer becomes the Reply-To of the notification. */
  replyToField: string | null;
  /** A mail to the respondent, at the address of `replyToField`. */
  confirmation: { enabled: boolean; subject: string; body: string };
}

export interface SubmitSettings {
  buttonLabel: string;
  successMessage: string;
}

/**
 * Where visitors first came from, remembered by the embed script in the embedding site's own
 * storage: never (`off`), always (`on`), or once the site says its visitor consented (`consent`).
 */
export const FIRST_TOUCH_MODES = ["off", "on", "consent"] as const;
export type FirstTouchMode = (typeof FIRST_TOUCH_MODES)[number];

/**
 * What an answer does in the CRM (issue 16): an answer with an email address creates or
 * updates that client (one client per address), and may enrol them in a sequence. A field
 * left null is found by itself: the first email field, a field named `name` (or
 * `first_name` and `last_name`), the first phone field, a field named `company`.
 */
export interface CrmSettings {
  createClients: boolean;
  emailField: string | null;
  nameField: string | null;
  phoneField: string | null;
  companyField: string | null;
  /** A sequence every new or returning client of this form is enrolled in. */
  sequenceId: string | null;
}

/**
 * Partial answers (answers kept as a visitor goes, so a return continues where they left):
 * how many days after its last save a partial answer can be resumed; it is deleted then.
 */
export interface ResumeSettings {
  days: number;
}
export const DEFAULT_RESUME_DAYS = 7;
export const MAX_RESUME_DAYS = 90;

/** The resume window of a form in days (forms saved before partial answers: the default). */
export const resumeDaysOf = (settings: Pick<FormSettings, "resume">) =>
  settings.resume?.days ?? DEFAULT_RESUME_DAYS;

export interface FormSettings {
  mail: MailSettings;
  utm: UtmSettings;
  submit: SubmitSettings;
  firstTouch: FirstTouchMode;
  /** Absent in forms saved before the CRM: read as `defaultCrmSettings()`. */
  crm?: CrmSettings;
  /** Absent in forms saved before partial answers: {@link DEFAULT_RESUME_DAYS}. */
  resume?: ResumeSettings;
}

export const defaultCrmSettings = (): CrmSettings => ({
  createClients: true,
  emailField: null,
  nameField: null,
  phoneField: null,
  companyField: null,
  sequenceId: null,
});

/** The form's fields the CRM reads an answer's client from (settings, else found by kind and id). */
export function crmFieldsOf(
  fields: readonly FormFieldDef[],
  crm: CrmSettings = defaultCrmSettings(),
): {
  email?: FormFieldDef;
  name?: FormFieldDef;
  firstName?: FormFieldDef;
  lastName?: FormFieldDef;
  phone?: FormFieldDef;
  company?: FormFieldDef;
} {
  const byId = (id: string | null | undefined) => (id ? fields.find((f) => f.id === id) : undefined);
  return {
    email: byId(crm.emailField) ?? fields.find((f) => f.kind === "email"),
    name: byId(crm.nameField) ?? byId("name") ?? byId("full_name"),
    firstName: byId("first_name"),
    lastName: byId("last_name"),
    phone: byId(crm.phoneField) ?? fields.find((f) => f.kind === "phone"),
    company: byId(crm.companyField) ?? byId("company"),
  };
}

export interface FormDefinition {
  fields: FormFieldDef[];
  settings: FormSettings;
}

/** The id rule of fields and of custom UTM parameters' names. */
export const FIELD_ID_PATTERN = "^[a-z][a-z0-9_]{0,62}$";
export const PARAMETER_NAME_PATTERN = "^[A-Za-z][A-Za-z0-9_-]{0,62}$";
export const MAX_FORM_FIELDS = 100;

/** The honeypot input's name: people never see it, bots fill it in. */
export const HONEYPOT_FIELD = "_hp_website";

export function defaultSettings(): FormSettings {
  return {
    mail: {
      isEmail: false,
      Destination: [],
      sendCc: [],
      sendBcc: [],
      subject: "New answer to {{form}}",
      body: "{{answers}}",
      replyToField: null,
      confirmation: { enabled: false, subject: "Thank you", body: "We have received your answer." },
    },
    utm: resetTracking({ trackingId: "" }),
    submit: { buttonLabel: "Submit", successMessage: "Thank you! Your answer has been sent." },
    firstTouch: "off",
    crm: defaultCrmSettings(),
  };
}

export const emptyDefinition = (): FormDefinition => ({ fields: [], settings: defaultSettings() });

/** Kinds that hold an answer (a heading only shows text; a page break starts a page). */
export const answers = (f: Pick<FormFieldDef, "kind">) => f.kind !== "heading" && f.kind !== "page";

/** Kinds whose answer is one of, or some of, the field's options. */
export const hasOptions = (kind: FormFieldKind) =>
  kind === "dropdown" || kind === "radio" || kind === "checkboxes";

/** A field id from a label: "Work email" → "work_email", unique among `taken`. */
export function fieldIdFrom(label: string, taken: Iterable<string>): string {
  const base =
    label
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^[^a-z]+|_+$/g, "")
      .slice(0, 40) || "field";
  const used = new Set(taken);
  if (!used.has(base)) return base;
  let n = 2;
  while (used.has(`${base}_${n}`)) n++;
  return `${base}_${n}`;
}

/** The tracking parameters a form records, defaults first (spec §3 order), then custom ones. */
export function trackedParameters(utm: Pick<UtmSettings, "defaultParameters" | "customParameters">) {
  const defaults = utm.defaultParameters.length ? utm.defaultParameters : DEFAULT_TRACKING_PARAMETERS;
  return [...defaults, ...utm.customParameters];
}

/** A rule's conditions as one group of the condition language. */
export function logicFilter(rule: FieldLogic): CrudFilter {
  return {
    operator: rule.match === "any" ? "or" : "and",
    value: rule.conditions.map((c) => ({ field: c.field, operator: c.operator, value: c.value })),
  };
}
