import { Button, Result } from "antd";
import { useNavigate } from "react-router";
import { NO_MODULE_ACCESS } from "../../../providers/access-control";

/** The 403 screen for a module the user has not been granted. */
export function Forbidden() {
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title={NO_MODULE_ACCESS}
      subTitle="Ask an administrator to grant you this module."
      extra={
        <Button type="primary" onClick={() => navigate("/")}>
          Back to home
        </Button>
      }
    />
  );
}
