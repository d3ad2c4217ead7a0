/**
 * An email's attachments: files chosen in the asset manager (its picker, loaded when first
 * opened), each removable, with their total against the limit the server enforces.
 */
import { DeleteOutlined, PaperClipOutlined } from "@ant-design/icons";
import { useCan } from "@refinedev/core";
import { Button, Flex, Typography } from "antd";
import { lazy, Suspense, useState } from "react";
import { EMAIL_ATTACHMENTS_MAX, EMAIL_ATTACHMENTS_MAX_BYTES } from "../../../../schemas/crm-messages";
import type { DamAsset } from "../../../../schemas/dam";
import { formatBytes } from "../../../lib/uploads";

const AssetPicker = lazy(() => import("../../dam/asset-picker"));

export interface EmailAttachmentsProps {
  value: DamAsset[];
  onChange: (assets: DamAsset[]) => void;
  disabled?: boolean;
  /** The server's word on the attachments (a file gone, too big together). */
  error?: string;
}

/** The attachments' total, and whether it is over the limit. */
export function attachmentsTotal(assets: readonly DamAsset[]) {
  const bytes = assets.reduce((sum, a) => sum + a.size, 0);
  return { bytes, tooBig: bytes > EMAIL_ATTACHMENTS_MAX_BYTES };
}

export function EmailAttachments({ value, onChange, disabled, error }: EmailAttachmentsProps) {
  const [picking, setPicking] = useState(false);
  const { data: dam } = useCan({ resource: "dam", action: "list" });
  const { bytes, tooBig } = attachmentsTotal(value);
  const room = EMAIL_ATTACHMENTS_MAX - value.length;
  return (
    <Flex vertical gap={4}>
      {value.length > 0 && (
        <ul className="crm-email-attachments" aria-label="Attachments">
          {value.map((asset) => (
            <li key={asset.id}>
              <PaperClipOutlined aria-hidden />
              <Typography.Text ellipsis style={{ flex: 1 }}>
                {asset.originalName || asset.name}
              </Typography.Text>
              <Typography.Text type="secondary">{formatBytes(asset.size)}</Typography.Text>
              <Button
                size="small"
                type="text"
                aria-label={`Remove ${asset.originalName || asset.name}`}
                icon={<DeleteOutlined aria-hidden />}
                disabled={disabled}
                onClick={() => onChange(value.filter((a) => a.id !== asset.id))}
              />
            </li>
          ))}
        </ul>
      )}
      <Flex gap={8} align="center" wrap>
        {dam?.can ? (
          <Button
            size="small"
            icon={<PaperClipOutlined aria-hidden />}
            disabled={disabled || room <= 0}
            onClick={() => setPicking(true)}
          >
            Attach from assets
          </Button>
        ) : (
          <Typography.Text type="secondary">Attaching files needs the Asset manager module.</Typography.Text>
        )}
        {value.length > 0 && (
          <Typography.Text type={tooBig ? "danger" : "secondary"}>
            {formatBytes(bytes)} of {formatBytes(EMAIL_ATTACHMENTS_MAX_BYTES)}
            {tooBig ? ": remove some files to send" : ""}
          </Typography.Text>
        )}
      </Flex>
      {error && (
        <Typography.Text type="danger" role="alert">
          {error}
        </Typography.Text>
      )}
      {picking && (
        <Suspense fallback={null}>
          <AssetPicker
            open
            max={room}
            onClose={() => setPicking(false)}
            onPick={(assets) => {
              const known = new Set(value.map((a) => a.id));
              onChange([...value, ...assets.filter((a) => !known.has(a.id))].slice(0, EMAIL_ATTACHMENTS_MAX));
              setPicking(false);
            }}
          />
        </Suspense>
      )}
    </Flex>
  );
}
