/**
 * `@refinedev/devtools-internal` as Refine's core uses it in a production build (the LIGHTER
 * aliases in vite.config.ts put this file in its place). Outside development the package's
 * `getXRay` answers an empty trace and `useQuerySubscription` does nothing — the same as here —
 * but its stack-trace parsers and devtools listeners still came along to every screen (about
 * 2 KB of compressed script). The Refine devtools are not used by Atelier.
 */
export function getXRay() {
  return { hookName: "", trace: [], resourcePath: null };
}

export function useQuerySubscription() {}
