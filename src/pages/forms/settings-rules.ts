/**
 * The builder's rules for a form's settings and for the server's answer to a save, as pure
 * functions: what is wrong with the mail, UTM and submit settings (keyed by the path under
 * `settings.` that the server's 400 `details` use), the next custom parameter's id, the
 * placeholders a mail template takes, and where each message of a refused save belongs.
 */

import { isEmailAddress } from "../../../schemas/form-answers";
import {
  answers,
  type FormFieldDef,
  type FormSettings,
  PARAMETER_NAME_PATTERN,
} from "../../../schemas/form-definition";
import { DEFAULT_TRACKING_PARAMETERS, type UtmSettings } from "../../../schemas/forms";
import type { FieldError } from "../../lib/errors";

/** Problems of the settings, by path under `settings.` ("mail.sendCc.0", "utm.Step"). */
export type SettingsProblems = Record<string, string>;

const PARAMETER_NAME = new RegExp(PARAMETER_NAME_PATTERN);
const DEFAULT_NAMES = new Set(DEFAULT_TRACKING_PARAMETERS.map((p) => p.name));

/** The message for an address that is none. */
export const notAnAddress = (text: string) => `${text} is not an email address`;

function addressProblems(problems: SettingsProblems, key: string, list: readonly string[]) {
  list.forEach((address, i) => {
    if (!isEmailAddress(address)) problems[`mail.${key}.${i}`] = notAnAddress(address);
  });
}

/**
 * What is wrong with the settings of a form with these fields; empty when they can be saved.
 *
 * @example
 * settingsProblems({ ...settings, mail: { ...mail, sendCc: ["bob"] } }, fields); // { "mail.sendCc.0": "bob is not an email address" }
 */
export function settingsProblems(settings: FormSettings, fields: readonly FormFieldDef[]): SettingsProblems {
  const problems: SettingsProblems = {};
  const { mail, utm, submit } = settings;
  if (mail.isEmail && !mail.Destination.length)
    problems["mail.Destination"] = "Add the address the answers are sent to";
  addressProblems(problems, "Destination", mail.Destination);
  addressProblems(problems, "sendCc", mail.sendCc);
  addressProblems(problems, "sendBcc", mail.sendBcc);
  if (mail.isEmail && !mail.subject.trim()) problems["mail.subject"] = "Give the mail a subject";
  const emailFields = fields.filter((f) => f.kind === "email");
  if (mail.replyToField && !emailFields.some((f) => f.id === mail.replyToField))
    problems["mail.replyToField"] = `“${mail.replyToField}” is no longer an email field of the form`;
  if (mail.confirmation.enabled) {
    if (!mail.replyToField)
      problems["mail.confirmation.enabled"] =
        "Choose the Reply-To email field: the confirmation is sent to that address";
    if (!mail.confirmation.subject.trim())
      problems["mail.confirmation.subject"] = "Give the confirmation a subject";
  }
  if (!Number.isInteger(utm.Step) || utm.Step < 1) problems["utm.Step"] = "A whole number, 1 or more";
  const names = new Set<string>();
  utm.customParameters.forEach((p, i) => {
    const at = `utm.customParameters.${i}.name`;
    const name = p.name.trim();
    if (!name) problems[at] = "Give the parameter a name";
    else if (DEFAULT_NAMES.has(name)) problems[at] = `${name} is already recorded as a default parameter`;
    else if (!PARAMETER_NAME.test(name))
      problems[at] = "Letters, digits, _ and -, starting with a letter (at most 63 characters)";
    else if (names.has(name)) problems[at] = `${name} is listed twice`;
    names.add(name);
  });
  if (!submit.buttonLabel.trim()) problems["submit.buttonLabel"] = "Give the button a label";
  return problems;
}

/** The messages at `path` and under it (`mail.sendCc` gathers `mail.sendCc.0`, `mail.sendCc.3`). */
export function problemsAt(problems: Readonly<Record<string, string>>, path: string): string[] {
  return Object.entries(problems)
    .filter(([key]) => key === path || key.startsWith(`${path}.`))
    .map(([, message]) => message);
}

/** The id a new custom parameter gets: after the defaults (1 to 5) and every custom one. */
export function nextParameterId(utm: Pick<UtmSettings, "defaultParameters" | "customParameters">): number {
  return Math.max(5, ...utm.defaultParameters.map((p) => p.id), ...utm.customParameters.map((p) => p.id)) + 1;
}

/** The placeholders a mail template takes: the form's name, every answer, then each field's own. */
export function templatePlaceholders(fields: readonly FormFieldDef[]): string[] {
  return ["{{form}}", "{{answers}}", ...fields.filter(answers).map((f) => `{{${f.id}}}`)];
}

/**
 * Text with `token` put in place of the selection `[start, end)`, and where the caret goes.
 *
 * @example
 * insertToken("Hi !", 3, 3, "{{name}}"); // { text: "Hi {{name}}!", caret: 11 }
 */
export function insertToken(text: string, start: number, end: number, token: string) {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + token + text.slice(to), caret: from + token.length };
}

/**
 * The settings after a field's id changed from `from` to `to`: the Reply-To field and the
 * `{{from}}` placeholders of the mail templates follow it (the same object when nothing did).
 */
export function renameInSettings(settings: FormSettings, from: string, to: string): FormSettings {
  const token = `{{${from}}}`;
  const swap = (text: string) => text.split(token).join(`{{${to}}}`);
  const { mail } = settings;
  const next = {
    ...mail,
    replyToField: mail.replyToField === from ? to : mail.replyToField,
    subject: swap(mail.subject),
    body: swap(mail.body),
    confirmation: {
      ...mail.confirmation,
      subject: swap(mail.confirmation.subject),
      body: swap(mail.confirmation.body),
    },
  };
  return JSON.stringify(next) === JSON.stringify(mail) ? settings : { ...settings, mail: next };
}

/** A refused save's messages, each where it belongs on the page. */
export interface RoutedErrors {
  /** By field index, then by path under `fields.N.`. */
  fields: Record<number, Record<string, string>>;
  /** By path under `settings.`. */
  settings: Record<string, string>;
  /** Messages about no one input (the definition as a whole). */
  other: string[];
}

/**
 * Sorts the `details` of a 400 answer by where they show: `fields.2.label` on field 2's
 * label, `settings.mail.sendCc.0` on the Cc input, anything else above the builder.
 *
 * @example
 * routeErrors([{ field: "fields.2.label", message: "Label is required" }]).fields[2]; // { label: "Label is required" }
 */
export function routeErrors(details: readonly FieldError[]): RoutedErrors {
  const routed: RoutedErrors = { fields: {}, settings: {}, other: [] };
  for (const { field, message } of details) {
    const path = field.replace(/^\.?(?:definition\.)?/, "").replace(/\[(\d+)\]/g, ".$1");
    const onField = /^fields\.(\d+)(?:\.(.+))?$/.exec(path);
    if (onField) {
      const index = Number(onField[1]);
      routed.fields[index] = { ...routed.fields[index], [onField[2] ?? "label"]: message };
    } else if (path.startsWith("settings.")) routed.settings[path.slice("settings.".length)] = message;
    else routed.other.push(message);
  }
  return routed;
}
