/**
 * `/cms/media`: the CMS media library, a grid over the asset manager's assets (a user without
 * the asset manager sees the "CMS media" folder only). Upload with progress; open an item to
 * set its alt text, caption and focal point (click the image where the subject is), see which
 * entries use it, and delete it (asking first, naming them).
 */
import { UploadOutlined } from "@ant-design/icons";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  Card,
  Drawer,
  Empty,
  Flex,
  Form,
  Input,
  List,
  Pagination,
  Popconfirm,
  Progress,
  Space,
  Typography,
  theme,
} from "antd";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import type { DamAsset } from "../../../schemas/dam";
import { formatPercent } from "../../../schemas/money";
import { LoadError } from "../../components/load-error";
import { focusFirst } from "../../hooks/use-focus-return";
import { getErrorMessage } from "../../lib/errors";
import { deleteMedia, listMedia, mediaUsage, updateMedia, uploadMedia } from "./cms-api";

const PAGE_SIZE = 24;
const KEY = ["cms", "media"];

function FocalPoint({
  asset,
  value,
  onChange,
}: {
  asset: DamAsset;
  value: { x: number; y: number } | null;
  onChange: (p: { x: number; y: number }) => void;
}) {
  const { token } = theme.useToken();
  const point = value ?? { x: 0.5, y: 0.5 };
  if (!asset.mime.startsWith("image/"))
    return <Typography.Text type="secondary">A focal point applies to images.</Typography.Text>;
  return (
    <button
      type="button"
      aria-label="Focal point: click where the subject is, or move it with the arrow keys"
      style={{
        position: "relative",
        display: "block",
        width: "100%",
        cursor: "crosshair",
        padding: 0,
        border: 0,
        background: "none",
      }}
      onClick={(e) => {
        const box = e.currentTarget.getBoundingClientRect();
        if (!box.width || !box.height) return;
        const clamp = (v: number) => Math.min(1, Math.max(0, Math.round(v * 1000) / 1000));
        onChange({
          x: clamp((e.clientX - box.left) / box.width),
          y: clamp((e.clientY - box.top) / box.height),
        });
      }}
      onKeyDown={(e) => {
        const step = {
          ArrowLeft: [-0.05, 0],
          ArrowRight: [0.05, 0],
          ArrowUp: [0, -0.05],
          ArrowDown: [0, 0.05],
        }[e.key];
        if (!step) return;
        e.preventDefault();
        const clamp = (v: number) => Math.min(1, Math.max(0, Math.round(v * 1000) / 1000));
        onChange({ x: clamp(point.x + step[0]), y: clamp(point.y + step[1]) });
      }}
    >
      <img
        src={asset.url}
        alt={asset.alt || asset.name}
        style={{ display: "block", width: "100%", height: "auto", borderRadius: token.borderRadius }}
      />
      <span
        aria-hidden
        style={{
          position: "absolute",
          left: `${point.x * 100}%`,
          top: `${point.y * 100}%`,
          width: 18,
          height: 18,
          marginLeft: -9,
          marginTop: -9,
          borderRadius: "50%",
          border: "3px solid #fff",
          boxShadow: "0 0 0 2px rgba(0,0,0,0.6)",
          pointerEvents: "none",
        }}
      />
    </button>
  );
}

function MediaDrawer({
  asset,
  onClose,
  onChanged,
}: {
  asset: DamAsset | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ alt: string; caption: string }>();
  const [focal, setFocal] = useState<{ x: number; y: number } | null>(null);
  const [saving, setSaving] = useState(false);
  const usage = useQuery({
    queryKey: [...KEY, asset?.id, "usage"],
    queryFn: () => mediaUsage(asset?.id as string),
    enabled: Boolean(asset),
  });
  useEffect(() => {
    if (asset) {
      form.setFieldsValue({ alt: asset.alt, caption: asset.caption });
      setFocal(asset.focalPoint);
    }
  }, [asset, form]);
  if (!asset) return null;
  const used = usage.data ?? [];
  const save = async (v: { alt: string; caption: string }) => {
    setSaving(true);
    try {
      await updateMedia(asset.id, { alt: v.alt, caption: v.caption, focalPoint: focal });
      message.success("Media details saved");
      onChanged();
    } catch (error) {
      message.error(getErrorMessage(error));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Drawer
      title={asset.name}
      open
      onClose={onClose}
      width={560}
      extra={
        <Space>
          <Popconfirm
            title={
              used.length
                ? `Used by ${used.length} ${used.length === 1 ? "entry" : "entries"}: delete anyway?`
                : "Delete this media item?"
            }
            okText="Yes, delete"
            okButtonProps={{ danger: true }}
            onConfirm={async () => {
              try {
                await deleteMedia(asset.id, used.length > 0);
                message.success(`${asset.name} deleted`);
                onChanged();
                onClose();
                // Its tile, where focus would go back to, is gone: the first tile, else the search.
                focusFirst(
                  () =>
                    document.querySelector<HTMLElement>(
                      `ul[aria-label="Media"] li button:not([aria-label^="${CSS.escape(asset.name)}"])`,
                    ),
                  () => document.querySelector<HTMLElement>('input[aria-label="Search media"]'),
                );
              } catch (error) {
                message.error(getErrorMessage(error));
              }
            }}
          >
            <Button danger>Delete</Button>
          </Popconfirm>
          <Button type="primary" loading={saving} onClick={() => form.submit()}>
            Save
          </Button>
        </Space>
      }
    >
      <Flex vertical gap={16}>
        <FocalPoint asset={asset} value={focal} onChange={setFocal} />
        <Typography.Text type="secondary">
          {focal
            ? `Focal point ${formatPercent(focal.x, { fraction: true, decimals: 0 })} across, ${formatPercent(focal.y, { fraction: true, decimals: 0 })} down`
            : "Click the image where its subject is: crops keep that point in view."}
        </Typography.Text>
        <Form form={form} layout="vertical" onFinish={save}>
          <Form.Item name="alt" label="Alt text" extra="Read aloud to people who cannot see the image">
            <Input maxLength={500} />
          </Form.Item>
          <Form.Item name="caption" label="Caption">
            <Input.TextArea maxLength={1000} rows={2} />
          </Form.Item>
        </Form>
        <Card size="small" title="Used by">
          <List
            size="small"
            loading={usage.isLoading}
            dataSource={used}
            locale={{ emptyText: "No entry uses it" }}
            renderItem={(u) => (
              <List.Item>
                <Link to={`/cms/entries/${u.type}/show/${u.id}`}>{u.label}</Link>
                <Typography.Text type="secondary">{u.typeName}</Typography.Text>
              </List.Item>
            )}
          />
        </Card>
      </Flex>
    </Drawer>
  );
}

export default function MediaPage() {
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [q, setQ] = useState("");
  const [open, setOpen] = useState<DamAsset | null>(null);
  const [uploading, setUploading] = useState<{ name: string; percent: number } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const media = useQuery({
    queryKey: [...KEY, page, q],
    queryFn: () => listMedia(page, PAGE_SIZE, q),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });

  const upload = async (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      setUploading({ name: file.name, percent: 0 });
      try {
        await uploadMedia(file, (percent) => setUploading({ name: file.name, percent }));
      } catch (error) {
        message.error(`${file.name}: ${getErrorMessage(error)}`);
      }
    }
    setUploading(null);
    await refresh();
  };

  const pagination = media.data?.metaData.pagination;
  return (
    <Card
      title="Media library"
      extra={
        <Space>
          <Input.Search
            allowClear
            placeholder="Search by name or alt text"
            aria-label="Search media"
            onSearch={(v) => {
              setQ(v.trim());
              setPage(1);
            }}
            style={{ width: 260 }}
          />
          <Button
            type="primary"
            icon={<UploadOutlined aria-hidden />}
            onClick={() => input.current?.click()}
            loading={uploading !== null}
          >
            Upload
          </Button>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            aria-label="Files to upload"
            onChange={(e) => void upload(e.target.files)}
          />
        </Space>
      }
    >
      {uploading && (
        <Flex align="center" gap={12} style={{ marginBottom: 16 }}>
          <Typography.Text>{uploading.name}</Typography.Text>
          <Progress percent={uploading.percent} style={{ flex: 1 }} />
        </Flex>
      )}
      {media.isError ? (
        <LoadError what="media" error={media.error} onRetry={() => media.refetch()} />
      ) : !media.data?.mediaDtoList.length && !media.isLoading ? (
        <Empty description={q ? "Nothing matches" : "No media yet: upload the first"} />
      ) : (
        <>
          <ul
            style={{
              display: "grid",
              gridTemplateColumns: "repeat(auto-fill, minmax(160px, 1fr))",
              gap: 16,
              listStyle: "none",
              padding: 0,
              margin: 0,
            }}
            aria-label="Media"
          >
            {(media.data?.mediaDtoList ?? []).map((asset) => (
              <li key={asset.id}>
                <button
                  type="button"
                  onClick={() => setOpen(asset)}
                  aria-label={`${asset.name}${asset.alt ? `: ${asset.alt}` : ""}`}
                  style={{
                    border: `1px solid ${token.colorBorderSecondary}`,
                    borderRadius: token.borderRadius,
                    background: token.colorBgContainer,
                    padding: 8,
                    cursor: "pointer",
                    textAlign: "start",
                    width: "100%",
                  }}
                >
                  <div
                    style={{
                      aspectRatio: "4 / 3",
                      background: token.colorFillTertiary,
                      borderRadius: token.borderRadiusSM,
                      overflow: "hidden",
                      display: "flex",
                      alignItems: "center",
                      justifyContent: "center",
                    }}
                  >
                    {asset.thumbnailUrl ? (
                      <img
                        src={asset.thumbnailUrl}
                        alt=""
                        style={{
                          width: "100%",
                          height: "100%",
                          objectFit: "cover",
                          objectPosition: asset.focalPoint
                            ? `${asset.focalPoint.x * 100}% ${asset.focalPoint.y * 100}%`
                            : "center",
                        }}
                      />
                    ) : (
                      <Typography.Text type="secondary">{asset.mime}</Typography.Text>
                    )}
                  </div>
                  <Typography.Text ellipsis style={{ display: "block", marginTop: 6 }}>
                    {asset.name}
                  </Typography.Text>
                </button>
              </li>
            ))}
          </ul>
          {pagination && pagination.pageCount > 1 && (
            <Flex justify="end" style={{ marginTop: 16 }}>
              <Pagination
                current={page}
                pageSize={PAGE_SIZE}
                total={pagination.total}
                onChange={setPage}
                showSizeChanger={false}
              />
            </Flex>
          )}
        </>
      )}
      <MediaDrawer asset={open} onClose={() => setOpen(null)} onChanged={refresh} />
    </Card>
  );
}
