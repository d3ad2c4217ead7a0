/**
 * Console silencing for production builds (spec §9: console logging is disabled in
 * production), so that tokens, payloads and stack traces do not leak into users' consoles.
 */

/** The console methods that are silenced. `error` is included: the spec makes no exception. */
export const SILENCED_METHODS = ["log", "info", "debug", "warn", "error"] as const;

type ConsoleMethod = (typeof SILENCED_METHODS)[number];
export type ConsoleLike = Pick<Console, ConsoleMethod>;

const noop = (): void => {};

/**
 * Replaces the console's logging methods with no-ops when `isProd`; returns a function
 * that puts the originals back (useful in tests).
 *
 * @example
 * disableConsoleInProduction(import.meta.env.PROD);
 */
export function disableConsoleInProduction(isProd: boolean, target: ConsoleLike = console): () => void {
  if (!isProd) return noop;
  const originals = SILENCED_METHODS.map((method) => [method, target[method]] as const);
  for (const method of SILENCED_METHODS) target[method] = noop;
  return () => {
    for (const [method, original] of originals) target[method] = original;
  };
}
