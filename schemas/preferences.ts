/**
 * Per-user preferences (`/api/me/preferences/:key`): small JSON values a user sets once and
 * expects on every device — a list's columns, the sider folded. Kept on the server because
 * signing out clears local storage (spec §8). Shared by the server and the SPA. Pure.
 */

/** Letters, digits, then dots, dashes, underscores or colons; up to 100 characters. */
export const PREFERENCE_KEY_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$";

/** The key's rule in words, after its title (a regex means nothing to a person). */
export const PREFERENCE_KEY_PATTERN_MESSAGE =
  "must start with a letter or digit and hold only letters, digits, dots, dashes, underscores " +
  "and colons (at most 100 characters)";

/** The 400 answer's message about a bad key. */
export const PREFERENCE_KEY_RULE = `Key ${PREFERENCE_KEY_PATTERN_MESSAGE}`;

/** Largest value, as JSON text in UTF-8: a column layout is a few hundred bytes. */
export const PREFERENCE_VALUE_MAX_BYTES = 16 * 1024;

/** How many keys one user may keep: a misbehaving client cannot fill the table. */
export const PREFERENCES_PER_USER_MAX = 200;

/** One preference as the API answers it; `value` is null (and no `updated_at`) when never set. */
export interface PreferenceRecord<T = unknown> {
  key: string;
  value: T | null;
  updated_at?: string;
}

/** `PUT /api/me/preferences/:key`. */
export interface PreferenceWrite<T = unknown> {
  value: T;
}

/** Whether a key is one the API accepts. */
export const isPreferenceKey = (key: string): boolean => new RegExp(PREFERENCE_KEY_PATTERN).test(key);

/**
 * Keys the SPA uses, in one place so two screens never write the same key for different things.
 *
 * @example
 * PREFERENCE_KEYS.listColumns("products"); // "list-columns:products"
 */
export const PREFERENCE_KEYS = {
  /** spec §3 `ui.menuClose`: the sider is folded. */
  menuClose: "ui.menuClose",
  /** The column chooser of a resource's list. */
  listColumns: (resource: string) => `list-columns:${resource.replace(/\//g, ":")}`,
} as const;

/** What `list-columns:<resource>` holds: the columns hidden, and their order when moved. */
export interface ListColumnsPreference {
  hidden: string[];
  order?: string[];
}
