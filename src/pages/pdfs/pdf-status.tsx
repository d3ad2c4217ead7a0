import { Flex, Progress, Tag, Tooltip, Typography } from "antd";
import type { PdfListStatus } from "../../../schemas/pdfs";

interface StatusFields {
  pdflist_status: PdfListStatus | null;
  processing_text: string | null;
  progress: number | null;
  error_message: string | null;
}

const TAGS: Record<PdfListStatus, { color: string; label: string }> = {
  queued: { color: "default", label: "Queued" },
  processing: { color: "processing", label: "Processing" },
  ready: { color: "success", label: "Ready" },
  error: { color: "error", label: "Error" },
};

/**
 * A catalogue's processing state (pdflistStatus): a tag, and while it is being processed
 * the live `processingtext` ("Rendering page 12 of 48") over a progress bar.
 */
export function PdfStatus({ pdf }: { pdf: StatusFields }) {
  const status = pdf.pdflist_status ?? "queued";
  const tag = TAGS[status];
  if (status === "queued" || status === "processing") {
    return (
      <Flex vertical gap={2} data-pdf-status={status}>
        <Typography.Text style={{ fontSize: 12 }}>
          <Tag color={tag.color}>{tag.label}</Tag>
          {pdf.processing_text}
        </Typography.Text>
        <Progress percent={pdf.progress ?? 0} size="small" status="active" aria-label="Processing progress" />
      </Flex>
    );
  }
  if (status === "error") {
    return (
      <Tooltip title={pdf.error_message}>
        <Flex vertical gap={2} data-pdf-status={status}>
          <span>
            <Tag color={tag.color}>{tag.label}</Tag>
          </span>
          <Typography.Text type="danger" ellipsis style={{ fontSize: 12, maxWidth: 220 }}>
            {pdf.error_message}
          </Typography.Text>
        </Flex>
      </Tooltip>
    );
  }
  return (
    <span data-pdf-status={status}>
      <Tag color={tag.color}>{tag.label}</Tag>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {pdf.processing_text}
      </Typography.Text>
    </span>
  );
}
