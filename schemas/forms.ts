/**
 * Forms (issue 15): the field kinds of the builder's palette with the validation object each
 * kind starts with, and the UTM settings with the spec's default parameters (§3) and tracking
 * reset (§4). Shared by the builder, the public renderer and the server.
 */

export const FORM_FIELD_KINDS = [
  "text",
  "longtext",
  "email",
  "phone",
  "number",
  "date",
  "dropdown",
  "radio",
  "checkboxes",
  "file",
  "hidden",
  "consent",
  "rating",
  "heading",
  "page",
] as const;
export type FormFieldKind = (typeof FORM_FIELD_KINDS)[number];

export const FORM_FIELD_LABELS: Readonly<Record<FormFieldKind, string>> = {
  text: "Short text",
  longtext: "Long text",
  email: "Email",
  phone: "Phone",
  number: "Number",
  date: "Date",
  dropdown: "Dropdown",
  radio: "Radio buttons",
  checkboxes: "Checkboxes",
  file: "File upload",
  hidden: "Hidden",
  consent: "Consent",
  rating: "Rating",
  heading: "Heading / section",
  page: "Page break",
};

/** What a field's answer is checked against; which keys apply depends on the kind. */
export interface FieldValidation {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  min?: number;
  max?: number;
  /** file: allowed types (`image/*`, `application/pdf`, `.docx`). */
  accept?: string[];
  /** file: largest size in MB. */
  maxSizeMb?: number;
  /** checkboxes: how many may be ticked. */
  minItems?: number;
  maxItems?: number;
}

/** The validation object a field of this kind starts with (changing the kind replaces it, §4). */
export function defaultValidation(kind: FormFieldKind): FieldValidation {
  switch (kind) {
    case "text":
      return { maxLength: 255 };
    case "longtext":
      return { maxLength: 5000 };
    case "email":
      return { maxLength: 320 };
    case "phone":
      return { maxLength: 32, pattern: "^[+0-9 ()-]{5,32}$" };
    case "number":
      return {};
    case "rating":
      return { min: 1, max: 5 };
    case "file":
      return { accept: [], maxSizeMb: 10 };
    case "checkboxes":
      return { minItems: 0 };
    default:
      return {};
  }
}

/** A UTM parameter captured from the page's address: the five defaults are type 0. */
export interface TrackingParameter {
  id: number;
  name: string;
  type: number;
  /** Recorded when the address does not carry the parameter. */
  defaultValue?: string;
}

export interface UtmSettings {
  trackingId: string;
  Step: number;
  defaultParameters: TrackingParameter[];
  customParameters: TrackingParameter[];
}

/** Spec §3: ids 1 to 5, type 0, in this order. */
export const DEFAULT_TRACKING_PARAMETERS: readonly TrackingParameter[] = [
  { id: 1, name: "utm_source", type: 0 },
  { id: 2, name: "utm_medium", type: 0 },
  { id: 3, name: "utm_campaign", type: 0 },
  { id: 4, name: "utm_term", type: 0 },
  { id: 5, name: "utm_content", type: 0 },
];

/** Spec §4: Step 1, the five default parameters, no custom ones (the tracking id stays). */
export function resetTracking(utm: Pick<UtmSettings, "trackingId">): UtmSettings {
  return {
    trackingId: utm.trackingId,
    Step: 1,
    defaultParameters: DEFAULT_TRACKING_PARAMETERS.map((p) => ({ ...p })),
    customParameters: [],
  };
}
