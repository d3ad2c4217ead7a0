import { CheckCircleFilled, CloudUploadOutlined } from "@ant-design/icons";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button, Empty, Flex, Input, Modal, Pagination, Skeleton, Typography, theme } from "antd";
import { useEffect, useRef, useState } from "react";
import type { AssetType, DamAsset } from "../../../schemas/dam";
import { UploadPanel } from "../../components/upload-panel";
import { formatBytes } from "../../lib/uploads";
import { damKeys, listAssets } from "./dam-api";
import { AssetThumb } from "./dam-items";
import { FolderTree } from "./folder-tree";
import { useDamLive } from "./use-dam-live";
import { useUploads } from "./use-uploads";

const PAGE_SIZE = 24;

const KIND_LABELS: Record<AssetType, [one: string, many: string]> = {
  image: ["image", "images"],
  video: ["video", "videos"],
  audio: ["audio file", "audio files"],
  pdf: ["PDF", "PDFs"],
};

export interface AssetPickerProps {
  open: boolean;
  /** Only assets of this kind are offered (and uploads land in the folder shown). */
  type?: AssetType;
  /** How many may be chosen at once (the field's free places); 1 makes a single choice. */
  max?: number;
  onPick: (assets: DamAsset[]) => void;
  onClose: () => void;
}

/**
 * Chooses assets from the asset manager for a media field: browse folders or search every
 * folder, upload into the folder shown, then click to select (up to `max`) and insert.
 * A double-click inserts that one asset at once. Default export, so forms load it lazily.
 */
export default function AssetPicker({
  open,
  type,
  max = Number.POSITIVE_INFINITY,
  onPick,
  onClose,
}: AssetPickerProps) {
  const { token } = theme.useToken();
  const [folderId, setFolderId] = useState<string | null>(null);
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<DamAsset[]>([]);
  const fileInput = useRef<HTMLInputElement>(null);
  const { uploads, enqueue, clearFinished } = useUploads();
  useDamLive();

  useEffect(() => {
    if (open) setChosen([]);
  }, [open]);

  const query = { folderId, q: q || undefined, type, sort: "-createdAt", page, pageSize: PAGE_SIZE };
  const assets = useQuery({
    queryKey: damKeys.assets(query),
    queryFn: () => listAssets(query),
    placeholderData: keepPreviousData,
    enabled: open,
  });

  const [one, many] = type ? KIND_LABELS[type] : ["asset", "assets"];
  const isChosen = (asset: DamAsset) => chosen.some((a) => a.id === asset.id);
  const toggle = (asset: DamAsset) =>
    setChosen((list) => {
      if (list.some((a) => a.id === asset.id)) return list.filter((a) => a.id !== asset.id);
      if (max === 1) return [asset];
      return list.length >= max ? list : [...list, asset];
    });
  const full = max !== 1 && chosen.length >= max;
  const data = assets.data?.data ?? [];

  return (
    <Modal
      title={`Choose ${max === 1 ? `an ${one}` : many} from assets`}
      open={open}
      onCancel={onClose}
      width={980}
      destroyOnHidden
      footer={
        <Flex justify="space-between" align="center">
          <Typography.Text type="secondary">
            {chosen.length
              ? `${chosen.length} selected${Number.isFinite(max) && max > 1 ? ` of at most ${max}` : ""}`
              : `Click ${many} to select them; double-click inserts one.`}
          </Typography.Text>
          <span>
            <Button onClick={onClose}>Cancel</Button>{" "}
            <Button type="primary" disabled={!chosen.length} onClick={() => onPick(chosen)}>
              Insert {chosen.length > 1 ? `${chosen.length} ${many}` : one}
            </Button>
          </span>
        </Flex>
      }
    >
      <Flex gap={16} style={{ minHeight: 420 }}>
        <div style={{ width: 220, flex: "none", maxHeight: 480, overflow: "auto" }}>
          <FolderTree
            value={q ? undefined : folderId}
            onSelect={(id) => {
              setFolderId(id);
              setQ("");
              setPage(1);
            }}
          />
        </div>
        <Flex vertical gap={12} style={{ flex: 1, minWidth: 0 }}>
          <Flex gap={8}>
            <Input.Search
              allowClear
              placeholder={`Search ${many} in every folder`}
              aria-label={`Search ${many}`}
              onSearch={(value) => {
                setQ(value.trim());
                setPage(1);
              }}
            />
            <Button icon={<CloudUploadOutlined />} onClick={() => fileInput.current?.click()}>
              Upload here
            </Button>
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              accept={type === "image" ? "image/*" : undefined}
              aria-label="Files to upload into the picker's folder"
              onChange={(event) => {
                const files = [...(event.target.files ?? [])];
                event.target.value = "";
                void enqueue(files, q ? null : folderId);
              }}
            />
          </Flex>
          {assets.isLoading ? (
            <Skeleton active paragraph={{ rows: 6 }} />
          ) : data.length === 0 ? (
            <Empty
              style={{ padding: 48 }}
              description={
                q
                  ? `No ${many} match “${q}”`
                  : `No ${many} in this folder. Upload some, or open another folder.`
              }
            />
          ) : (
            <div
              role="listbox"
              aria-multiselectable={max !== 1}
              aria-label={`${many} to choose from`}
              style={{
                display: "grid",
                gridTemplateColumns: "repeat(auto-fill, minmax(132px, 1fr))",
                gap: 10,
              }}
            >
              {data.map((asset) => {
                const selected = isChosen(asset);
                const blocked = full && !selected;
                return (
                  <div
                    key={asset.id}
                    role="option"
                    aria-selected={selected}
                    aria-disabled={blocked}
                    aria-label={asset.name}
                    tabIndex={0}
                    onClick={() => !blocked && toggle(asset)}
                    onDoubleClick={() => onPick([asset])}
                    onKeyDown={(event) => {
                      if (event.key === " " || event.key === "Enter") {
                        event.preventDefault();
                        if (event.key === "Enter" && !chosen.length) onPick([asset]);
                        else if (!blocked) toggle(asset);
                      }
                    }}
                    style={{
                      position: "relative",
                      padding: 6,
                      borderRadius: token.borderRadiusLG,
                      border: `${selected ? 2 : 1}px solid ${selected ? token.colorPrimary : token.colorBorderSecondary}`,
                      background: selected ? token.controlItemBgActive : token.colorBgContainer,
                      opacity: blocked ? 0.5 : 1,
                      cursor: blocked ? "not-allowed" : "pointer",
                      userSelect: "none",
                    }}
                  >
                    {selected && (
                      <CheckCircleFilled
                        style={{
                          position: "absolute",
                          top: 8,
                          right: 8,
                          fontSize: 18,
                          color: token.colorPrimary,
                        }}
                      />
                    )}
                    <div style={{ background: token.colorFillQuaternary, borderRadius: token.borderRadius }}>
                      <AssetThumb asset={asset} size={96} />
                    </div>
                    <Typography.Text
                      ellipsis={{ tooltip: asset.name }}
                      style={{ display: "block", marginTop: 6 }}
                    >
                      {asset.name}
                    </Typography.Text>
                    <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                      {formatBytes(asset.size)}
                      {asset.width ? ` · ${asset.width}×${asset.height}` : ""}
                    </Typography.Text>
                  </div>
                );
              })}
            </div>
          )}
          {(assets.data?.total ?? 0) > PAGE_SIZE && (
            <Pagination
              align="end"
              size="small"
              current={page}
              pageSize={PAGE_SIZE}
              total={assets.data?.total}
              showSizeChanger={false}
              onChange={setPage}
            />
          )}
        </Flex>
      </Flex>
      <UploadPanel uploads={uploads} onClear={clearFinished} />
    </Modal>
  );
}
