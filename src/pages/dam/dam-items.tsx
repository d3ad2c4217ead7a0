import {
  FileOutlined,
  FilePdfOutlined,
  FolderFilled,
  MoreOutlined,
  PlayCircleOutlined,
  SoundOutlined,
} from "@ant-design/icons";
import { Button, Checkbox, Dropdown, Flex, type MenuProps, Table, Typography, theme } from "antd";
import { type DragEvent, type MouseEvent, type ReactNode, useState } from "react";
import type { DamAsset, DamFolder } from "../../../schemas/dam";
import { DateText } from "../../components/date-text";
import { formatBytes } from "../../lib/uploads";
import { type ItemKey, itemKey } from "./dam-logic";
import { DAM_DRAG_TYPE } from "./folder-tree";

/** A row of the content area: a folder or an asset. */
export type DamItem =
  | { key: ItemKey; kind: "folder"; folder: DamFolder }
  | { key: ItemKey; kind: "asset"; asset: DamAsset };

export const folderItem = (folder: DamFolder): DamItem => ({
  key: itemKey("folder", folder.id),
  kind: "folder",
  folder,
});
export const assetItem = (asset: DamAsset): DamItem => ({
  key: itemKey("asset", asset.id),
  kind: "asset",
  asset,
});

const nameOf = (item: DamItem) => (item.kind === "folder" ? item.folder.name : item.asset.name);

export interface DamItemsProps {
  items: DamItem[];
  view: "grid" | "list";
  selected: ReadonlySet<ItemKey>;
  onClick: (item: DamItem, event: MouseEvent) => void;
  /** Toggles one item (its checkbox). */
  onToggle: (item: DamItem) => void;
  /** Double-click or Enter: a folder opens, an asset shows its details. */
  onOpen: (item: DamItem) => void;
  onDragStart: (item: DamItem, event: DragEvent) => void;
  /** Items or files dropped on a folder of the list. */
  onDropOnFolder: (folder: DamFolder, event: DragEvent) => void;
  /** The "⋮" menu of an item. */
  itemMenu: (item: DamItem) => MenuProps["items"];
}

function MimeIcon({ mime, size }: { mime: string; size: number }) {
  const style = { fontSize: size, opacity: 0.55 };
  if (mime === "application/pdf") return <FilePdfOutlined style={style} />;
  if (mime.startsWith("video/")) return <PlayCircleOutlined style={style} />;
  if (mime.startsWith("audio/")) return <SoundOutlined style={style} />;
  return <FileOutlined style={style} />;
}

/** A thumbnail of an asset (or its type's icon), `size` px square. */
export function AssetThumb({ asset, size }: { asset: DamAsset; size: number }) {
  return asset.thumbnailUrl ? (
    <img
      src={asset.thumbnailUrl}
      alt={asset.alt || asset.name}
      loading="lazy"
      draggable={false}
      style={{ width: "100%", height: size, objectFit: "contain", display: "block" }}
    />
  ) : (
    <Flex align="center" justify="center" style={{ height: size }}>
      <MimeIcon mime={asset.mime} size={Math.round(size / 3)} />
    </Flex>
  );
}

/** Drop-target handlers for a folder of the content area, with its highlight. */
function useFolderDrop(onDrop: (folder: DamFolder, event: DragEvent) => void) {
  const [over, setOver] = useState<string | null>(null);
  const handlers = (item: DamItem) =>
    item.kind === "folder"
      ? {
          onDragOver: (event: DragEvent) => {
            const types = event.dataTransfer.types;
            if (!types.includes(DAM_DRAG_TYPE) && !types.includes("Files")) return;
            event.preventDefault();
            event.stopPropagation();
            setOver(item.key);
          },
          onDragLeave: () => setOver((k) => (k === item.key ? null : k)),
          onDrop: (event: DragEvent) => {
            event.preventDefault();
            event.stopPropagation();
            setOver(null);
            onDrop(item.folder, event);
          },
        }
      : {};
  return { over, handlers };
}

/**
 * The folders and assets of the current place, as a grid of cards or a table. For assistive
 * technology each item is a row whose `aria-selected` is the selection: a row, not a listbox
 * option, because an item holds its own controls (its checkbox and its actions), and an
 * option's content is presentational (axe: nested-interactive).
 */
export function DamItems(props: DamItemsProps) {
  const { items, view, selected, onClick, onToggle, onOpen, onDragStart, onDropOnFolder, itemMenu } = props;
  const { token } = theme.useToken();
  const { over, handlers } = useFolderDrop(onDropOnFolder);

  const common = (item: DamItem) => ({
    role: "row" as const,
    "aria-selected": selected.has(item.key),
    "aria-label": `${item.kind === "folder" ? "Folder" : "Asset"} ${nameOf(item)}`,
    "data-item": item.key,
    draggable: true,
    onClick: (event: MouseEvent) => onClick(item, event),
    onDoubleClick: () => onOpen(item),
    onDragStart: (event: DragEvent) => onDragStart(item, event),
    ...handlers(item),
  });

  const menuButton = (item: DamItem): ReactNode => (
    <Dropdown menu={{ items: itemMenu(item) }} trigger={["click"]}>
      <Button
        type="text"
        size="small"
        icon={<MoreOutlined />}
        aria-label={`Actions for ${nameOf(item)}`}
        onClick={(e) => e.stopPropagation()}
        onDoubleClick={(e) => e.stopPropagation()}
      />
    </Dropdown>
  );

  // The checkbox toggles its item alone: its clicks never reach the item's own handlers.
  const checkbox = (item: DamItem) => (
    // biome-ignore lint/a11y/noStaticElementInteractions: only stops the checkbox's clicks from bubbling.
    // biome-ignore lint/a11y/useKeyWithClickEvents: the checkbox inside takes the keyboard.
    <span onClick={(e) => e.stopPropagation()} onDoubleClick={(e) => e.stopPropagation()}>
      <Checkbox
        checked={selected.has(item.key)}
        aria-label={`Select ${nameOf(item)}`}
        onChange={() => onToggle(item)}
      />
    </span>
  );

  if (view === "list") {
    return (
      <section aria-label="Folders and assets">
        <Table<DamItem>
          dataSource={items}
          rowKey="key"
          size="small"
          pagination={false}
          scroll={{ x: 640 }}
          onRow={(item) =>
            ({
              ...common(item),
              style: {
                cursor: "default",
                userSelect: "none",
                background:
                  selected.has(item.key) || over === item.key ? token.controlItemBgActive : undefined,
              },
            }) as React.HTMLAttributes<HTMLElement>
          }
        >
          <Table.Column<DamItem> key="select" width={40} render={(_, item) => checkbox(item)} />
          <Table.Column<DamItem>
            key="thumb"
            width={56}
            render={(_, item) =>
              item.kind === "folder" ? (
                <FolderFilled style={{ fontSize: 28, color: token.colorWarning }} />
              ) : (
                <div style={{ width: 40 }}>
                  <AssetThumb asset={item.asset} size={40} />
                </div>
              )
            }
          />
          <Table.Column<DamItem>
            key="name"
            title="Name"
            render={(_, item) => (
              <Typography.Text ellipsis={{ tooltip: nameOf(item) }}>{nameOf(item)}</Typography.Text>
            )}
          />
          <Table.Column<DamItem>
            key="type"
            title="Type"
            width={150}
            render={(_, item) => (item.kind === "folder" ? "Folder" : item.asset.mime)}
          />
          <Table.Column<DamItem>
            key="size"
            title="Size"
            width={100}
            render={(_, item) => (item.kind === "asset" ? formatBytes(item.asset.size) : "—")}
          />
          <Table.Column<DamItem>
            key="created"
            title="Added"
            width={180}
            render={(_, item) => (
              <DateText value={item.kind === "folder" ? item.folder.createdAt : item.asset.createdAt} />
            )}
          />
          <Table.Column<DamItem> key="more" width={48} render={(_, item) => menuButton(item)} />
        </Table>
      </section>
    );
  }

  return (
    // biome-ignore lint/a11y/useSemanticElements: a wrapping grid of cards, laid out by CSS, not a table.
    <div
      role="grid"
      aria-multiselectable
      aria-label="Folders and assets"
      style={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(156px, 1fr))", gap: 12 }}
    >
      {items.map((item) => {
        const isSelected = selected.has(item.key);
        return (
          <div
            key={item.key}
            {...common(item)}
            style={{
              position: "relative",
              border: `1px solid ${isSelected || over === item.key ? token.colorPrimary : token.colorBorderSecondary}`,
              outline: over === item.key ? `2px dashed ${token.colorPrimary}` : undefined,
              background: isSelected ? token.controlItemBgActive : token.colorBgContainer,
              borderRadius: token.borderRadiusLG,
              padding: 8,
              cursor: "default",
              userSelect: "none",
            }}
          >
            {/* One cell per card: the grid's rows are the cards (a card is one item). */}
            {/* biome-ignore lint/a11y/useSemanticElements: a card's one cell, inside a CSS grid of cards. */}
            <div role="gridcell" tabIndex={-1}>
              <Flex
                justify="space-between"
                align="center"
                style={{ position: "absolute", inset: "6px 6px auto 8px", zIndex: 1 }}
              >
                {checkbox(item)}
                {menuButton(item)}
              </Flex>
              {item.kind === "folder" ? (
                <Flex align="center" justify="center" style={{ height: 112 }}>
                  <FolderFilled style={{ fontSize: 64, color: token.colorWarning }} />
                </Flex>
              ) : (
                <div style={{ background: token.colorFillQuaternary, borderRadius: token.borderRadius }}>
                  <AssetThumb asset={item.asset} size={112} />
                </div>
              )}
              <Typography.Text
                strong
                ellipsis={{ tooltip: nameOf(item) }}
                style={{ display: "block", marginTop: 8 }}
              >
                {nameOf(item)}
              </Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                {item.kind === "folder"
                  ? "Folder"
                  : `${formatBytes(item.asset.size)}${item.asset.width ? ` · ${item.asset.width}×${item.asset.height}` : ""}`}
              </Typography.Text>
            </div>
          </div>
        );
      })}
    </div>
  );
}
