import { ResourceContext, useCan } from "@refinedev/core";
import { skipToken, useQuery } from "@tanstack/react-query";
import { type ReactNode, useContext } from "react";
import { accessMetaFrom, accessTo, findResource } from "../../providers/access-control";
import { ME_QUERY_KEY } from "../../providers/identity";
import type { MeResponse } from "../../schemas/auth";
import { LoadError } from "../components/load-error";
import { PageLoader } from "../components/page-loader";
import { Forbidden } from "../pages/errors/forbidden";

/**
 * The access answer for a resource from the identity already loaded, or undefined before it is.
 * The provider's own answer (providers/access-control.ts), known at once: with it the screen
 * renders in the same pass as the layout instead of after an asynchronous check (issue 28). It
 * follows the identity's cache, so a grant changed over the socket shows here as it loads.
 */
function useKnownAccess(resource: string) {
  const { resources } = useContext(ResourceContext);
  const { data: me } = useQuery<MeResponse>({ queryKey: ME_QUERY_KEY, queryFn: skipToken });
  if (!me) return undefined;
  const meta = accessMetaFrom(findResource(resources, resource)?.meta);
  return meta.moduleID === undefined ? { can: true as const } : accessTo(me, meta);
}

/**
 * Renders `children` only when access control grants the resource; otherwise the 403
 * screen. Wraps every module route, so a typed-in URL is checked like a menu click.
 * Only an answer of "no" is a 403: a check that could not be made says so, with Retry.
 */
export function ModuleGuard({ resource, children }: { resource: string; children: ReactNode }) {
  const known = useKnownAccess(resource);
  const { data, isError, error, refetch } = useCan({
    resource,
    action: "list",
    queryOptions: { enabled: known === undefined },
  });
  const answer = known ?? data;
  if (answer) return answer.can ? children : <Forbidden />;
  if (isError) return <LoadError what="your access rights" error={error} onRetry={() => refetch()} />;
  return <PageLoader />;
}
