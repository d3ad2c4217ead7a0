/**
 * Asked when a save finds that someone else saved the form meanwhile (409): load their version
 * (this page's changes are dropped), or save this page's over it.
 */
import { Button, Modal, Typography } from "antd";

interface ConflictDialogProps {
  open: boolean;
  busy: boolean;
  onReload: () => void;
  onOverwrite: () => void;
  onClose: () => void;
}

export function ConflictDialog({ open, busy, onReload, onOverwrite, onClose }: ConflictDialogProps) {
  return (
    <Modal
      title="Someone else saved this form"
      open={open}
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          Cancel
        </Button>,
        <Button key="reload" onClick={onReload} disabled={busy}>
          Reload their version
        </Button>,
        <Button key="overwrite" type="primary" danger loading={busy} onClick={onOverwrite}>
          Overwrite with mine
        </Button>,
      ]}
    >
      <Typography.Paragraph>Your changes are not saved yet. You can:</Typography.Paragraph>
      <ul>
        <li>reload the form as they saved it, dropping your changes, or</li>
        <li>save yours over theirs, dropping their changes.</li>
      </ul>
    </Modal>
  );
}
