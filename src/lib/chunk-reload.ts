/**
 * After a new build is published, the old build's lazy chunks are gone, so an open tab fails
 * to load the next screen. Reloading fetches the new build; a time guard stops a reload loop
 * when the failure has another cause (then the error boundary explains it).
 */

export const CHUNK_RELOAD_KEY = "atelier:chunk-reload-at";

/** Do not reload again within this window after a chunk-failure reload. */
export const CHUNK_RELOAD_GUARD_MS = 10_000;

/**
 * Decides on a chunk failure: reloads (and returns true) unless it already did so recently.
 *
 * @example
 * window.addEventListener("vite:preloadError", (event) => {
 *   if (reloadForNewBuild(sessionStorage, () => location.reload())) event.preventDefault();
 * });
 */
export function reloadForNewBuild(storage: Storage, reload: () => void, now: number = Date.now()): boolean {
  const last = Number(storage.getItem(CHUNK_RELOAD_KEY) ?? 0);
  if (now - last < CHUNK_RELOAD_GUARD_MS) return false;
  storage.setItem(CHUNK_RELOAD_KEY, String(now));
  reload();
  return true;
}
