/**
 * Where to go after signing in: the page the user was sent from (`?to=` as written by
 * Refine's CatchAllNavigate, or router state `from`), else home. Only paths inside the app
 * are accepted, so a crafted link cannot send a fresh session to another site.
 */
export function redirectTarget(search: string, state: unknown): string {
  const fromQuery = new URLSearchParams(search).get("to");
  const fromState = (state as { from?: unknown } | null)?.from;
  const candidate = fromQuery ?? (typeof fromState === "string" ? fromState : null);
  if (!candidate?.startsWith("/") || candidate.startsWith("//")) return "/";
  if (candidate.startsWith("/login")) return "/";
  return candidate;
}
