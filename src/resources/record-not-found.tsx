import { Button, Result } from "antd";
import { useNavigate } from "react-router";
import type { ResourceDefinition } from "../../resources/contract";
import { resourceRoutes } from "./routes";

/** A record page whose record could not be read: gone (404) or another failure. */
export function RecordNotFound({ def, status }: { def: ResourceDefinition; status?: number }) {
  const navigate = useNavigate();
  const singular = def.singular.toLowerCase();
  return (
    <Result
      status={status === 404 ? "404" : "warning"}
      title={status === 404 ? `This ${singular} does not exist` : `Could not load this ${singular}`}
      subTitle={status === 404 ? "It may have been deleted." : "Check your connection and try again."}
      extra={
        <Button type="primary" onClick={() => navigate(resourceRoutes(def).list)}>
          Back to {def.label.toLowerCase()}
        </Button>
      }
    />
  );
}
