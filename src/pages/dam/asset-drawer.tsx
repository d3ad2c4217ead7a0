import { CopyOutlined, DeleteOutlined, DownloadOutlined, SwapOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  Descriptions,
  Drawer,
  Flex,
  Form,
  Image,
  Input,
  Popconfirm,
  Progress,
  Select,
  Typography,
} from "antd";
import { useEffect, useRef, useState } from "react";
import { ALT_MAX, ASSET_NAME_MAX, type DamAsset, TAG_MAX, TAGS_MAX } from "../../../schemas/dam";
import { DateText } from "../../components/date-text";
import { showFieldErrors } from "../../components/form-errors";
import { getErrorMessage } from "../../lib/errors";
import { formatBytes, sendingPercentage } from "../../lib/uploads";
import { IMAGE_PLACEHOLDER } from "../../resources/image-placeholder";
import { damKeys, deleteSelection, replaceAssetFile, updateAsset } from "./dam-api";
import { absoluteUrl, isImage } from "./dam-logic";

interface AssetFields {
  name: string;
  alt: string;
  tags: string[];
}

/** An asset's details: preview, metadata, name/alt/tags, replace, download and delete. */
export function AssetDrawer({ asset, onClose }: { asset: DamAsset | null; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<AssetFields>();
  const [saving, setSaving] = useState(false);
  const [replacing, setReplacing] = useState<number | null>(null);
  const [current, setCurrent] = useState<DamAsset | null>(asset);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    setCurrent(asset);
    if (asset) form.setFieldsValue({ name: asset.name, alt: asset.alt, tags: asset.tags });
  }, [asset, form]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: damKeys.all });

  const save = async (values: AssetFields) => {
    if (!current) return;
    setSaving(true);
    try {
      setCurrent(await updateAsset(current.id, values));
      message.success("Asset saved");
      void refresh();
    } catch (error) {
      const general = showFieldErrors(form, error);
      if (general) message.error(general);
    } finally {
      setSaving(false);
    }
  };

  const replace = async (file: File | undefined) => {
    if (!current || !file) return;
    setReplacing(0);
    try {
      setCurrent(await replaceAssetFile(current.id, file, (f) => setReplacing(sendingPercentage(f))));
      message.success(`File replaced with ${file.name}`);
      void refresh();
    } catch (error) {
      message.error(getErrorMessage(error));
    } finally {
      setReplacing(null);
      if (fileInput.current) fileInput.current.value = "";
    }
  };

  const remove = async () => {
    if (!current) return;
    try {
      await deleteSelection({ folderIds: [], assetIds: [current.id] });
      message.success(`${current.name} deleted`);
      void refresh();
      onClose();
    } catch (error) {
      message.error(getErrorMessage(error));
    }
  };

  const fullUrl = current ? absoluteUrl(current.url, window.location.origin) : "";

  return (
    <Drawer
      title={current?.name ?? "Asset"}
      open={asset !== null}
      onClose={onClose}
      width={480}
      destroyOnHidden
      extra={
        current && (
          <Popconfirm
            title={`Delete ${current.name}?`}
            description="The file is removed from storage. This cannot be undone."
            okText="Yes, delete"
            okButtonProps={{ danger: true }}
            onConfirm={remove}
          >
            <Button danger icon={<DeleteOutlined />}>
              Delete
            </Button>
          </Popconfirm>
        )
      }
    >
      {current && (
        <Flex vertical gap={16}>
          <Flex justify="center" style={{ background: "rgba(0,0,0,0.04)", borderRadius: 8, padding: 8 }}>
            {current.thumbnailUrl ? (
              <Image
                src={`${current.url.split("?")[0]}?w=640&format=webp`}
                alt={current.alt || current.name}
                style={{ maxHeight: 280, objectFit: "contain" }}
                fallback={IMAGE_PLACEHOLDER}
                preview={
                  isImage(current.mime) && !current.mime.includes("svg") ? { src: current.url } : false
                }
              />
            ) : (
              <Typography.Text type="secondary" style={{ padding: 48 }}>
                {current.mime}
              </Typography.Text>
            )}
          </Flex>
          <Flex gap={8} wrap>
            <Button icon={<DownloadOutlined />} href={current.url} download={current.originalName}>
              Download
            </Button>
            <Button
              icon={<SwapOutlined />}
              loading={replacing !== null}
              onClick={() => fileInput.current?.click()}
            >
              Replace file
            </Button>
            <Button
              icon={<CopyOutlined />}
              onClick={() =>
                navigator.clipboard?.writeText(fullUrl).then(
                  () => message.success("URL copied"),
                  () => message.error("Could not copy the URL"),
                )
              }
            >
              Copy URL
            </Button>
            <input
              ref={fileInput}
              type="file"
              hidden
              aria-label="Replacement file"
              onChange={(e) => void replace(e.target.files?.[0])}
            />
          </Flex>
          {replacing !== null && <Progress percent={replacing} size="small" aria-label="Replace progress" />}
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="Type">{current.mime}</Descriptions.Item>
            <Descriptions.Item label="Size">{formatBytes(current.size)}</Descriptions.Item>
            {current.width !== null && (
              <Descriptions.Item label="Dimensions">
                {current.width} × {current.height} px
              </Descriptions.Item>
            )}
            <Descriptions.Item label="Original name">{current.originalName}</Descriptions.Item>
            <Descriptions.Item label="Uploaded">
              <DateText value={current.createdAt} />
            </Descriptions.Item>
            <Descriptions.Item label="Updated">
              <DateText value={current.updatedAt} />
            </Descriptions.Item>
          </Descriptions>
          <Form<AssetFields> form={form} layout="vertical" onFinish={save} disabled={saving}>
            <Form.Item
              name="name"
              label="Name"
              rules={[{ required: true, whitespace: true, message: "Give the asset a name" }]}
            >
              <Input maxLength={ASSET_NAME_MAX} />
            </Form.Item>
            <Form.Item name="alt" label="Alt text" extra="Describes the image for people who cannot see it.">
              <Input.TextArea maxLength={ALT_MAX} autoSize={{ minRows: 2, maxRows: 5 }} showCount />
            </Form.Item>
            <Form.Item
              name="tags"
              label="Tags"
              rules={[
                { type: "array", max: TAGS_MAX, message: `At most ${TAGS_MAX} tags` },
                {
                  validator: (_, tags: string[] | undefined) =>
                    (tags ?? []).some((t) => t.length > TAG_MAX)
                      ? Promise.reject(new Error(`A tag has at most ${TAG_MAX} characters`))
                      : Promise.resolve(),
                },
              ]}
            >
              <Select
                mode="tags"
                tokenSeparators={[","]}
                placeholder="Add tags"
                open={false}
                suffixIcon={null}
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={saving}>
              Save
            </Button>
          </Form>
        </Flex>
      )}
    </Drawer>
  );
}
