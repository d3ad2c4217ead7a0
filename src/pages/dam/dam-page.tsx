import {
  AppstoreOutlined,
  CloudUploadOutlined,
  EditOutlined,
  FolderAddOutlined,
  UnorderedListOutlined,
} from "@ant-design/icons";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  App,
  Breadcrumb,
  Button,
  Card,
  Checkbox,
  Empty,
  Flex,
  Input,
  Pagination,
  Segmented,
  Select,
  Skeleton,
  Space,
  Typography,
} from "antd";
import {
  type DragEvent,
  type KeyboardEvent,
  type MouseEvent,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { Link, useSearchParams } from "react-router";
import type { DamAsset, DamFolder } from "../../../schemas/dam";
import { NameDialog } from "../../components/name-dialog";
import { UploadPanel } from "../../components/upload-panel";
import { useFileDrop } from "../../lib/use-file-drop";
import { AssetDrawer } from "./asset-drawer";
import {
  createFolder,
  damKeys,
  getFolder,
  listAssets,
  listFolders,
  type Selection,
  updateFolder,
} from "./dam-api";
import { DropOverlay, FolderDetailsLine, SelectionBar } from "./dam-bars";
import { assetItem, type DamItem, DamItems, folderItem } from "./dam-items";
import {
  type AssetSort,
  EMPTY_SELECTION,
  folderSortOf,
  keepVisible,
  type SelectionState,
  SORT_OPTIONS,
  select,
  splitSelection,
  toggleAll,
} from "./dam-logic";
import { DAM_DRAG_TYPE, FolderTree } from "./folder-tree";
import { MoveDialog } from "./move-dialog";
import { useDamActions } from "./use-dam-actions";
import { useDamLive } from "./use-dam-live";
import { useUploads } from "./use-uploads";

const PAGE_SIZE = 60;
/** Arrow keys as steps through the items (the grid reads left to right, row by row). */
const ARROW_STEPS: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
const VIEW_KEY = "atelier.dam.view";
const SORT_KEY = "atelier.dam.sort";

type View = "grid" | "list";
type Dialog = { kind: "create" } | { kind: "rename"; folder: DamFolder } | null;

const stored = <T extends string>(key: string, allowed: readonly T[], fallback: T): T => {
  const value = typeof localStorage === "undefined" ? null : localStorage.getItem(key);
  return allowed.includes(value as T) ? (value as T) : fallback;
};

/** The page's address for a folder (null: the top level), search and page cleared. */
const folderHref = (id: string | null) => ({ search: id ? `?folder=${encodeURIComponent(id)}` : "" });

/** The selection a drag carries: the dragged item with the rest of the selection if it is part of it. */
function draggedSelection(item: DamItem, selected: ReadonlySet<string>): Selection {
  const keys = selected.has(item.key) ? [...selected] : [item.key];
  const { selectedFolders, selectedAssets } = splitSelection(keys as DamItem["key"][]);
  return { folderIds: selectedFolders, assetIds: selectedAssets };
}

/**
 * `/dam`: the digital asset manager. A folder tree on the left; on the right the current
 * folder's breadcrumb (HierarchyFolderData), details (InnerFolderDetails), its folders and
 * assets in a grid or a list, search across folders, multi-select with bulk move, delete
 * and zip download, drag-and-drop upload with per-file progress, and live updates from
 * other admins over the `/dam` socket.
 */
export default function DamPage() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const folderId = params.get("folder");
  const q = params.get("q") ?? "";
  const page = Math.max(1, Number(params.get("page")) || 1);
  const [view, setView] = useState<View>(() => stored<View>(VIEW_KEY, ["grid", "list"], "grid"));
  const [sort, setSort] = useState<AssetSort>(() =>
    stored<AssetSort>(
      SORT_KEY,
      SORT_OPTIONS.map((o) => o.value),
      "name",
    ),
  );
  const [selection, setSelection] = useState<SelectionState>(EMPTY_SELECTION);
  const [openAsset, setOpenAsset] = useState<DamAsset | null>(null);
  const [moving, setMoving] = useState<Selection | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const { uploads, enqueue, clearFinished } = useUploads();
  const fileDrop = useFileDrop((files) => void enqueue(files, folderId));
  useDamLive();

  const searching = q.trim() !== "";
  const tag = q.startsWith("#") ? q.slice(1).trim() : undefined;

  const navigate = useCallback(
    (changes: { folder?: string | null; q?: string; page?: number }) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          const set = (key: string, value: string | null | undefined) =>
            value ? next.set(key, value) : next.delete(key);
          if ("folder" in changes) {
            set("folder", changes.folder);
            next.delete("q");
            next.delete("page");
          }
          if ("q" in changes) {
            set("q", changes.q);
            next.delete("page");
          }
          if ("page" in changes) set("page", changes.page && changes.page > 1 ? String(changes.page) : null);
          return next;
        },
        { replace: "q" in changes && !("folder" in changes) },
      );
      setSelection(EMPTY_SELECTION);
    },
    [setParams],
  );

  const details = useQuery({
    queryKey: damKeys.folder(folderId ?? ""),
    queryFn: () => getFolder(folderId as string),
    enabled: folderId !== null,
    retry: false,
  });
  const folders = useQuery({
    queryKey: damKeys.folders(folderId, folderSortOf(sort)),
    queryFn: () => listFolders(folderId, folderSortOf(sort)),
    enabled: !searching,
  });
  const assetQuery = {
    folderId,
    q: searching && !tag ? q.trim() : undefined,
    tag,
    sort,
    page,
    pageSize: PAGE_SIZE,
  };
  const assets = useQuery({
    queryKey: damKeys.assets(assetQuery),
    queryFn: () => listAssets(assetQuery),
    placeholderData: keepPreviousData,
  });

  // The folder was deleted (here or by someone else): back to the top level.
  const missing = (details.error as { response?: { status?: number } } | null)?.response?.status === 404;
  useEffect(() => {
    if (!missing) return;
    message.warning("That folder no longer exists");
    navigate({ folder: null });
  }, [missing, message, navigate]);

  const items = useMemo<DamItem[]>(
    () => [
      ...(searching ? [] : (folders.data?.data ?? []).map(folderItem)),
      ...(assets.data?.data ?? []).map(assetItem),
    ],
    [searching, folders.data, assets.data],
  );
  const order = useMemo(() => items.map((i) => i.key), [items]);
  useEffect(() => setSelection((s) => keepVisible(s, order)), [order]);

  // The drawer follows live changes of its asset.
  useEffect(() => {
    if (!openAsset) return;
    const fresh = assets.data?.data.find((a) => a.id === openAsset.id);
    if (fresh && fresh.updatedAt !== openAsset.updatedAt) setOpenAsset(fresh);
  }, [assets.data, openAsset]);

  const { selectedFolders, selectedAssets } = splitSelection(selection.selected);
  const current: Selection = { folderIds: selectedFolders, assetIds: selectedAssets };
  const count = selection.selected.size;
  const allSelected = order.length > 0 && count === order.length;

  const refresh = () => queryClient.invalidateQueries({ queryKey: damKeys.all });

  const open = (item: DamItem) => {
    if (item.kind === "folder") navigate({ folder: item.folder.id });
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

  const onItemClick = (item: DamItem, event: MouseEvent) =>
    setSelection((s) =>
      select(s, order, item.key, { toggle: event.ctrlKey || event.metaKey, range: event.shiftKey }),
    );

  const onDragStart = (item: DamItem, event: DragEvent) => {
    if (!selection.selected.has(item.key)) setSelection(select(EMPTY_SELECTION, order, item.key));
    const what = draggedSelection(item, selection.selected);
    event.dataTransfer.setData(DAM_DRAG_TYPE, JSON.stringify(what));
    event.dataTransfer.effectAllowed = "move";
  };

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

  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.target as HTMLElement).closest("input, textarea, button, [role=menu]")) return;
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "a") {
      event.preventDefault();
      setSelection({ selected: new Set(order), anchor: order[0] ?? null });
    } else if (event.key === "Escape") {
      setSelection(EMPTY_SELECTION);
    } else if (ARROW_STEPS[event.key] && order.length) {
      // Arrows walk the items from the last one clicked; Shift extends the range.
      event.preventDefault();
      const from = selection.anchor ? order.indexOf(selection.anchor) : -1;
      const at = Math.min(order.length - 1, Math.max(0, from + ARROW_STEPS[event.key]));
      const key = order[at];
      setSelection((s) => {
        const next = select(s, order, key, { range: event.shiftKey });
        return event.shiftKey ? next : { ...next, anchor: key };
      });
      document.querySelector(`[data-item="${CSS.escape(key)}"]`)?.scrollIntoView({ block: "nearest" });
    } else if ((event.key === "Delete" || event.key === "Backspace") && count) {
      event.preventDefault();
      confirmDelete(current);
    } else if (event.key === "Enter" && count === 1) {
      const item = items.find((i) => selection.selected.has(i.key));
      if (item) open(item);
    }
  };

  const place = details.data;
  const placeName = searching ? "Search results" : (place?.name ?? "All assets");
  const loading = (folders.isLoading && !searching) || assets.isLoading;
  const total = assets.data?.total ?? 0;

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
          onSelect={(id) => navigate({ folder: id })}
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
          <Breadcrumb
            items={[
              { title: <Link to={folderHref(null)}>All assets</Link> },
              ...(searching
                ? [{ title: `Search “${q}”` }]
                : (place?.path ?? []).map((p, i, path) => ({
                    title: i === path.length - 1 ? p.name : <Link to={folderHref(p.id)}>{p.name}</Link>,
                  }))),
            ]}
          />
          <Flex justify="space-between" align="center" wrap gap={8}>
            <Space align="baseline" wrap>
              <Typography.Title level={3} style={{ margin: 0 }}>
                {placeName}
              </Typography.Title>
              {place && !searching && (
                <Button
                  type="text"
                  size="small"
                  icon={<EditOutlined />}
                  aria-label="Rename this folder"
                  onClick={() => setDialog({ kind: "rename", folder: place })}
                />
              )}
            </Space>
            <Space wrap>
              <Button
                icon={<FolderAddOutlined />}
                onClick={() => setDialog({ kind: "create" })}
                disabled={searching}
              >
                New folder
              </Button>
              <Button
                type="primary"
                icon={<CloudUploadOutlined />}
                onClick={() => fileInput.current?.click()}
              >
                Upload
              </Button>
              <input
                ref={fileInput}
                type="file"
                multiple
                hidden
                aria-label="Files to upload"
                onChange={(event) => {
                  const files = [...(event.target.files ?? [])];
                  event.target.value = "";
                  void enqueue(files, folderId);
                }}
              />
            </Space>
          </Flex>
          {place && !searching && <FolderDetailsLine folder={place} />}

          <Flex justify="space-between" align="center" wrap gap={8}>
            <Space wrap>
              <Checkbox
                checked={allSelected}
                indeterminate={count > 0 && !allSelected}
                disabled={!order.length}
                onChange={() => setSelection((s) => toggleAll(s, order))}
              >
                Select all
              </Checkbox>
              <Input.Search
                key={q}
                defaultValue={q}
                allowClear
                placeholder="Search by name or #tag"
                aria-label="Search assets"
                style={{ width: 300 }}
                onSearch={(value) => navigate({ q: value.trim() })}
              />
            </Space>
            <Space wrap>
              <Select<AssetSort>
                aria-label="Sort by"
                value={sort}
                options={SORT_OPTIONS.map((o) => ({ ...o }))}
                style={{ width: 160 }}
                onChange={(value) => {
                  setSort(value);
                  localStorage.setItem(SORT_KEY, value);
                }}
              />
              <Segmented<View>
                aria-label="View"
                value={view}
                onChange={(value) => {
                  setView(value);
                  localStorage.setItem(VIEW_KEY, value);
                }}
                options={[
                  { value: "grid", icon: <AppstoreOutlined />, title: "Grid" },
                  { value: "list", icon: <UnorderedListOutlined />, title: "List" },
                ]}
              />
            </Space>
          </Flex>

          {count > 0 && (
            <SelectionBar
              folders={selectedFolders.length}
              assets={selectedAssets.length}
              onMove={() => setMoving(current)}
              onDownload={() => void download(current, placeName)}
              onDelete={() => confirmDelete(current)}
              onClear={() => setSelection(EMPTY_SELECTION)}
            />
          )}

          {/* Focusable, so the keyboard reaches the items: arrows, Shift, Ctrl+A, Enter, Delete, Escape. */}
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the listbox inside takes its keys here. */}
          <section aria-label="Folder contents" tabIndex={0} onKeyDown={onKeyDown} style={{ minHeight: 240 }}>
            {loading ? (
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
                view={view}
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
          {total > PAGE_SIZE && (
            <Pagination
              align="end"
              current={page}
              pageSize={PAGE_SIZE}
              total={total}
              showSizeChanger={false}
              showTotal={(n) => `${n} assets`}
              onChange={(next) => navigate({ page: next })}
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
          await refresh();
        }}
        onClose={() => setDialog(null)}
      />
      <UploadPanel uploads={uploads} onClear={clearFinished} />
    </Flex>
  );
}
