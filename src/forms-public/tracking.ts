/**
 * Where a respondent came from, sent with each answer (docs/forms-api.md, `tracking`): the
 * page's tracked URL parameters, its address and referrer, and the first touch, the same
 * facts of the visitor's first visit, which the embed script keeps in the embedding site's own
 * localStorage when the form's first-touch setting allows it. Pure: the page is passed in.
 */
import type { FirstTouchMode } from "../../schemas/form-definition";

/** The page an answer is given on (the embedding page for an embedded form). */
export interface PageVisit {
  href: string;
  referrer: string;
}

export interface FirstTouch {
  parameters: Record<string, string>;
  landingPage: string;
  referrer: string;
  /** ISO time of the visit. */
  at: string;
}

export interface Tracking {
  parameters: Record<string, string>;
  firstTouch: FirstTouch | null;
  referrer: string;
  landingPage: string;
}

/** The embedding site's localStorage key of the first touch. */
export const FIRST_TOUCH_KEY = "atelier_first_touch";

/** Longest address and parameter value kept: a submission is limited in size (64 KB). */
const MAX_URL = 2000;
const MAX_VALUE = 500;

/**
 * The tracked parameters an address carries, by the form's names; every `utm_*` one too when
 * `anyUtm` (the first touch keeps them whatever a form tracks).
 *
 * @example
 * urlParameters("https://a.example/?utm_source=news&x=1", ["utm_source", "gclid"]); // { utm_source: "news" }
 */
export function urlParameters(
  href: string,
  names: readonly string[],
  anyUtm = false,
): Record<string, string> {
  const out: Record<string, string> = {};
  let params: URLSearchParams;
  try {
    params = new URL(href).searchParams;
  } catch {
    return out;
  }
  const wanted = new Set(names);
  for (const [name, value] of params) {
    if (Object.hasOwn(out, name) || !(wanted.has(name) || (anyUtm && name.startsWith("utm_")))) continue;
    out[name] = value.slice(0, MAX_VALUE);
  }
  return out;
}

/** The tracking of an answer given on `page`, the first touch apart. */
export function pageTracking(page: PageVisit, names: readonly string[]): Omit<Tracking, "firstTouch"> {
  return {
    parameters: urlParameters(page.href, names),
    referrer: page.referrer.slice(0, MAX_URL),
    landingPage: page.href.slice(0, MAX_URL),
  };
}

/**
 * Whether the first touch may be kept and sent: `on` always, `consent` once the site says its
 * visitor agreed (`AtelierForms.grantConsent()` or `data-consent="granted"`), `off` never.
 */
export const firstTouchAllowed = (mode: FirstTouchMode, consent: boolean) =>
  mode === "on" || (mode === "consent" && consent);

/** This visit as a first touch. */
export function visitTouch(page: PageVisit, names: readonly string[], now: Date): FirstTouch {
  return {
    parameters: urlParameters(page.href, names, true),
    landingPage: page.href.slice(0, MAX_URL),
    referrer: page.referrer.slice(0, MAX_URL),
    at: now.toISOString(),
  };
}

const isText = (v: unknown): v is string => typeof v === "string";

/** A first touch read from storage or a message, or null when it is not one. */
export function asFirstTouch(value: unknown): FirstTouch | null {
  if (!value || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  const params = v.parameters;
  if (!isText(v.landingPage) || !isText(v.referrer) || !isText(v.at)) return null;
  if (!params || typeof params !== "object" || Array.isArray(params)) return null;
  const parameters: Record<string, string> = {};
  for (const [k, p] of Object.entries(params)) if (isText(p)) parameters[k] = p.slice(0, MAX_VALUE);
  return {
    parameters,
    landingPage: v.landingPage.slice(0, MAX_URL),
    referrer: v.referrer.slice(0, MAX_URL),
    at: v.at.slice(0, 40),
  };
}

/** The slice of `Storage` used here; null when the browser refuses storage. */
export type TouchStorage = Pick<Storage, "getItem" | "setItem"> | null;

/** The kept first touch, or null. */
export function readFirstTouch(storage: TouchStorage): FirstTouch | null {
  try {
    const text = storage?.getItem(FIRST_TOUCH_KEY);
    return text ? asFirstTouch(JSON.parse(text)) : null;
  } catch {
    return null;
  }
}

/**
 * The first touch: the kept one, else `visit`, which is kept from now on. Never overwritten, so
 * it stays the visitor's first visit seen by any form allowed to keep it.
 */
export function rememberFirstTouch(storage: TouchStorage, visit: FirstTouch): FirstTouch {
  const kept = readFirstTouch(storage);
  if (kept) return kept;
  try {
    storage?.setItem(FIRST_TOUCH_KEY, JSON.stringify(visit));
  } catch {
    // Storage full or refused: the touch is still sent with this page's answers.
  }
  return visit;
}
