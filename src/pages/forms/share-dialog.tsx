/**
 * Share a form: its public page's address, and the snippets that put it in another site (inline,
 * or in an iframe that takes its content's height), each with a copy button.
 */
import { CopyOutlined } from "@ant-design/icons";
import { Alert, App, Button, Flex, Input, Modal, Typography } from "antd";
import { embedSnippet, publicFormUrl } from "./forms-api";

interface ShareDialogProps {
  open: boolean;
  slug: string;
  published: boolean;
  onClose: () => void;
}

function CopyRow({
  id,
  label,
  text,
  multiline,
}: {
  id: string;
  label: string;
  text: string;
  multiline?: boolean;
}) {
  const { message } = App.useApp();
  const copy = () =>
    navigator.clipboard?.writeText(text).then(
      () => message.success(`${label} copied`),
      () => message.error("Could not copy: select the text and copy it"),
    );
  return (
    <div>
      <Flex justify="space-between" align="center" style={{ marginBottom: 4 }}>
        <label htmlFor={id}>
          <Typography.Text strong>{label}</Typography.Text>
        </label>
        <Button
          size="small"
          icon={<CopyOutlined aria-hidden />}
          onClick={copy}
          aria-label={`Copy ${label.toLowerCase()}`}
        >
          Copy
        </Button>
      </Flex>
      {multiline ? (
        <Input.TextArea
          id={id}
          value={text}
          readOnly
          autoSize
          className="fb-mono"
          onFocus={(e) => e.target.select()}
        />
      ) : (
        <Input id={id} value={text} readOnly onFocus={(e) => e.target.select()} />
      )}
    </div>
  );
}

export function ShareDialog({ open, slug, published, onClose }: ShareDialogProps) {
  return (
    <Modal title="Share the form" open={open} onCancel={onClose} footer={null} width={640} destroyOnHidden>
      <Flex vertical gap={16}>
        {!published && (
          <Alert
            type="info"
            showIcon
            message="Publish the form first: the address and the snippets work once it is."
          />
        )}
        <CopyRow id="share-url" label="Page address" text={publicFormUrl(slug)} />
        <CopyRow id="share-embed" label="Embed snippet" text={embedSnippet(slug, "inline")} multiline />
        <CopyRow id="share-iframe" label="Embed in an iframe" text={embedSnippet(slug, "iframe")} multiline />
        <Typography.Text type="secondary">
          Paste a snippet where the form should appear. The iframe keeps the site's styles away from the form
          and takes the height of its content.
        </Typography.Text>
      </Flex>
    </Modal>
  );
}
