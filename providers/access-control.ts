/**
 * Refine access-control provider: a resource with `meta.moduleID` is allowed when the
 * signed-in user's modules contain that id (spec §6, the same check as the server's);
 * `meta.adminOnly` additionally requires an admin (the server's users routes do).
 * Resources without a moduleID (home, account) are always allowed.
 */
import type { AccessControlProvider, ResourceProps } from "@refinedev/core";
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
 * Creates the provider. `resources` resolves a name when Refine passes only the name
 * (`useCan({ resource: "users" })`) instead of the resource item.
 *
 * @example
 * <Refine accessControlProvider={createAccessControlProvider({ loadMe: me.load, resources })} />
 */
export function createAccessControlProvider(deps: {
  loadMe: () => Promise<MeResponse>;
  resources: readonly ResourceProps[];
}): AccessControlProvider {
  return {
    async can({ resource, params }) {
      const meta = accessMetaFrom(params?.resource?.meta ?? findResource(deps.resources, resource)?.meta);
      if (meta.moduleID === undefined) return { can: true };
      return allows(await deps.loadMe(), meta) ? { can: true } : { can: false, reason: NO_MODULE_ACCESS };
    },
    options: {
      buttons: { enableAccessControl: true, hideIfUnauthorized: true },
      queryOptions: { staleTime: 30_000 },
    },
  };
}
