/**
 * Route access rules. Every route declares `config.access`; the guard below enforces
 * it before the handler runs, and a route without a rule is refused (fail closed).
 * A test walks the route table so a new route without a rule fails CI.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context";
import { forbidden, HttpError } from "../http/errors";
import { bearerToken, type Principal, resolvePrincipal } from "./principal";

export type Access =
  | { kind: "public" }
  | { kind: "signedIn"; allowExpired?: boolean }
  | { kind: "module"; moduleID: number; adminOnly?: boolean };

export const PUBLIC: Access = { kind: "public" };
export const SIGNED_IN: Access = { kind: "signedIn" };
export const moduleAccess = (moduleID: number, opts: { adminOnly?: boolean } = {}): Access => ({
  kind: "module",
  moduleID,
  ...opts,
});

declare module "fastify" {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The principal of a guarded route (never null after the guard). */
export function principalOf(request: { principal: Principal | null }): Principal {
  if (!request.principal) throw new HttpError(401, "Authentication required");
  return request.principal;
}

export function registerAccessGuard(app: FastifyInstance, ctx: AppContext) {
  app.decorateRequest("principal", null);
  app.addHook("onRequest", async (request) => {
    if (request.is404) return;
    const access = request.routeOptions.config.access;
    if (!access) throw forbidden("This route has no access rule");
    if (access.kind === "public") return;
    const principal = await resolvePrincipal(
      ctx,
      bearerToken(request.headers.authorization),
      access.kind === "signedIn" && access.allowExpired,
    );
    request.principal = principal;
    if (access.kind === "module") {
      if (!principal.modules.has(access.moduleID)) throw forbidden("You do not have access to this module");
      if (access.adminOnly && !principal.isAdmin) throw forbidden("Administrators only");
    }
  });
}

/** Marks every route registered in this plugin scope public (static files, API docs). */
export function markScopePublic(scope: FastifyInstance) {
  scope.addHook("onRoute", (route) => {
    route.config = { ...(route.config ?? {}), access: route.config?.access ?? PUBLIC };
  });
}
