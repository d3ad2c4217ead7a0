/**
 * What a person does to folders and assets, with the messages they see: move, delete
 * (after a confirmation), zip download, and the "⋮" menu of each item. The page decides
 * what happens around them (clearing the selection, closing dialogs) through `onChanged`.
 */
import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  FolderOpenOutlined,
  InfoCircleOutlined,
  SwapOutlined,
} from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { App, type MenuProps } from "antd";
import type { DamFolder } from "../../../schemas/dam";
import { getErrorMessage } from "../../lib/errors";
import { damKeys, deleteSelection, downloadSelection, moveSelection, type Selection } from "./dam-api";
import type { DamItem } from "./dam-items";
import { describeSelection } from "./dam-logic";

export interface DamActionHandlers {
  /** After a move or a delete went through. */
  onChanged: () => void;
  /** Opens a folder or an asset's details. */
  onOpen: (item: DamItem) => void;
  onRename: (folder: DamFolder) => void;
  /** Asks where to move these ("Move to…" dialog). */
  onAskMove: (what: Selection) => void;
}

const one = (item: DamItem): Selection =>
  item.kind === "folder"
    ? { folderIds: [item.folder.id], assetIds: [] }
    : { folderIds: [], assetIds: [item.asset.id] };

export function useDamActions({ onChanged, onOpen, onRename, onAskMove }: DamActionHandlers) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: damKeys.all });

  const move = async (what: Selection, target: string | null) => {
    try {
      const moved = await moveSelection(what, target);
      message.success(`Moved ${describeSelection(moved.folders, moved.assets)}`);
      onChanged();
      await refresh();
    } catch (error) {
      message.error(getErrorMessage(error));
    }
  };

  const confirmDelete = (what: Selection) => {
    const label = describeSelection(what.folderIds.length, what.assetIds.length);
    modal.confirm({
      title: `Delete ${label}?`,
      content: what.folderIds.length
        ? "Folders are deleted with everything in them. This cannot be undone."
        : "The files are removed from storage. This cannot be undone.",
      okText: "Yes, delete",
      okButtonProps: { danger: true },
      cancelText: "Cancel",
      onOk: async () => {
        try {
          const deleted = await deleteSelection(what);
          message.success(`Deleted ${describeSelection(deleted.folders, deleted.assets)}`);
          onChanged();
          await refresh();
        } catch (error) {
          message.error(getErrorMessage(error));
        }
      },
    });
  };

  const download = async (what: Selection, name: string) => {
    const hide = message.loading("Preparing the download…", 0);
    try {
      await downloadSelection(what, `${name}.zip`);
    } catch (error) {
      message.error(getErrorMessage(error));
    } finally {
      hide();
    }
  };

  /** The "⋮" menu of one folder or asset. */
  const itemMenu = (item: DamItem): MenuProps["items"] => [
    item.kind === "folder"
      ? { key: "open", label: "Open", icon: <FolderOpenOutlined />, onClick: () => onOpen(item) }
      : { key: "open", label: "Details", icon: <InfoCircleOutlined />, onClick: () => onOpen(item) },
    item.kind === "folder"
      ? { key: "rename", label: "Rename", icon: <EditOutlined />, onClick: () => onRename(item.folder) }
      : {
          key: "download",
          icon: <DownloadOutlined />,
          label: (
            <a href={item.asset.url} download={item.asset.originalName}>
              Download
            </a>
          ),
        },
    { key: "move", label: "Move to…", icon: <SwapOutlined />, onClick: () => onAskMove(one(item)) },
    ...(item.kind === "folder"
      ? [
          {
            key: "zip",
            label: "Download as zip",
            icon: <DownloadOutlined />,
            onClick: () => void download(one(item), item.folder.name),
          },
        ]
      : []),
    { type: "divider" },
    {
      key: "delete",
      label: "Delete",
      danger: true,
      icon: <DeleteOutlined />,
      onClick: () => confirmDelete(one(item)),
    },
  ];

  return { move, confirmDelete, download, itemMenu };
}
