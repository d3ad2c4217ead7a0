import { Button, Result, theme } from "antd";
import { useNavigate } from "react-router";
import type { ModuleDefinition } from "../../../resources/modules";
import { ModuleIcon } from "../../components/module-icons";

/** `/<module key>` for a module whose screens are not part of this build yet. */
export default function ModuleLandingPage({ module }: { module: ModuleDefinition }) {
  const { token } = theme.useToken();
  const navigate = useNavigate();
  return (
    <Result
      icon={<ModuleIcon name={module.icon} style={{ color: token.colorPrimary }} />}
      title={module.name}
      subTitle={
        <>
          {module.description}.
          <br />
          This module is not available in this build yet.
        </>
      }
      extra={
        <Button type="primary" onClick={() => navigate("/")}>
          Back to home
        </Button>
      }
    />
  );
}
