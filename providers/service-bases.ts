/**
 * Base URLs of the platform's services (spec §7: API, assets, socket, CMS, public CMS,
 * CRM, forms, DAM, DAM socket). Each can be moved with a `VITE_*_BASE` variable at build
 * time; by default everything is served from the app's own origin.
 */

/** Same-origin defaults, used when no variable is set. */
export const DEFAULT_SERVICE_BASES = {
  api: "",
  assets: "/assets",
  socket: "",
  cms: "/cms",
  publicCms: "/public-cms",
  crm: "/crm",
  forms: "/forms",
  dam: "/dam",
  damSocket: "/dam",
} as const;

export type ServiceBase = keyof typeof DEFAULT_SERVICE_BASES;

/** The build variable that overrides each base. */
export const SERVICE_BASE_ENV: Record<ServiceBase, string> = {
  api: "VITE_API_BASE",
  assets: "VITE_ASSETS_BASE",
  socket: "VITE_SOCKET_BASE",
  cms: "VITE_CMS_BASE",
  publicCms: "VITE_PUBLIC_CMS_BASE",
  crm: "VITE_CRM_BASE",
  forms: "VITE_FORMS_BASE",
  dam: "VITE_DAM_BASE",
  damSocket: "VITE_DAM_SOCKET_BASE",
};

/**
 * Resolves every base from an environment record. A trailing slash is dropped so that
 * `${base}/api/...` never has a double slash.
 *
 * @example
 * resolveServiceBases({ VITE_API_BASE: "https://api.example.com/" }).api; // "https://api.example.com"
 */
export function resolveServiceBases(env: Readonly<Record<string, unknown>>): Record<ServiceBase, string> {
  const bases = { ...DEFAULT_SERVICE_BASES } as Record<ServiceBase, string>;
  for (const key of Object.keys(DEFAULT_SERVICE_BASES) as ServiceBase[]) {
    const value = env[SERVICE_BASE_ENV[key]];
    if (typeof value === "string") bases[key] = value.replace(/\/+$/, "");
  }
  return bases;
}

// `import.meta.env` exists under Vite and Vitest only; plain Node (the server importing
// shared code, scripts) has none, hence the fallback. Using the whole object also lets
// Vite substitute it at build time.
const buildEnv: Readonly<Record<string, unknown>> = import.meta.env ?? {};

/** The resolved bases of this build. */
export const SERVICE_BASES: Readonly<Record<ServiceBase, string>> = Object.freeze(
  resolveServiceBases(buildEnv),
);
