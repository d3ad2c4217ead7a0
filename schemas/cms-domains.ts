/**
 * A CMS domain (issue 14): a site or app the content is delivered to. Its `key` is the first
 * segment of the public delivery paths (`/public-cms/{key}/…`); content belongs to domains.
 */
import { auditProperties, type EntitySchema } from "./contract";

/** Words that cannot be a domain key: the public base's own paths. */
export const RESERVED_DOMAIN_KEYS = ["docs", "openapi"] as const;

export const DOMAIN_ACCESS = ["public", "token"] as const;
export type DomainAccess = (typeof DOMAIN_ACCESS)[number];

export const DEFAULT_CACHE_CONTROL = "public, max-age=60";

/** What a domain's preview address may hold, each filled in for the entry previewed. */
export const PREVIEW_PLACEHOLDERS = ["type", "slug", "id", "domain"] as const;

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
    preview_url: {
      type: "string",
      title: "Preview address",
      description:
        "Your site's page for an entry, opened beside the entry's editor with its draft: {type}, {slug}, {id} and {domain} are filled in, e.g. https://site.example/{type}/{slug}",
      maxLength: 500,
      pattern: `^https?://[^\\s{}]+(?:\\{(?:${PREVIEW_PLACEHOLDERS.join("|")})\\}[^\\s{}]*)*$`,
      "x-patternMessage":
        "must be an http:// or https:// address, and its only placeholders may be {type}, {slug}, {id} and {domain}",
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
