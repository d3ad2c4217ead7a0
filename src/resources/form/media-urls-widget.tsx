import { DeleteOutlined, PictureOutlined, PlusOutlined } from "@ant-design/icons";
import type { WidgetProps } from "@rjsf/utils";
import { Button, Flex, Image, Input, Typography, theme } from "antd";
import { IMAGE_PLACEHOLDER } from "../image-placeholder";

const THUMB = 40;

/**
 * Media URLs as a list of URL inputs with a thumbnail each. A stand-in for the asset
 * manager's picker: registered as the form's `media` widget, so the DAM picker replaces
 * this one entry (form/widgets.ts) without touching any resource.
 */
export function MediaUrlsWidget({ id, value, schema, disabled, readonly, rawErrors, onChange }: WidgetProps) {
  const { token } = theme.useToken();
  const urls: string[] = Array.isArray(value) ? value : [];
  const max = typeof schema.maxItems === "number" ? schema.maxItems : undefined;
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
      <Flex gap={12} align="center">
        <Button
          icon={<PlusOutlined />}
          disabled={locked || (max !== undefined && urls.length >= max)}
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
    </Flex>
  );
}
