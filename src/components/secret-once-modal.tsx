/**
 * A secret the server shows once (a webhook's signing secret, an API token): in a dialog with
 * a copy button and the warning that it cannot be shown again. Open while `secret` is set.
 */
import { Alert, Modal, Typography } from "antd";

export function SecretOnceModal({
  title,
  secret,
  onClose,
}: {
  title: string;
  secret: string | null;
  onClose: () => void;
}) {
  return (
    <Modal
      title={title}
      open={secret !== null}
      onOk={onClose}
      onCancel={onClose}
      cancelButtonProps={{ style: { display: "none" } }}
      okText="Done"
    >
      <Alert
        type="warning"
        showIcon
        message="Copy it now: it is not shown again."
        style={{ marginBottom: 12 }}
      />
      <Typography.Paragraph copyable code style={{ wordBreak: "break-all" }}>
        {secret}
      </Typography.Paragraph>
    </Modal>
  );
}
