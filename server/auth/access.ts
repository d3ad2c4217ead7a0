/**
 * Route access rules. Every route declares `config.access`; the guard below enforces
 * it before the handler runs, and a route without a rule is refused (fail closed).
 * A test walks the route table so a new route without a rule fails CI.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../context";
import { forbidden, HttpError } from "../http/errors";
import { bearerToken, cachedPrincipal, type Principal, resolvePrincipal } from "./principal";

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
  // A callback hook: a session checked a moment ago (ctx.principals) is allowed or refused
  // without a promise; anything else waits for resolvePrincipal.
  app.addHook("onRequest", (request, _reply, done) => {
    if (request.is404) return done();
    const access = request.routeOptions.config.access;
    if (!access) return done(forbidden("This route has no access rule"));
    if (access.kind === "public") return done();
    const token = bearerToken(request.headers.authorization);
    const cached = cachedPrincipal(ctx, token);
    if (cached) return done(admit(request, access, cached));
    resolvePrincipal(ctx, token, access.kind === "signedIn" && access.allowExpired).then(
      (principal) => done(admit(request, access, principal)),
      done,
    );
  });
}

/** Sets the request's principal; the refusal when the route's rule does not let it in. */
function admit(request: FastifyRequest, access: Access, principal: Principal): HttpError | undefined {
  request.principal = principal;
  if (access.kind !== "module") return undefined;
  if (!principal.modules.has(access.moduleID)) return forbidden("You do not have access to this module");
  if (access.adminOnly && !principal.isAdmin) return forbidden("Administrators only");
  return undefined;
}

/** Marks every route registered in this plugin scope public (static files, API docs). */
export function markScopePublic(scope: FastifyInstance) {
  scope.addHook("onRoute", (route) => {
    route.config = { ...(route.config ?? {}), access: route.config?.access ?? PUBLIC };
  });
}
