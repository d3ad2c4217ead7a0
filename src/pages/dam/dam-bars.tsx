/** The asset manager's smaller strips: folder details, the selection's toolbar, the drop overlay. */
import { CloudUploadOutlined, DeleteOutlined, DownloadOutlined, SwapOutlined } from "@ant-design/icons";
import { Button, Flex, Space, Typography, theme } from "antd";
import type { DamFolderDetails } from "../../../schemas/dam";
import { DateText } from "../../components/date-text";
import { formatBytes } from "../../lib/uploads";
import { describeSelection } from "./dam-logic";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** InnerFolderDetails: sub-folders, assets and bytes below, created and updated. */
export function FolderDetailsLine({ folder }: { folder: DamFolderDetails }) {
  return (
    <Typography.Text type="secondary" data-testid="folder-details">
      {plural(folder.folderCount, "folder")} · {plural(folder.assetCount, "asset")} ·{" "}
      {formatBytes(folder.totalSize)} · created <DateText value={folder.createdAt} /> · updated{" "}
      <DateText value={folder.updatedAt} />
    </Typography.Text>
  );
}

export interface SelectionBarProps {
  folders: number;
  assets: number;
  onMove: () => void;
  onDownload: () => void;
  onDelete: () => void;
  onClear: () => void;
}

/** What can be done to the selection at once: move, zip download, delete, clear. */
export function SelectionBar({ folders, assets, onMove, onDownload, onDelete, onClear }: SelectionBarProps) {
  const { token } = theme.useToken();
  return (
    <Flex
      role="toolbar"
      aria-label="Selection"
      align="center"
      justify="space-between"
      wrap
      gap={8}
      style={{ padding: "6px 12px", background: token.controlItemBgActive, borderRadius: token.borderRadius }}
    >
      <Typography.Text strong>{describeSelection(folders, assets)} selected</Typography.Text>
      <Space wrap>
        <Button icon={<SwapOutlined />} onClick={onMove}>
          Move to…
        </Button>
        <Button icon={<DownloadOutlined />} onClick={onDownload}>
          Download zip
        </Button>
        <Button danger icon={<DeleteOutlined />} onClick={onDelete}>
          Delete
        </Button>
        <Button type="text" onClick={onClear}>
          Clear
        </Button>
      </Space>
    </Flex>
  );
}

/** Covers the content area while files are dragged over it. */
export function DropOverlay({ target }: { target: string }) {
  const { token } = theme.useToken();
  return (
    <Flex
      align="center"
      justify="center"
      vertical
      gap={8}
      style={{
        position: "absolute",
        inset: 0,
        background: "rgba(255,255,255,0.88)",
        border: `2px dashed ${token.colorPrimary}`,
        borderRadius: token.borderRadiusLG,
        pointerEvents: "none",
        zIndex: 5,
      }}
    >
      <CloudUploadOutlined style={{ fontSize: 48, color: token.colorPrimary }} />
      <Typography.Text strong>Drop files to upload them to {target}</Typography.Text>
    </Flex>
  );
}
