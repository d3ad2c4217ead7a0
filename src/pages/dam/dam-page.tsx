import { useQueryClient } from "@tanstack/react-query";
import { App, Card, Empty, Flex, Pagination, Skeleton } from "antd";
import { type DragEvent, useCallback, useEffect, useMemo, useState } from "react";
import type { DamAsset, DamFolder } from "../../../schemas/dam";
import { LoadError } from "../../components/load-error";
import { NameDialog } from "../../components/name-dialog";
import { UploadPanel } from "../../components/upload-panel";
import { useFileDrop } from "../../hooks/use-file-drop";
import { plural } from "../../lib/text";
import { AssetDrawer } from "./asset-drawer";
import { createFolder, damKeys, type Selection, updateFolder } from "./dam-api";
import { DropOverlay, SelectionBar } from "./dam-bars";
import { DamHeader } from "./dam-header";
import { type DamItem, DamItems } from "./dam-items";
import {
  EMPTY_SELECTION,
  keepVisible,
  type SelectionState,
  select,
  splitSelection,
  toggleAll,
} from "./dam-logic";
import { DamToolbar, useDamDisplay } from "./dam-toolbar";
import { DAM_DRAG_TYPE, FolderTree } from "./folder-tree";
import { MoveDialog } from "./move-dialog";
import { useDamActions } from "./use-dam-actions";
import { PAGE_SIZE, useDamContents } from "./use-dam-contents";
import { useDamLive } from "./use-dam-live";
import { useDamLocation } from "./use-dam-location";
import { useDamPointerKeys } from "./use-dam-pointer-keys";
import { useUploads } from "./use-uploads";

type Dialog = { kind: "create" } | { kind: "rename"; folder: DamFolder } | null;

/**
 * `/dam`: the digital asset manager. A folder tree on the left; on the right the current
 * folder's breadcrumb (HierarchyFolderData), details (InnerFolderDetails), its folders and
 * assets in a grid or a list, search across folders, multi-select with bulk move, delete
 * and zip download, drag-and-drop upload with per-file progress, and live updates from
 * other admins over the `/dam` socket. A load that fails shows what failed and Retry in place
 * of the items, never "This folder is empty".
 */
export default function DamPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [selection, setSelection] = useState<SelectionState>(EMPTY_SELECTION);
  const clearSelection = useCallback(() => setSelection(EMPTY_SELECTION), []);
  const location = useDamLocation(clearSelection);
  const { folderId, q, page, searching, go } = location;
  const display = useDamDisplay();
  const [openAsset, setOpenAsset] = useState<DamAsset | null>(null);
  const [moving, setMoving] = useState<Selection | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const { uploads, enqueue, clearFinished } = useUploads();
  const fileDrop = useFileDrop((files) => void enqueue(files, folderId));
  useDamLive();

  const { place, items, assets, loading, failure } = useDamContents(location, display.sort, go);
  const order = useMemo(() => items.map((i) => i.key), [items]);
  useEffect(() => setSelection((s) => keepVisible(s, order)), [order]);

  // The drawer follows live changes of its asset.
  useEffect(() => {
    if (!openAsset) return;
    const fresh = assets?.data.find((a) => a.id === openAsset.id);
    if (fresh && fresh.updatedAt !== openAsset.updatedAt) setOpenAsset(fresh);
  }, [assets, openAsset]);

  const { selectedFolders, selectedAssets } = splitSelection(selection.selected);
  const current: Selection = { folderIds: selectedFolders, assetIds: selectedAssets };
  const count = selection.selected.size;

  const open = (item: DamItem) => {
    if (item.kind === "folder") go({ folder: item.folder.id });
    else setOpenAsset(item.asset);
  };

  const { move, confirmDelete, download, itemMenu } = useDamActions({
    onChanged: () => {
      setSelection(EMPTY_SELECTION);
      setMoving(null);
    },
    onOpen: open,
    onRename: (folder) => setDialog({ kind: "rename", folder }),
    onAskMove: setMoving,
  });
  const { onItemClick, onDragStart, onKeyDown } = useDamPointerKeys({
    items,
    order,
    selection,
    setSelection,
    open,
    remove: () => confirmDelete(current),
  });

  /** Dropped on a folder (tree or list): dragged items move there, files upload there. */
  const onDropInto = (target: string | null, event: DragEvent) => {
    const raw = event.dataTransfer.getData(DAM_DRAG_TYPE);
    if (raw) {
      const what = JSON.parse(raw) as Selection;
      if (what.folderIds.includes(target ?? "")) return;
      void move(what, target);
    } else if (event.dataTransfer.files.length) {
      void enqueue([...event.dataTransfer.files], target);
    }
  };

  const placeName = searching ? "Search results" : (place?.name ?? "All assets");
  const total = assets?.total ?? 0;

  return (
    <Flex gap={16} align="flex-start" style={{ minHeight: "calc(100vh - 140px)" }}>
      <Card
        size="small"
        title="Folders"
        style={{ width: 260, flex: "none", position: "sticky", top: 16 }}
        styles={{ body: { maxHeight: "calc(100vh - 200px)", overflow: "auto", padding: 8 } }}
      >
        <FolderTree
          value={searching ? undefined : folderId}
          onSelect={(id) => go({ folder: id })}
          openPath={place?.path.map((p) => p.id)}
          onDropItems={onDropInto}
        />
      </Card>

      <Card
        style={{ flex: 1, minWidth: 0, position: "relative" }}
        styles={{ body: { padding: 16 } }}
        {...fileDrop.handlers}
      >
        <Flex vertical gap={12}>
          <DamHeader
            place={place}
            placeName={placeName}
            search={searching ? q : null}
            onRename={() => place && setDialog({ kind: "rename", folder: place })}
            onNewFolder={() => setDialog({ kind: "create" })}
            onFiles={(files) => void enqueue(files, folderId)}
          />
          <DamToolbar
            {...display}
            q={q}
            onSearch={(text) => go({ q: text })}
            shown={order.length}
            selected={count}
            onToggleAll={() => setSelection((s) => toggleAll(s, order))}
          />

          {count > 0 && (
            <SelectionBar
              folders={selectedFolders.length}
              assets={selectedAssets.length}
              onMove={() => setMoving(current)}
              onDownload={() => void download(current, placeName)}
              onDelete={() => confirmDelete(current)}
              onClear={clearSelection}
            />
          )}

          {/* Focusable, so the keyboard reaches the items: arrows, Shift, Ctrl+A, Enter, Delete, Escape. */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the listbox inside takes its keys here. */}
          <section aria-label="Folder contents" tabIndex={0} onKeyDown={onKeyDown} style={{ minHeight: 240 }}>
            {failure ? (
              <LoadError what="folder contents" error={failure.error} onRetry={failure.retry} />
            ) : loading ? (
              <Skeleton active paragraph={{ rows: 6 }} />
            ) : items.length === 0 ? (
              <Empty
                style={{ padding: 48 }}
                description={
                  searching
                    ? `Nothing matches “${q}”`
                    : "This folder is empty. Drop files here or use Upload."
                }
              />
            ) : (
              <DamItems
                items={items}
                view={display.view}
                selected={selection.selected}
                onClick={onItemClick}
                onToggle={(item) => setSelection((s) => select(s, order, item.key, { toggle: true }))}
                onOpen={open}
                onDragStart={onDragStart}
                onDropOnFolder={(folder, event) => onDropInto(folder.id, event)}
                itemMenu={itemMenu}
              />
            )}
          </section>
          {!failure && total > PAGE_SIZE && (
            <Pagination
              align="end"
              current={page}
              pageSize={PAGE_SIZE}
              total={total}
              showSizeChanger={false}
              showTotal={(n) => plural(n, "asset")}
              onChange={(next) => go({ page: next })}
            />
          )}
        </Flex>

        {fileDrop.dropping && <DropOverlay target={searching ? "All assets" : placeName} />}
      </Card>

      <AssetDrawer asset={openAsset} onClose={() => setOpenAsset(null)} />
      <MoveDialog
        selection={moving}
        from={folderId}
        onMove={(target) => (moving ? move(moving, target) : Promise.resolve())}
        onClose={() => setMoving(null)}
      />
      <NameDialog
        title={dialog ? (dialog.kind === "create" ? "New folder" : "Rename folder") : null}
        initial={dialog?.kind === "rename" ? dialog.folder.name : ""}
        okText={dialog?.kind === "create" ? "Create" : "Rename"}
        onSubmit={async (name) => {
          if (dialog?.kind === "rename") {
            await updateFolder(dialog.folder.id, { name });
            message.success(`Renamed to ${name}`);
          } else {
            await createFolder(name, folderId);
            message.success(`Folder ${name} created`);
          }
          await queryClient.invalidateQueries({ queryKey: damKeys.all });
        }}
        onClose={() => setDialog(null)}
      />
      <UploadPanel uploads={uploads} onClear={clearFinished} />
    </Flex>
  );
}
