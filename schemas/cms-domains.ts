/**
 * A CMS domain (issue 14): a site or app the content is delivered to. Its `key` is the first
 * segment of the public delivery paths (`/public-cms/{key}/…`); content belongs to domains.
 */
import { BCP47_PATTERN, DEFAULT_LOCALE, MAX_LOCALES } from "./cms-locales";
import { auditProperties, type EntitySchema } from "./contract";

/** Words that cannot be a domain key: the public base's own paths. */
export const RESERVED_DOMAIN_KEYS = ["docs", "openapi"] as const;

export const DOMAIN_ACCESS = ["public", "token"] as const;
export type DomainAccess = (typeof DOMAIN_ACCESS)[number];

export const DEFAULT_CACHE_CONTROL = "public, max-age=60";

/** What a domain's preview address may hold, each filled in for the entry previewed. */
export const PREVIEW_PLACEHOLDERS = ["type", "slug", "id", "domain", "locale"] as const;

export const cmsDomainSchema = {
  $id: "cms-domain",
  title: "Domain",
  type: "object",
  additionalProperties: false,
  "x-table": "cms_domains",
  "x-label": "name",
  "x-defaultSort": "name",
  "x-list": ["name", "key", "hostname", "access", "updated_at"],
  "x-searchable": ["name", "key", "hostname"],
  "x-filterable": ["name", "access", "updated_at"],
  "x-unique": [["key"]],
  required: ["key", "name"],
  properties: {
    ...auditProperties,
    name: { type: "string", title: "Name", minLength: 1, maxLength: 120 },
    key: {
      type: "string",
      title: "Key",
      description: "Used in public paths: /public-cms/{key}/…",
      minLength: 1,
      maxLength: 63,
      pattern: "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$",
      "x-keyFrom": "name",
      "x-patternMessage":
        "may only contain lower-case letters, digits and dashes, and must start and end with a letter or digit",
    },
    hostname: {
      type: "string",
      title: "Hostname",
      description: "Where the site lives, such as shop.example.com",
      maxLength: 253,
      pattern:
        "^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$",
      "x-patternMessage": "must be a host name such as shop.example.com",
    },
    allowed_origins: {
      type: "array",
      title: "Allowed origins",
      description: "Sites whose pages may call the public API from a browser (CORS)",
      items: { type: "string", title: "Origin", format: "uri", maxLength: 300 },
      maxItems: 20,
      default: [],
    },
    access: {
      type: "string",
      title: "Access",
      enum: DOMAIN_ACCESS,
      "x-enumLabels": ["Public", "API token required"],
      default: "public",
    },
    default_locale: {
      type: "string",
      title: "Default locale",
      description:
        "The language content is written in first, as a BCP 47 tag such as en-IN; every locale's missing content falls back to it",
      minLength: 2,
      maxLength: 35,
      pattern: BCP47_PATTERN,
      "x-patternMessage": "must be a language tag such as en, en-IN or ta-IN",
      default: DEFAULT_LOCALE,
    },
    locales: {
      type: "array",
      title: "Other locales",
      description:
        "One language tag each, such as hi-IN; write ta-IN → hi-IN for a locale whose missing content is read from another one (else from the default locale)",
      maxItems: MAX_LOCALES,
      default: [],
      items: { type: "string", title: "Locale", maxLength: 80 },
    },
    preview_url: {
      type: "string",
      title: "Preview address",
      description:
        "Your site's page for an entry, opened beside the entry's editor with its draft: {type}, {slug}, {id}, {domain} and {locale} are filled in, e.g. https://site.example/{locale}/{type}/{slug}",
      maxLength: 500,
      pattern: `^https?://[^\\s{}]+(?:\\{(?:${PREVIEW_PLACEHOLDERS.join("|")})\\}[^\\s{}]*)*$`,
      "x-patternMessage":
        "must be an http:// or https:// address, and its only placeholders may be {type}, {slug}, {id}, {domain} and {locale}",
    },
    cache_control: {
      type: "string",
      title: "Cache-Control",
      description:
        "Sent with every answer of a public domain (a token domain's answers are always private, no-cache, so each read checks its token)",
      minLength: 1,
      maxLength: 200,
      default: DEFAULT_CACHE_CONTROL,
    },
  },
} as const satisfies EntitySchema;
