import { useCan } from "@refinedev/core";
import { Button, Result } from "antd";
import type { ReactNode } from "react";
import { PageLoader } from "../components/page-loader";
import { Forbidden } from "../pages/errors/forbidden";

/**
 * Renders `children` only when access control grants the resource; otherwise the 403
 * screen. Wraps every module route, so a typed-in URL is checked like a menu click.
 */
export function ModuleGuard({ resource, children }: { resource: string; children: ReactNode }) {
  const { data, isLoading, isError, refetch } = useCan({ resource, action: "list" });
  if (isLoading) return <PageLoader />;
  if (isError) {
    return (
      <Result
        status="warning"
        title="Could not check your access"
        subTitle="The server did not answer. Check your connection and try again."
        extra={<Button onClick={() => refetch()}>Try again</Button>}
      />
    );
  }
  return data?.can ? children : <Forbidden />;
}
