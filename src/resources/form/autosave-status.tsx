/** Beside Save: whether the draft is saved by itself (and when), or why it is not. */
import { CheckCircleOutlined, ExclamationCircleOutlined, LoadingOutlined } from "@ant-design/icons";
import { Typography } from "antd";
import { formatTimeOfDay } from "../../lib/dates";
import type { AutosaveState } from "./use-autosave";

export function AutosaveStatus({ state }: { state: AutosaveState }) {
  const text = (() => {
    switch (state.kind) {
      case "idle":
        return null;
      case "saving":
        return (
          <>
            <LoadingOutlined aria-hidden /> Saving draft…
          </>
        );
      case "saved":
        return (
          <>
            <CheckCircleOutlined aria-hidden /> Draft saved at{" "}
            {formatTimeOfDay(state.at.toTimeString().slice(0, 8))}
          </>
        );
      default:
        return (
          <>
            <ExclamationCircleOutlined aria-hidden /> {state.message}
          </>
        );
    }
  })();
  return (
    <Typography.Text
      type={state.kind === "stale" || state.kind === "waiting" ? "warning" : "secondary"}
      role="status"
      data-testid="autosave-status"
      style={{ marginRight: 8 }}
    >
      {text}
    </Typography.Text>
  );
}
