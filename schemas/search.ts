/**
 * Search everywhere (Ctrl+K): the answer of `GET /api/search`, shared by the server and the
 * admin app's command menu. Pure data.
 */

/** Longest search text, in characters: a name, an email, a SKU — not a document. */
export const SEARCH_MAX_LENGTH = 100;
/** Hits per group when the request names no `limit`; and the most it may ask for. */
export const SEARCH_DEFAULT_LIMIT = 5;
export const SEARCH_MAX_LIMIT = 20;

/** One record found. */
export interface SearchHit {
  id: string;
  /** The record's name (its resource's `x-label` field). */
  title: string;
  /** A line under it (another searched field: a client's company and email, a product's SKU); null when none. */
  subtitle: string | null;
  /** Where the admin app opens it, as a path under `/manage` (`/crm/clients/show/<id>`). */
  path: string;
}

/** The hits of one resource (or module source: users, assets, CMS entries), best first. */
export interface SearchGroup {
  /** The resource's name (`clients`), or the module source's (`users`, `dam-assets`, `cms-entries`). */
  resource: string;
  /** "Clients" */
  label: string;
  /** antd icon name (the resource's, or its module's). */
  icon: string;
  hits: SearchHit[];
  /** True when the group may hold more hits than shown (it filled its `limit`). */
  more: boolean;
}

export interface SearchResponse {
  /** The search text as searched (trimmed). */
  q: string;
  /** Groups in order of their best hit (an exact name first, then names starting with the text). */
  groups: SearchGroup[];
}
