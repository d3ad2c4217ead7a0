import { DeleteOutlined, FolderOpenOutlined, PictureOutlined, PlusOutlined } from "@ant-design/icons";
import { useCan } from "@refinedev/core";
import type { WidgetProps } from "@rjsf/utils";
import { Button, Flex, Image, Input, Typography, theme } from "antd";
import { lazy, Suspense, useState } from "react";
import { absoluteUrl } from "../../pages/dam/dam-logic";
import { IMAGE_PLACEHOLDER } from "../image-placeholder";

const THUMB = 40;

/** The asset manager's picker, loaded when first opened. */
const AssetPicker = lazy(() => import("../../pages/dam/asset-picker"));

/**
 * Media URLs (`x-media` fields) as a list with a thumbnail each: chosen from the asset
 * manager when the user has the DAM module ("Choose from assets"), or typed as URLs, so an
 * image hosted elsewhere still fits. Stored as absolute URLs, as the schema's `uri` format asks.
 */
export function MediaUrlsWidget({ id, value, schema, disabled, readonly, rawErrors, onChange }: WidgetProps) {
  const { token } = theme.useToken();
  const [picking, setPicking] = useState(false);
  const { data: dam } = useCan({ resource: "dam", action: "list" });
  const urls: string[] = Array.isArray(value) ? value : [];
  const max = typeof schema.maxItems === "number" ? schema.maxItems : undefined;
  const free = max === undefined ? undefined : Math.max(0, max - urls.length);
  const locked = disabled || readonly;
  const set = (next: string[]) => onChange(next.length ? next : undefined);

  return (
    <Flex vertical gap={8} id={id}>
      {urls.map((url, index) => (
        // Items have no identity but their place; the list is short and edited in place.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above.
        <Flex key={index} gap={8} align="center">
          <Flex
            align="center"
            justify="center"
            style={{
              width: THUMB,
              height: THUMB,
              flex: "none",
              borderRadius: token.borderRadiusSM,
              background: token.colorFillTertiary,
              overflow: "hidden",
            }}
          >
            {/^https?:\/\//.test(url) ? (
              <Image
                src={url}
                width={THUMB}
                height={THUMB}
                style={{ objectFit: "cover" }}
                preview={false}
                fallback={IMAGE_PLACEHOLDER}
              />
            ) : (
              <PictureOutlined style={{ color: token.colorTextTertiary }} />
            )}
          </Flex>
          <Input
            aria-label={`Image URL ${index + 1}`}
            value={url}
            placeholder="https://…"
            disabled={locked}
            status={rawErrors?.some((e) => e.startsWith(`URL ${index + 1} `)) ? "error" : undefined}
            onChange={(e) => set(urls.map((u, i) => (i === index ? e.target.value : u)))}
          />
          <Button
            aria-label={`Remove image ${index + 1}`}
            icon={<DeleteOutlined />}
            disabled={locked}
            onClick={() => set(urls.filter((_, i) => i !== index))}
          />
        </Flex>
      ))}
      <Flex gap={8} align="center" wrap>
        {dam?.can && (
          <Button
            icon={<FolderOpenOutlined />}
            disabled={locked || free === 0}
            onClick={() => setPicking(true)}
          >
            Choose from assets
          </Button>
        )}
        <Button
          icon={<PlusOutlined />}
          disabled={locked || free === 0}
          onClick={() => onChange([...urls, ""])}
        >
          Add image URL
        </Button>
        {max !== undefined && (
          <Typography.Text type="secondary">
            {urls.length} of {max}
          </Typography.Text>
        )}
      </Flex>
      {picking && (
        <Suspense fallback={null}>
          <AssetPicker
            open
            type="image"
            max={free}
            onClose={() => setPicking(false)}
            onPick={(assets) => {
              set([...urls, ...assets.map((a) => absoluteUrl(a.url, window.location.origin))]);
              setPicking(false);
            }}
          />
        </Suspense>
      )}
    </Flex>
  );
}
