import { useCan } from "@refinedev/core";
import type { ReactNode } from "react";
import { LoadError } from "../components/load-error";
import { PageLoader } from "../components/page-loader";
import { Forbidden } from "../pages/errors/forbidden";

/**
 * Renders `children` only when access control grants the resource; otherwise the 403
 * screen. Wraps every module route, so a typed-in URL is checked like a menu click.
 * Only an answer of "no" is a 403: a check that could not be made says so, with Retry.
 */
export function ModuleGuard({ resource, children }: { resource: string; children: ReactNode }) {
  const { data, isError, error, refetch } = useCan({ resource, action: "list" });
  if (data) return data.can ? children : <Forbidden />;
  if (isError) return <LoadError what="your access rights" error={error} onRetry={() => refetch()} />;
  return <PageLoader />;
}
