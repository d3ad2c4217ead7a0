/**
 * The form page's header: where the form stands (Draft, Published vN, Unpublished changes;
 * closed to answers) and its actions (versions, share, the public page, details, save with a
 * dot while anything is unsaved, publish).
 */
import {
  CloudUploadOutlined,
  EditOutlined,
  ExportOutlined,
  HistoryOutlined,
  SaveOutlined,
  ShareAltOutlined,
} from "@ant-design/icons";
import { Badge, Button, Popconfirm, Tag, Tooltip } from "antd";
import { useNavigate } from "react-router";
import { type FormRecord, publicFormUrl } from "./forms-api";

const SAVE_KEYS =
  typeof navigator !== "undefined" && /Mac|iP(hone|ad)/.test(navigator.platform) ? "⌘S" : "Ctrl+S";

/** One tag for where the form stands: Draft, Published vN, or Unpublished changes (with the live version in its tooltip). */
export function FormStatusTags({ record }: { record: FormRecord }) {
  const published = record.status === "published";
  return (
    <>
      {!published ? (
        <Tag data-testid="form-status">Draft</Tag>
      ) : record.has_changes ? (
        <Tooltip title={`Version ${record.published_version} is live; the draft has changes since`}>
          <Tag color="gold" data-testid="form-status">
            Unpublished changes
          </Tag>
        </Tooltip>
      ) : (
        <Tag color="green" data-testid="form-status">
          Published v{record.published_version}
        </Tag>
      )}
      {!record.accepting && <Tag color="red">Closed to answers</Tag>}
    </>
  );
}

interface FormActionsProps {
  record: FormRecord;
  editPath: string;
  dirty: boolean;
  busy: "saving" | "publishing" | null;
  onVersions: () => void;
  onShare: () => void;
  onSave: () => void;
  onPublish: () => void;
}

export function FormActions(props: FormActionsProps) {
  const { record, editPath, dirty, busy, onVersions, onShare, onSave, onPublish } = props;
  const navigate = useNavigate();
  const published = record.status === "published";
  const nothingNew = published && !record.has_changes && !dirty;
  return (
    <>
      <Tooltip title="Versions">
        <Button icon={<HistoryOutlined aria-hidden />} onClick={onVersions} aria-label="Versions" />
      </Tooltip>
      <Button icon={<ShareAltOutlined aria-hidden />} onClick={onShare}>
        Share
      </Button>
      <Tooltip title={published ? undefined : "Publish the form first"}>
        <Button
          icon={<ExportOutlined aria-hidden />}
          href={published ? publicFormUrl(record.slug) : undefined}
          target="_blank"
          rel="noreferrer"
          disabled={!published}
        >
          Open public form
        </Button>
      </Tooltip>
      <Tooltip title="Name, address and description">
        <Button
          icon={<EditOutlined aria-hidden />}
          onClick={() => navigate(editPath)}
          aria-label="Edit details"
        />
      </Tooltip>
      <Tooltip title={dirty ? `Unsaved changes: save the draft (${SAVE_KEYS})` : "Everything is saved"}>
        <Badge dot={dirty} color="orange">
          <Button
            icon={<SaveOutlined aria-hidden />}
            onClick={onSave}
            disabled={!dirty}
            loading={busy === "saving"}
            aria-keyshortcuts="Control+S Meta+S"
          >
            Save draft
          </Button>
        </Badge>
      </Tooltip>
      <Tooltip title={nothingNew ? "Nothing new to publish" : undefined}>
        <Popconfirm
          title={published ? "Publish the changes?" : "Publish this form?"}
          description={
            dirty
              ? "Your changes are saved first; then the public form becomes this draft."
              : "The public form becomes this draft."
          }
          okText="Publish"
          onConfirm={onPublish}
          disabled={nothingNew}
        >
          <Button
            type="primary"
            icon={<CloudUploadOutlined aria-hidden />}
            loading={busy === "publishing"}
            disabled={nothingNew}
          >
            Publish
          </Button>
        </Popconfirm>
      </Tooltip>
    </>
  );
}
