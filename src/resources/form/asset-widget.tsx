/**
 * A media field holding asset ids (CMS media fields): the chosen assets with a thumbnail each,
 * picked from the asset manager. One id, or a list when the field takes many.
 */
import { DeleteOutlined, FolderOpenOutlined, PictureOutlined } from "@ant-design/icons";
import { useCan } from "@refinedev/core";
import type { WidgetProps } from "@rjsf/utils";
import { Button, Flex, Image, Typography, theme } from "antd";
import { lazy, Suspense, useState } from "react";
import type { DamAsset } from "../../../schemas/dam";
import { IMAGE_PLACEHOLDER } from "../image-placeholder";

const THUMB = 48;
const AssetPicker = lazy(() => import("../../pages/dam/asset-picker"));

export function AssetWidget({ id, value, options, disabled, readonly, onChange, label }: WidgetProps) {
  const { token } = theme.useToken();
  const multiple = options.multiple === true;
  const [picking, setPicking] = useState(false);
  // What the picker told us of each asset (a stored value shows its id until re-picked).
  const [known, setKnown] = useState<Record<string, DamAsset>>({});
  const { data: dam } = useCan({ resource: "dam", action: "list" });
  const ids: string[] = multiple
    ? Array.isArray(value)
      ? value
      : []
    : typeof value === "string"
      ? [value]
      : [];
  const locked = disabled || readonly;
  const set = (next: string[]) =>
    onChange(multiple ? (next.length ? next : undefined) : (next[0] ?? undefined));

  return (
    <Flex vertical gap={8} id={id}>
      {ids.map((assetId) => {
        const asset = known[assetId];
        return (
          <Flex key={assetId} gap={8} align="center">
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
              {asset?.thumbnailUrl ? (
                <Image
                  src={asset.thumbnailUrl}
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
            <Typography.Text ellipsis style={{ flex: 1 }}>
              {asset?.name ?? `Asset ${assetId.slice(0, 8)}`}
            </Typography.Text>
            <Button
              aria-label={`Remove ${asset?.name ?? "asset"} from ${label}`}
              icon={<DeleteOutlined aria-hidden />}
              disabled={locked}
              onClick={() => set(ids.filter((i) => i !== assetId))}
            />
          </Flex>
        );
      })}
      {dam?.can ? (
        <Button
          icon={<FolderOpenOutlined aria-hidden />}
          disabled={locked}
          onClick={() => setPicking(true)}
          style={{ alignSelf: "flex-start" }}
        >
          {ids.length && !multiple ? "Replace from assets" : "Choose from assets"}
        </Button>
      ) : (
        <Typography.Text type="secondary">Choosing media needs the Asset manager module.</Typography.Text>
      )}
      {picking && (
        <Suspense fallback={null}>
          <AssetPicker
            open
            max={multiple ? undefined : 1}
            onClose={() => setPicking(false)}
            onPick={(assets) => {
              setKnown((k) => ({ ...k, ...Object.fromEntries(assets.map((a) => [a.id, a])) }));
              set(multiple ? [...new Set([...ids, ...assets.map((a) => a.id)])] : assets.map((a) => a.id));
              setPicking(false);
            }}
          />
        </Suspense>
      )}
    </Flex>
  );
}
