/**
 * Stale-build detection (spec §2): the page reloads hard when the published build date
 * in /meta.json is later than the one stored locally, so that a long-open tab does not keep
 * calling the API with an old bundle.
 */

/** localStorage key holding the last seen build time. */
export const BUILD_DATE_KEY = "buildDateTime";

/** Where the published build metadata is served (app origin root). */
export const BUILD_META_URL = "/meta.json";

export interface BuildMeta {
  buildDateTime: string;
}

/** Reads a build time as an ISO date or epoch milliseconds; `null` when it is neither. */
export function parseBuildDate(value: string | number | null | undefined): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string" || value.trim() === "") return null;
  const text = value.trim();
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * True only when both values are dates and the published one is later.
 *
 * @example
 * shouldHardReload("2024-06-02T10:00:00Z", "2024-06-01T10:00:00Z"); // true
 * shouldHardReload("2024-06-02T10:00:00Z", null);                   // false (first visit)
 */
export function shouldHardReload(
  published: string | null | undefined,
  stored: string | null | undefined,
): boolean {
  const publishedMs = parseBuildDate(published);
  const storedMs = parseBuildDate(stored);
  return publishedMs !== null && storedMs !== null && publishedMs > storedMs;
}

/** Fetches /meta.json past every cache (a cached copy would hide the new build). */
export async function fetchBuildMeta(url: string = BUILD_META_URL): Promise<BuildMeta> {
  const response = await fetch(url, { cache: "no-store" });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as BuildMeta;
}

/**
 * Reads the published build date, stores it, and reloads when it is later than the stored
 * one. The date is stored before reloading so the reloaded page does not reload again.
 * A first visit only stores. Failures to read the metadata are ignored: an old bundle
 * still works, so there is nothing to tell the user. Resolves true when it reloaded.
 *
 * @example
 * void checkBuildVersion({ fetchMeta: fetchBuildMeta, storage: localStorage, reload: () => location.reload() });
 */
export async function checkBuildVersion(opts: {
  fetchMeta: () => Promise<{ buildDateTime: string }>;
  storage: Storage;
  reload: () => void;
}): Promise<boolean> {
  let published: string;
  try {
    const meta = await opts.fetchMeta();
    published = String(meta?.buildDateTime ?? "");
  } catch {
    return false;
  }
  if (parseBuildDate(published) === null) return false;

  const stored = opts.storage.getItem(BUILD_DATE_KEY);
  opts.storage.setItem(BUILD_DATE_KEY, published);
  if (!shouldHardReload(published, stored)) return false;
  opts.reload();
  return true;
}
