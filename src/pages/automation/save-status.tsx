/** The builder's word on its draft: saving, saved, unsaved, not saved (and why), or overtaken. */
import { Button, Typography } from "antd";

export type SaveState =
  | { state: "idle" | "saving" | "saved" }
  | { state: "error"; message: string }
  | { state: "conflict" };

export function SaveStatus({
  save,
  unsaved,
  onReload,
}: {
  save: SaveState;
  unsaved: boolean;
  onReload: () => void;
}) {
  if (save.state === "conflict")
    return (
      <Typography.Text type="danger" role="status">
        Someone else saved this draft since you opened it.{" "}
        <Button size="small" onClick={onReload}>
          Load their version
        </Button>
      </Typography.Text>
    );
  if (save.state === "error")
    return (
      <Typography.Text type="danger" role="status">
        Draft not saved: {save.message}
      </Typography.Text>
    );
  return (
    <Typography.Text type="secondary" role="status">
      {save.state === "saving"
        ? "Saving draft…"
        : unsaved
          ? "Unsaved changes"
          : save.state === "saved"
            ? "Draft saved"
            : "Draft"}
    </Typography.Text>
  );
}
