import { CheckCircleFilled, CloseCircleFilled, CloseOutlined, LoadingOutlined } from "@ant-design/icons";
import { Button, Card, Flex, List, Progress, Typography, theme } from "antd";
import { formatPercent } from "../../schemas/money";
import { plural } from "../lib/text";
import { formatBytes, type UploadProgress, uploadSummary } from "../lib/uploads";

const STATE_LABELS: Record<UploadProgress["state"], string> = {
  pending: "Waiting",
  uploading: "Uploading",
  done: "Done",
  error: "Failed",
};

/** The upload queue, docked at the bottom right while there is anything to show. */
export function UploadPanel({ uploads, onClear }: { uploads: UploadProgress[]; onClear: () => void }) {
  const { token } = theme.useToken();
  if (!uploads.length) return null;
  const summary = uploadSummary(uploads);
  const title = summary.active
    ? `Uploading ${plural(summary.active, "file")} · ${formatPercent(summary.percentage)}`
    : `${summary.done} uploaded${summary.failed ? `, ${summary.failed} failed` : ""}`;

  return (
    <Card
      size="small"
      role="region"
      aria-label="Uploads"
      title={title}
      extra={
        summary.active === 0 && (
          <Button
            type="text"
            size="small"
            icon={<CloseOutlined />}
            aria-label="Close uploads"
            onClick={onClear}
          />
        )
      }
      style={{
        position: "fixed",
        right: 24,
        bottom: 24,
        width: 380,
        zIndex: 1000,
        boxShadow: token.boxShadowSecondary,
      }}
      styles={{ body: { maxHeight: 320, overflowY: "auto", padding: "4px 12px" } }}
    >
      <List
        size="small"
        dataSource={uploads}
        rowKey="id"
        renderItem={(u) => (
          <List.Item data-upload-state={u.state} aria-label={`${u.name}: ${STATE_LABELS[u.state]}`}>
            <Flex vertical style={{ width: "100%" }} gap={2}>
              <Flex justify="space-between" gap={8}>
                <Typography.Text ellipsis={{ tooltip: u.name }} style={{ maxWidth: 240 }}>
                  {u.name}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ flex: "none" }}>
                  {u.state === "uploading" && <LoadingOutlined />}{" "}
                  {u.state === "done" && <CheckCircleFilled style={{ color: token.colorSuccess }} />}
                  {u.state === "error" && <CloseCircleFilled style={{ color: token.colorError }} />}{" "}
                  {STATE_LABELS[u.state]} · {formatBytes(u.size)}
                </Typography.Text>
              </Flex>
              <Progress
                percent={u.percentage}
                size="small"
                status={u.state === "error" ? "exception" : u.state === "done" ? "success" : "active"}
                aria-label={`${u.name} progress`}
              />
              {u.message && (
                <Typography.Text type="danger" style={{ fontSize: token.fontSizeSM }}>
                  {u.message}
                </Typography.Text>
              )}
            </Flex>
          </List.Item>
        )}
      />
    </Card>
  );
}
