/**
 * Module permissions (spec §6). The same moduleID is checked by the server's routes and
 * by the SPA's access-control provider (see resources/modules.ts).
 */
import type { MeResponse, ModuleEntry } from "../../schemas/auth";

/**
 * Access is granted when the user's modules contain an entry with that moduleID.
 *
 * @example
 * hasModuleAccess([{ moduleID: 1 }, { moduleID: 5 }], 5); // true
 * hasModuleAccess(null, 5);                               // false
 */
export function hasModuleAccess(
  modules: ReadonlyArray<{ moduleID: number }> | null | undefined,
  moduleID: number,
): boolean {
  return Array.isArray(modules) && modules.some((entry) => entry.moduleID === moduleID);
}

/**
 * The signed-in user's modules: those of the first entry of `modules_submodules`.
 *
 * @example
 * modulesOf(me).map((m) => m.key); // ["pdf", "crm"]
 */
export function modulesOf(me: MeResponse | null | undefined): ModuleEntry[] {
  return me?.modules_submodules?.[0]?.modules ?? [];
}
