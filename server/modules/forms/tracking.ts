/**
 * What a submission records of where its respondent came from: the form's tracked parameters
 * (the five utm ones and its custom ones) from the page's address, with custom defaults for
 * those it lacks; the first-touch parameters the embed script kept on the embedding site (only
 * when the form's setting allows); the referrer and landing page; the user agent. Read from
 * the JSON the public script sends or from the `_t_*` inputs of the plain HTML form, and cut to
 * sane sizes: it is the visitor's input.
 */
import { type FormSettings, trackedParameters } from "../../../schemas/form-definition";
import type { Tracking as SentTracking } from "../../../src/forms-public/tracking";

/** What the page sends (src/forms-public/tracking.ts), with the user agent the server reads. */
export interface Tracking extends SentTracking {
  userAgent: string;
}

const MAX_VALUE = 500;
const MAX_URL = 2000;

const str = (v: unknown, max: number) =>
  typeof v === "string" ? v.slice(0, max) : typeof v === "number" ? String(v) : "";
const record = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** Only the form's own parameters, as text. */
function parametersOf(settings: FormSettings, given: Record<string, unknown>, withDefaults: boolean) {
  const out: Record<string, string> = {};
  for (const p of trackedParameters(settings.utm)) {
    const value = str(given[p.name], MAX_VALUE);
    if (value) out[p.name] = value;
    else if (withDefaults && p.defaultValue) out[p.name] = p.defaultValue;
  }
  return out;
}

/** Tracking from the public script's JSON (`tracking` of the body). */
export function trackingFromJson(settings: FormSettings, body: unknown, userAgent: string): Tracking {
  const t = record(body);
  const first = record(t.firstTouch);
  const hasFirst = settings.firstTouch !== "off" && Object.keys(first).length > 0;
  return {
    parameters: parametersOf(settings, record(t.parameters), true),
    firstTouch: hasFirst
      ? {
          parameters: parametersOf(settings, record(first.parameters), false),
          landingPage: str(first.landingPage, MAX_URL),
          referrer: str(first.referrer, MAX_URL),
          at: str(first.at, 40),
        }
      : null,
    referrer: str(t.referrer, MAX_URL),
    landingPage: str(t.landingPage, MAX_URL),
    userAgent: userAgent.slice(0, 500),
  };
}

/** Tracking from the plain form's hidden `_t_<name>`, `_t_landing` and `_t_referrer` inputs. */
export function trackingFromFields(
  settings: FormSettings,
  fields: Record<string, unknown>,
  userAgent: string,
) {
  const given: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields))
    if (k.startsWith("_t_")) given[k.slice(3)] = Array.isArray(v) ? v[0] : v;
  return trackingFromJson(
    settings,
    { parameters: given, referrer: given.referrer, landingPage: given.landing, firstTouch: null },
    userAgent,
  );
}
