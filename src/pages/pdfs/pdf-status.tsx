import { Flex, Progress, Tag, Typography } from "antd";
import type { PdfListStatus } from "../../../schemas/pdfs";

interface StatusFields {
  pdflist_status: PdfListStatus | null;
  processing_text: string | null;
  progress: number | null;
  error_message: string | null;
  /** What the PDF tool itself said (its last lines), shown collapsed under the message. */
  error_detail?: string | null;
}

const TAGS: Record<PdfListStatus, { color: string; label: string }> = {
  queued: { color: "default", label: "Queued" },
  processing: { color: "processing", label: "Processing" },
  ready: { color: "success", label: "Ready" },
  error: { color: "error", label: "Error" },
};

/**
 * A catalogue's processing state (pdflistStatus): a tag, and while it is being processed
 * the live `processingtext` ("Rendering page 12 of 48") over a progress bar. A failure shows
 * its message in plain words, and the PDF tool's own text collapsed under it ("Details").
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
      <Flex vertical gap={2} data-pdf-status={status} style={{ maxWidth: 280 }}>
        <span>
          <Tag color={tag.color}>{tag.label}</Tag>
        </span>
        <Typography.Text type="danger" style={{ fontSize: 12 }} data-pdf-error>
          {pdf.error_message || "This PDF could not be processed"}
        </Typography.Text>
        {pdf.error_detail ? (
          <details className="pdf-error-detail" style={{ fontSize: 12 }}>
            <summary style={{ cursor: "pointer", color: "rgba(0, 0, 0, 0.65)" }}>Details</summary>
            <pre
              data-pdf-error-detail
              style={{
                margin: "4px 0 0",
                padding: "4px 6px",
                maxHeight: 160,
                overflow: "auto",
                whiteSpace: "pre-wrap",
                wordBreak: "break-word",
                fontSize: 11,
                lineHeight: 1.5,
                color: "rgba(0, 0, 0, 0.65)",
                background: "rgba(0, 0, 0, 0.03)",
                border: "1px solid rgba(0, 0, 0, 0.06)",
                borderRadius: 4,
              }}
            >
              {pdf.error_detail}
            </pre>
          </details>
        ) : null}
      </Flex>
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
