/**
 * Refine access-control provider: a resource with `meta.moduleID` is allowed when the
 * signed-in user's modules contain that id (spec §6, the same check as the server's);
 * `meta.adminOnly` additionally requires an admin (the server's users routes do).
 * Resources without a moduleID (home, account) are always allowed.
 *
 * Offline, or with the server out of reach, the check uses the identity last loaded: a lost
 * connection is not a lost grant, and must never read "You do not have access to this module".
 */
import type { AccessControlProvider, ResourceProps } from "@refinedev/core";
import { onlineManager } from "@tanstack/react-query";
import type { MeResponse } from "../schemas/auth";
import { hasModuleAccess, modulesOf } from "../src/lib/permissions";

export const NO_MODULE_ACCESS = "You do not have access to this module";

/** The part of a resource's `meta` that access depends on. */
export interface AccessMeta {
  moduleID?: number;
  adminOnly?: boolean;
}

/** Reads the access fields out of a resource's free-form `meta`. */
export function accessMetaFrom(meta: Readonly<Record<string, unknown>> | undefined): AccessMeta {
  return {
    moduleID: typeof meta?.moduleID === "number" ? meta.moduleID : undefined,
    adminOnly: meta?.adminOnly === true,
  };
}

/**
 * Whether `me` may open a resource with this meta.
 *
 * @example
 * allows(me, { moduleID: 5 });                  // me has CRM
 * allows(me, { moduleID: 10, adminOnly: true }); // me has Users and is an admin
 * allows(me, undefined);                         // true: not a module
 */
export function allows(me: MeResponse | null | undefined, meta: AccessMeta | undefined): boolean {
  const moduleID = meta?.moduleID;
  if (typeof moduleID !== "number") return true;
  if (meta?.adminOnly && !me?.isadmin) return false;
  return hasModuleAccess(modulesOf(me), moduleID);
}

/**
 * A resource by identifier, else by name: Refine's own lookup, so a module group and a
 * resource that share a name ("products") resolve as they do in Refine's hooks.
 */
export function findResource(
  resources: readonly ResourceProps[],
  key: string | undefined,
): ResourceProps | undefined {
  if (!key) return undefined;
  return resources.find((r) => r.identifier === key) ?? resources.find((r) => r.name === key);
}

/**
 * The answer of {@link AccessControlProvider.can} for a resource, given the identity: what the
 * provider answers, and what a screen can know at once when the identity is already loaded.
 */
export function accessTo(
  me: MeResponse | null | undefined,
  meta: AccessMeta,
): { can: true } | { can: false; reason: string } {
  return allows(me, meta) ? { can: true } : { can: false, reason: NO_MODULE_ACCESS };
}

/** Whether the browser can reach the network, as react-query (which pauses queries offline) sees it. */
const browserOnline = (): boolean =>
  onlineManager.isOnline() && (typeof navigator === "undefined" || navigator.onLine);

/** A failure in which the server said nothing about the user (no answer, or its own fault). */
function isUnanswered(error: unknown): boolean {
  const e = error as { statusCode?: unknown; response?: { status?: unknown } } | null;
  const status = e?.response?.status ?? e?.statusCode;
  return typeof status !== "number" || status === 0 || status >= 500;
}

/**
 * Wraps the identity loader for access checks: the last identity loaded is used while
 * offline (where a load would wait for the network) and when a load gets no answer. A
 * refusal (401, 403) is passed on: that is the server speaking about the user.
 *
 * @example
 * const identity = knownIdentity(me.load);
 * await identity(); // the fresh identity online, the last known one offline
 */
export function knownIdentity(
  loadMe: () => Promise<MeResponse>,
  isOnline: () => boolean = browserOnline,
): () => Promise<MeResponse> {
  let known: MeResponse | undefined;
  return async () => {
    if (known && !isOnline()) return known;
    try {
      known = await loadMe();
      return known;
    } catch (error) {
      if (known && isUnanswered(error)) return known;
      throw error;
    }
  };
}

/**
 * Creates the provider. `resources` resolves a name when Refine passes only the name
 * (`useCan({ resource: "users" })`) instead of the resource item.
 *
 * @example
 * <Refine accessControlProvider={createAccessControlProvider({ loadMe: me.load, resources })} />
 */
export function createAccessControlProvider(deps: {
  loadMe: () => Promise<MeResponse>;
  resources: readonly ResourceProps[];
  /** Whether the network is there; the browser's view by default (tests pass their own). */
  isOnline?: () => boolean;
}): AccessControlProvider {
  const identity = knownIdentity(deps.loadMe, deps.isOnline);
  return {
    async can({ resource, params }) {
      const meta = accessMetaFrom(params?.resource?.meta ?? findResource(deps.resources, resource)?.meta);
      if (meta.moduleID === undefined) return { can: true };
      return accessTo(await identity(), meta);
    },
    options: {
      buttons: { enableAccessControl: true, hideIfUnauthorized: true },
      // "always": a check is worked out from the known identity, so it runs offline too. With
      // react-query's default, an offline check is paused with no answer, which the screens
      // read as "no access".
      queryOptions: { staleTime: 30_000, networkMode: "always" },
    },
  };
}
