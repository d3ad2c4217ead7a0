import { DeleteOutlined } from "@ant-design/icons";
import { useSelect } from "@refinedev/antd";
import { Alert, Button, Flex, Form, Input, InputNumber, Segmented, Select, Switch, Typography } from "antd";
import {
  BUTTON_COLOURS,
  BUTTON_ICONS,
  BUTTON_SIZES,
  LINK_KIND_LABELS,
  LINK_KINDS,
  type LinkButton,
  type LinkKind,
  type PdfLink,
} from "../../../schemas/pdf-library";
import { missingTarget, youtubeIdOf } from "./hotspot-editor-state";

export interface HotspotPanelProps {
  link: PdfLink;
  index: number;
  pageCount: number;
  onChange: (patch: Partial<PdfLink>) => void;
  onRemove: () => void;
}

const DEFAULT_BUTTON: LinkButton = { icon: "External Link", size: "md", colour: "Primary" };

/** A product of the catalogue, searched by name or SKU. */
function ProductSelect({ value, onChange }: { value?: string; onChange: (id: string) => void }) {
  const { selectProps } = useSelect<{ id: string; name: string; sku_code: string }>({
    resource: "products",
    optionLabel: (p) => `${p.name} (${p.sku_code})`,
    optionValue: "id",
    onSearch: (q) => [{ field: "q", operator: "contains", value: q }],
    defaultValue: value,
    pagination: { pageSize: 20 },
  });
  return (
    <Select<string>
      showSearch
      filterOption={false}
      options={selectProps.options as { label: string; value: string }[]}
      onSearch={selectProps.onSearch}
      loading={selectProps.loading}
      value={value}
      onChange={onChange}
      placeholder="Search products by name or SKU"
      aria-label="Product"
      style={{ width: "100%" }}
    />
  );
}

/** The selected hotspot's kind, target and optional button (spec §9 link kinds and button styles). */
export function HotspotPanel({ link, index, pageCount, onChange, onRemove }: HotspotPanelProps) {
  const target = (patch: PdfLink["target"]) => onChange({ target: { ...link.target, ...patch } });
  const problem = missingTarget(link);
  const button = link.button ?? null;
  const setButton = (patch: Partial<LinkButton>) =>
    onChange({ button: { ...(button ?? DEFAULT_BUTTON), ...patch } });

  return (
    <Form layout="vertical" size="small" aria-label={`Hotspot ${index + 1}`}>
      <Flex justify="space-between" align="center" style={{ marginBottom: 12 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          Hotspot {index + 1}
        </Typography.Title>
        <Button danger size="small" icon={<DeleteOutlined />} onClick={onRemove}>
          Remove
        </Button>
      </Flex>
      <Form.Item label="Action">
        <Select<LinkKind>
          aria-label="Action"
          value={link.kind}
          options={LINK_KINDS.map((k) => ({ value: k, label: LINK_KIND_LABELS[k] }))}
          onChange={(kind) => onChange({ kind })}
        />
      </Form.Item>
      {link.kind === "pageLink" && (
        <Form.Item label="Go to page">
          <InputNumber
            aria-label="Go to page"
            min={1}
            max={pageCount}
            value={link.target.page}
            onChange={(page) => target({ page: page ?? undefined })}
          />
        </Form.Item>
      )}
      {(link.kind === "link" || link.kind === "iframe") && (
        <Form.Item label={link.kind === "iframe" ? "Page to embed (URL)" : "URL"}>
          <Input
            aria-label="URL"
            placeholder="https://…"
            value={link.target.url}
            onChange={(e) => target({ url: e.target.value.trim() })}
          />
        </Form.Item>
      )}
      {link.kind === "video" && (
        <Form.Item
          label="YouTube video"
          extra={link.target.youtubeId ? `Video id: ${link.target.youtubeId}` : undefined}
        >
          <Input
            aria-label="YouTube link"
            placeholder="https://www.youtube.com/watch?v=…"
            defaultValue={link.target.youtubeId}
            onChange={(e) => target({ youtubeId: youtubeIdOf(e.target.value) })}
          />
        </Form.Item>
      )}
      {link.kind === "text" && (
        <Form.Item label="Custom Text">
          <Input.TextArea
            aria-label="Custom Text"
            autoSize={{ minRows: 3, maxRows: 8 }}
            maxLength={5000}
            value={link.target.text}
            onChange={(e) => target({ text: e.target.value })}
          />
        </Form.Item>
      )}
      {(link.kind === "addProduct" || link.kind === "addProductDetails") && (
        <Form.Item label="Product">
          <ProductSelect value={link.target.productId} onChange={(productId) => target({ productId })} />
        </Form.Item>
      )}
      {problem && <Alert type="warning" showIcon message={problem} style={{ marginBottom: 12 }} />}
      <Form.Item label="Button">
        <Switch
          aria-label="Show a button"
          checked={button !== null}
          onChange={(on) => onChange({ button: on ? DEFAULT_BUTTON : null })}
          checkedChildren="Shown"
          unCheckedChildren="None"
        />
      </Form.Item>
      {button && (
        <>
          <Form.Item label="Icon">
            <Select
              aria-label="Button icon"
              value={button.icon}
              options={BUTTON_ICONS.map((v) => ({ value: v, label: v }))}
              onChange={(icon) => setButton({ icon })}
            />
          </Form.Item>
          <Form.Item label="Size">
            <Segmented
              aria-label="Button size"
              value={button.size}
              options={[...BUTTON_SIZES]}
              onChange={(size) => setButton({ size: size as LinkButton["size"] })}
            />
          </Form.Item>
          <Form.Item label="Colour">
            <Select
              aria-label="Button colour"
              value={button.colour}
              options={BUTTON_COLOURS.map((v) => ({ value: v, label: v }))}
              onChange={(colour) => setButton({ colour })}
            />
          </Form.Item>
          <Form.Item label="Label">
            <Input
              aria-label="Button label"
              maxLength={60}
              value={button.label}
              onChange={(e) => setButton({ label: e.target.value })}
            />
          </Form.Item>
        </>
      )}
    </Form>
  );
}
