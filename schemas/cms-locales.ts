/**
 * Content in several languages (issue 29): a domain's locales (BCP 47), its fallback chains,
 * and which of a type's fields are localised. Pure: the server (delivery, writes) and the
 * admin app (the editor's locale switch) read the same rules.
 *
 * A domain has a default locale and others, each falling back to another of them or, when it
 * names none, to the default. An entry is its default-locale values (the entry itself, as
 * content was before locales) and one variant per other locale, holding the localised fields
 * only; shared fields (`x-shared: true`) have one value, the entry's, in every locale.
 */
import type { FieldError } from "./error-messages";

/** A BCP 47 tag as domains name locales: a language, then a script, region or variant. */
export const BCP47_PATTERN = "^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}$";
const BCP47 = new RegExp(BCP47_PATTERN);
export const DEFAULT_LOCALE = "en";
/** Locales a domain may have besides its default. */
export const MAX_LOCALES = 30;

export interface LocaleSetting {
  code: string;
  /** The locale its missing content is read from; the domain's default when absent. */
  fallback?: string | null;
}

export interface DomainLocales {
  default_locale: string;
  locales: readonly LocaleSetting[];
}

/** A domain row's locales as stored: `hi-IN`, or `ta-IN → hi-IN` (`>` also reads as the arrow). */
export function parseLocaleSetting(entry: string): LocaleSetting | null {
  const match = /^\s*([^\s>→]+)\s*(?:(?:→|->|>)\s*([^\s>→]+)\s*)?$/.exec(entry);
  if (!match || !isLocaleTag(match[1]!) || (match[2] !== undefined && !isLocaleTag(match[2]))) return null;
  return { code: match[1]!, fallback: match[2] ?? null };
}

/** A domain as stored (`default_locale`, `locales` as strings) read as its locale settings; bad entries left out. */
export function domainLocalesOf(row: { default_locale?: string | null; locales?: unknown }): DomainLocales {
  const raw = typeof row.locales === "string" ? (JSON.parse(row.locales) as unknown) : row.locales;
  const entries = Array.isArray(raw) ? raw.filter((e): e is string => typeof e === "string") : [];
  return {
    default_locale: row.default_locale || DEFAULT_LOCALE,
    locales: entries.map(parseLocaleSetting).filter((l): l is LocaleSetting => l !== null),
  };
}

/** `en-in` → `en-IN`, `zh-hant-tw` → `zh-Hant-TW`: the tag's conventional case. */
export function canonicalLocale(tag: string): string {
  return tag
    .split("-")
    .map((part, i) =>
      i === 0
        ? part.toLowerCase()
        : part.length === 2
          ? part.toUpperCase()
          : part.length === 4
            ? part[0]!.toUpperCase() + part.slice(1).toLowerCase()
            : part.toLowerCase(),
    )
    .join("-");
}

export const isLocaleTag = (tag: string) => BCP47.test(tag);

/** Every locale of a domain, the default first. */
export function domainLocaleCodes(domain: DomainLocales): string[] {
  return [domain.default_locale, ...domain.locales.map((l) => l.code)];
}

/** What is wrong with a domain's stored locales (strings), per field (`locales.2`), in words. */
export function storedLocaleErrors(defaultLocale: string, entries: readonly string[]): FieldError[] {
  const errors: FieldError[] = [];
  const settings: LocaleSetting[] = [];
  entries.forEach((entry, i) => {
    const setting = parseLocaleSetting(entry);
    if (setting) settings.push(setting);
    else
      errors.push({
        field: `locales.${i}`,
        message: "must be a language tag such as hi-IN, or ta-IN → hi-IN to name its fallback",
      });
  });
  if (errors.length) return errors;
  return domainLocaleErrors({ default_locale: defaultLocale, locales: settings }).map((e) => ({
    ...e,
    field: e.field.replace(/^(locales\.\d+)\.\w+$/, "$1"),
  }));
}

/** What is wrong with a domain's locales, per field (`locales.2.fallback`), in words. */
export function domainLocaleErrors(domain: DomainLocales): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set([domain.default_locale.toLowerCase()]);
  domain.locales.forEach((l, i) => {
    const code = l.code.toLowerCase();
    if (code === domain.default_locale.toLowerCase())
      errors.push({ field: `locales.${i}.code`, message: `${l.code} is already the default locale` });
    else if (seen.has(code))
      errors.push({ field: `locales.${i}.code`, message: `${l.code} is listed twice` });
    seen.add(code);
  });
  const known = new Set(domainLocaleCodes(domain).map((c) => c.toLowerCase()));
  domain.locales.forEach((l, i) => {
    if (!l.fallback) return;
    const field = `locales.${i}.fallback`;
    if (!known.has(l.fallback.toLowerCase()))
      errors.push({ field, message: `${l.fallback} is not one of this domain's locales` });
    else if (l.fallback.toLowerCase() === l.code.toLowerCase())
      errors.push({ field, message: "A locale cannot fall back to itself" });
  });
  if (errors.length) return errors;
  domain.locales.forEach((l, i) => {
    const chain = fallbackChain(domain, l.code);
    if (chain.at(-1)?.toLowerCase() !== domain.default_locale.toLowerCase())
      errors.push({
        field: `locales.${i}.fallback`,
        message: `${l.code}'s fallbacks go round in a circle: ${[...chain, chain[0]].join(" → ")}`,
      });
  });
  return errors;
}

/** `code`, then the locales it falls back to, ending at the default (or where a loop starts). */
export function fallbackChain(domain: DomainLocales, code: string): string[] {
  const byCode = new Map(domain.locales.map((l) => [l.code.toLowerCase(), l]));
  const chain: string[] = [];
  let at: string | undefined = code;
  while (at && !chain.some((c) => c.toLowerCase() === at!.toLowerCase())) {
    chain.push(at);
    if (at.toLowerCase() === domain.default_locale.toLowerCase()) break;
    const setting = byCode.get(at.toLowerCase());
    at = setting ? (setting.fallback ?? domain.default_locale) : domain.default_locale;
  }
  return chain;
}

/**
 * The locales an answer is looked for in, best first: the first wanted locale the domain has
 * (its exact tag, or else the first of the domain's with the same language), then its
 * fallbacks, ending at the default. Nothing wanted, or nothing the domain has: the default.
 */
export function localeChain(domain: DomainLocales, wanted: readonly string[]): string[] {
  const codes = domainLocaleCodes(domain);
  for (const tag of wanted) {
    const lower = tag.toLowerCase();
    const exact = codes.find((c) => c.toLowerCase() === lower);
    const language = lower.split("-")[0];
    const found = exact ?? codes.find((c) => c.toLowerCase().split("-")[0] === language);
    if (found) return fallbackChain(domain, found);
  }
  return [domain.default_locale];
}

/** An `Accept-Language` header's tags, most wanted first (`*` and `q=0` left out). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .slice(0, 20)
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((t) => t.tag !== "*" && t.q > 0 && isLocaleTag(t.tag))
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((t) => t.tag);
}

/** A field holds one value per locale unless marked shared. */
export const isLocalisedField = (field: { "x-shared"?: boolean }) => field["x-shared"] !== true;

/** The localised fields' values of `values` (what a locale's variant keeps). */
export function localisedValues(
  properties: Readonly<Record<string, { "x-shared"?: boolean }>>,
  values: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(properties))
    if (isLocalisedField(field) && values[name] !== undefined) out[name] = values[name];
  return out;
}

/** A variant's values made whole: the entry's shared fields with the variant's localised ones. */
export function mergedLocaleValues(
  properties: Readonly<Record<string, { "x-shared"?: boolean }>>,
  entry: Readonly<Record<string, unknown>>,
  variant: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(properties)) {
    const value = isLocalisedField(field) ? variant[name] : entry[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}
