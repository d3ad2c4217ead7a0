import { FolderOpenOutlined, FolderOutlined, HomeOutlined } from "@ant-design/icons";
import { useQueries } from "@tanstack/react-query";
import { Tree, type TreeDataNode, theme } from "antd";
import { type DragEvent, useEffect, useMemo, useState } from "react";
import type { DamFolder } from "../../../schemas/dam";
import { LoadError } from "../../components/load-error";
import { loadFailed } from "../../lib/load-failure";
import { damKeys, listFolders } from "./dam-api";

/** The tree's key of the top level. */
export const ROOT_KEY = "root";

/** The MIME type of a drag of selected DAM items (JSON `{ folderIds, assetIds }`). */
export const DAM_DRAG_TYPE = "application/x-atelier-dam";

export interface FolderTreeProps {
  /** The selected folder; null: the top level; undefined: none. */
  value: string | null | undefined;
  onSelect: (folderId: string | null) => void;
  /** Ids from the top down to `value`: opened so the selected folder is visible. */
  openPath?: readonly string[];
  /** Folders that cannot be chosen (a move's own folders). */
  disabledIds?: ReadonlySet<string>;
  /** Items or files dropped onto a folder (null: the top level). */
  onDropItems?: (target: string | null, event: DragEvent) => void;
  rootLabel?: string;
}

/**
 * The folder hierarchy, loaded level by level as it is opened (each level is a React Query
 * that live updates refresh). With `onDropItems`, every folder is a drop target for
 * dragged items and files.
 */
export function FolderTree({
  value,
  onSelect,
  openPath = [],
  disabledIds,
  onDropItems,
  rootLabel = "All assets",
}: FolderTreeProps) {
  const { token } = theme.useToken();
  const [expanded, setExpanded] = useState<string[]>([ROOT_KEY]);
  const [dropKey, setDropKey] = useState<string | null>(null);

  const openPathKey = openPath.join("/");
  useEffect(() => {
    if (!openPathKey) return;
    const ids = openPathKey.split("/");
    // Open the ancestors; the folder itself stays as the user left it.
    setExpanded((keys) => [...new Set([...keys, ROOT_KEY, ...ids.slice(0, -1)])]);
  }, [openPathKey]);

  const levels = useQueries({
    queries: expanded.map((key) => {
      const parentId = key === ROOT_KEY ? null : key;
      return { queryKey: damKeys.folders(parentId), queryFn: () => listFolders(parentId) };
    }),
  });

  const treeData = useMemo(() => {
    const children = new Map<string, DamFolder[]>();
    expanded.forEach((key, i) => {
      const data = levels[i]?.data?.data;
      if (data) children.set(key, data);
    });
    const build = (key: string, seen: Set<string>): TreeDataNode[] | undefined =>
      children.get(key)?.map((f) => ({
        key: f.id,
        title: f.name,
        isLeaf: f.hasChildren === false,
        disabled: disabledIds?.has(f.id),
        children: seen.has(f.id) ? undefined : build(f.id, new Set([...seen, f.id])),
      }));
    return [{ key: ROOT_KEY, title: rootLabel, children: build(ROOT_KEY, new Set()) }];
  }, [expanded, levels, disabledIds, rootLabel]);

  const dropHandlers = (key: string) =>
    onDropItems && !disabledIds?.has(key)
      ? {
          onDragOver: (event: DragEvent) => {
            const types = event.dataTransfer.types;
            if (!types.includes(DAM_DRAG_TYPE) && !types.includes("Files")) return;
            event.preventDefault();
            event.dataTransfer.dropEffect = types.includes("Files") ? "copy" : "move";
            setDropKey(key);
          },
          onDragLeave: () => setDropKey((k) => (k === key ? null : k)),
          onDrop: (event: DragEvent) => {
            event.preventDefault();
            event.stopPropagation();
            setDropKey(null);
            onDropItems(key === ROOT_KEY ? null : key, event);
          },
        }
      : {};

  // The top level did not load: say so in place of a tree that would only show "All assets".
  const root = levels[0];
  if (root && loadFailed(root)) {
    return <LoadError compact what="folders" error={root.error} onRetry={() => root.refetch()} />;
  }

  return (
    <Tree
      blockNode
      showIcon
      aria-label="Folders"
      treeData={treeData}
      expandedKeys={expanded}
      selectedKeys={value === undefined ? [] : [value ?? ROOT_KEY]}
      onExpand={(keys) => setExpanded(keys.map(String))}
      onSelect={(_keys, info) => {
        // Clicking the selected node again keeps it selected.
        const key = String(info.node.key);
        onSelect(key === ROOT_KEY ? null : key);
      }}
      icon={(node) =>
        (node as { data?: TreeDataNode }).data?.key === ROOT_KEY ? (
          <HomeOutlined />
        ) : (node as { expanded?: boolean }).expanded ? (
          <FolderOpenOutlined />
        ) : (
          <FolderOutlined />
        )
      }
      titleRender={(node) => (
        <span
          data-folder-drop={String(node.key)}
          {...dropHandlers(String(node.key))}
          style={{
            borderRadius: token.borderRadiusSM,
            outline: dropKey === node.key ? `2px dashed ${token.colorPrimary}` : undefined,
          }}
        >
          {String(node.title)}
        </span>
      )}
    />
  );
}
