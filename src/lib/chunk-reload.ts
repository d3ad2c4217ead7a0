/**
 * Lazy screen code that does not arrive. After a new build is published, the old build's lazy
 * chunks are gone, so an open tab fails to load the next screen: reloading fetches the new
 * build, and a time guard stops a reload loop when the failure has another cause (then the
 * error boundary explains it). Code that is only slow is given up on after the script load
 * timeout (spec §9), and can be tried again in place.
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

/**
 * A screen's code that did not arrive within the script load timeout (spec §9: 120000 ms,
 * `SCRIPT_LOAD_TIMEOUT_MS`). The import may still finish later, so trying again can work
 * without reloading the page.
 */
export class ScriptLoadTimeoutError extends Error {
  override name = "ScriptLoadTimeoutError";
  constructor(readonly timeoutMs: number) {
    super(`The screen's code did not load within ${Math.round(timeoutMs / 1000)} seconds`);
  }
}

/**
 * `load` raced against `timeoutMs`: rejects with {@link ScriptLoadTimeoutError} when time runs
 * out first. The timer is cleared once `load` settles, so nothing fires late.
 *
 * @example
 * lazy(() => withScriptTimeout(() => import("./list-page"), SCRIPT_LOAD_TIMEOUT_MS));
 */
export function withScriptTimeout<T>(load: () => Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ScriptLoadTimeoutError(timeoutMs)), timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Browsers' words for a dynamic import whose file could not be fetched (Chrome, Safari, Firefox). */
const CHUNK_FAILURE =
  /dynamically imported module|Importing a module script failed|error loading dynamically imported module/i;

/** Whether an error is a screen's code that could not be loaded (timed out or failed), not a bug in it. */
export function isScriptLoadError(error: unknown): boolean {
  if (error instanceof ScriptLoadTimeoutError) return true;
  return error instanceof Error && CHUNK_FAILURE.test(error.message);
}
