import { StopOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useNavigate } from "react-router";
import { NO_MODULE_ACCESS } from "../../../providers/access-control";
import { StatusBlock } from "../../components/status-block";

/** The 403 screen for a module the user has not been granted. */
export function Forbidden() {
  const navigate = useNavigate();
  return (
    <StatusBlock
      icon={<StopOutlined style={{ color: "var(--ant-color-warning)" }} />}
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
