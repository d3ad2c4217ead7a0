import {
  CloudUploadOutlined,
  CopyOutlined,
  DeleteOutlined,
  EditOutlined,
  ExportOutlined,
  EyeOutlined,
  FilePdfOutlined,
  MoreOutlined,
  SwapOutlined,
} from "@ant-design/icons";
import { List, useTable } from "@refinedev/antd";
import { useDelete, useInvalidate, useUpdate } from "@refinedev/core";
import { App, Button, Dropdown, Empty, Flex, Input, Switch, Table, Tooltip, Typography, theme } from "antd";
import { useRef, useState } from "react";
import { Link } from "react-router";
import { DELETE_PDF_FAILED } from "../../../schemas/pdf-library";
import type { PdfListStatus } from "../../../schemas/pdfs";
import { DateText } from "../../components/date-text";
import { NameDialog } from "../../components/name-dialog";
import { UploadPanel } from "../../components/upload-panel";
import { useFileDrop } from "../../hooks/use-file-drop";
import { useUploadQueue } from "../../hooks/use-upload-queue";
import { DEFAULT_PAGE_SIZE } from "../../lib/constants";
import { plural } from "../../lib/text";
import { formatBytes } from "../../lib/uploads";
import { recordPath } from "../../resources/routes";
import type { ScreenProps } from "../../resources/types";
import { uploadPdf } from "./pdf-api";
import { PdfStatus } from "./pdf-status";

/** A catalogue as the `pdfs` resource answers it. */
export interface PdfRecord {
  id: string;
  name: string;
  slug: string | null;
  pdfstatus: boolean;
  pdflist_status: PdfListStatus | null;
  processing_text: string | null;
  progress: number | null;
  error_message: string | null;
  error_detail: string | null;
  page_count: number | null;
  file_size: number | null;
  original_name: string | null;
  file_url: string | null;
  thumbnail_url: string | null;
  updated_at: string;
}

/** The public page of a catalogue. */
export const publicUrl = (pdf: Pick<PdfRecord, "id" | "slug">) =>
  new URL(`/view/${pdf.slug ?? pdf.id}`, window.location.origin).href;

type Target = { pdfId?: string };

/**
 * `/pdf/pdfs`: the PDF library. Published catalogues first (spec §4), with cover, live
 * processing progress, pages, size and a publish switch; upload by button or by dropping
 * PDFs on the list (resumable, each with its progress); rename, replace the file, copy the
 * public link, delete after a confirmation ('Could not delete PDF' when that fails).
 */
export default function PdfLibraryPage({ def }: ScreenProps) {
  const { token } = theme.useToken();
  const { message, modal } = App.useApp();
  const invalidate = useInvalidate();
  const fileInput = useRef<HTMLInputElement>(null);
  const replaceInput = useRef<HTMLInputElement>(null);
  const [replacing, setReplacing] = useState<PdfRecord | null>(null);
  const [renaming, setRenaming] = useState<PdfRecord | null>(null);
  const { tableProps, setFilters, filters } = useTable<PdfRecord>({
    resource: def.name,
    pagination: { pageSize: DEFAULT_PAGE_SIZE },
    sorters: {
      initial: [
        { field: "pdfstatus", order: "desc" },
        { field: "created_at", order: "desc" },
      ],
    },
    syncWithLocation: true,
  });
  const { mutateAsync: update } = useUpdate<PdfRecord>();
  const { mutate: remove } = useDelete<PdfRecord>();
  const { uploads, enqueue, clearFinished } = useUploadQueue<Target>(async (file, target, onProgress) => {
    await uploadPdf(file, { pdfId: target.pdfId }, onProgress);
    void invalidate({ resource: def.name, invalidates: ["list"] });
  }, 2);

  const upload = (files: readonly File[], target: Target = {}) => {
    const pdfs = files.filter((f) => /\.pdf$/i.test(f.name) || f.type === "application/pdf");
    if (pdfs.length < files.length) message.warning("Only PDF files can be added to the library");
    if (pdfs.length) void enqueue(pdfs, target);
  };

  const fileDrop = useFileDrop((files) => upload(files));
  const q = (filters.find((f) => "field" in f && f.field === "q")?.value as string | undefined) ?? "";

  const confirmDelete = (pdf: PdfRecord) =>
    modal.confirm({
      title: `Delete ${pdf.name}?`,
      content: "Its pages, hotspots and statistics go with it, and its public page stops working.",
      okText: "Yes, delete",
      okButtonProps: { danger: true },
      onOk: () =>
        new Promise<void>((resolve) =>
          remove(
            {
              resource: def.name,
              id: pdf.id,
              successNotification: { type: "success", message: `${pdf.name} deleted` },
              errorNotification: { type: "error", message: DELETE_PDF_FAILED },
            },
            { onSettled: () => resolve() },
          ),
        ),
    });

  const setPublished = (pdf: PdfRecord, pdfstatus: boolean) =>
    update({
      resource: def.name,
      id: pdf.id,
      values: { pdfstatus },
      successNotification: {
        type: "success",
        message: pdfstatus ? `${pdf.name} is published` : `${pdf.name} is unpublished`,
      },
    });

  const menu = (pdf: PdfRecord) => ({
    items: [
      {
        key: "open",
        icon: <EyeOutlined />,
        label: <Link to={recordPath(def, "show", pdf.id)}>Pages and hotspots</Link>,
      },
      { key: "rename", icon: <EditOutlined />, label: "Rename", onClick: () => setRenaming(pdf) },
      {
        key: "replace",
        icon: <SwapOutlined />,
        label: "Replace file…",
        onClick: () => {
          setReplacing(pdf);
          replaceInput.current?.click();
        },
      },
      {
        key: "copy",
        icon: <CopyOutlined />,
        label: "Copy public link",
        onClick: () =>
          navigator.clipboard?.writeText(publicUrl(pdf)).then(
            () => message.success("Public link copied"),
            () => message.error("Could not copy the link"),
          ),
      },
      {
        key: "public",
        icon: <ExportOutlined />,
        disabled: !pdf.pdfstatus,
        label: (
          <a href={publicUrl(pdf)} target="_blank" rel="noreferrer">
            Open public page
          </a>
        ),
      },
      { type: "divider" as const },
      {
        key: "delete",
        icon: <DeleteOutlined />,
        danger: true,
        label: "Delete",
        onClick: () => confirmDelete(pdf),
      },
    ],
  });

  return (
    <List
      resource={def.name}
      title={def.label}
      headerButtons={
        <>
          <Input.Search
            allowClear
            defaultValue={q}
            placeholder="Search catalogues"
            aria-label="Search catalogues"
            style={{ width: 260 }}
            onSearch={(value) =>
              setFilters([{ field: "q", operator: "eq", value: value.trim() || undefined }], "replace")
            }
          />
          <Button type="primary" icon={<CloudUploadOutlined />} onClick={() => fileInput.current?.click()}>
            Upload PDF
          </Button>
          <input
            ref={fileInput}
            type="file"
            accept="application/pdf,.pdf"
            multiple
            hidden
            aria-label="PDF files to upload"
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              event.target.value = "";
              upload(files);
            }}
          />
          <input
            ref={replaceInput}
            type="file"
            accept="application/pdf,.pdf"
            hidden
            aria-label="Replacement PDF"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = "";
              if (file && replacing) upload([file], { pdfId: replacing.id });
              setReplacing(null);
            }}
          />
        </>
      }
    >
      <section
        aria-label="Catalogues"
        style={{
          position: "relative",
          outline: fileDrop.dropping ? `2px dashed ${token.colorPrimary}` : undefined,
          borderRadius: token.borderRadiusLG,
        }}
        {...fileDrop.handlers}
      >
        <Table<PdfRecord>
          {...tableProps}
          rowKey="id"
          scroll={{ x: 900 }}
          locale={{
            emptyText: (
              <Empty
                image={<FilePdfOutlined style={{ fontSize: 56, color: token.colorTextQuaternary }} />}
                description={
                  q ? `No catalogue matches “${q}”` : "No catalogues yet. Drop PDFs here or use Upload PDF."
                }
              />
            ),
          }}
          pagination={{
            ...tableProps.pagination,
            showSizeChanger: true,
            showTotal: (n) => plural(n, "catalogue"),
          }}
        >
          <Table.Column<PdfRecord>
            key="cover"
            width={72}
            render={(_, pdf) =>
              pdf.thumbnail_url ? (
                <img
                  src={pdf.thumbnail_url}
                  alt=""
                  width={48}
                  style={{ display: "block", borderRadius: 4, boxShadow: token.boxShadowTertiary }}
                />
              ) : (
                <FilePdfOutlined style={{ fontSize: 32, color: token.colorTextTertiary }} />
              )
            }
          />
          <Table.Column<PdfRecord>
            dataIndex="name"
            title="Name"
            sorter
            render={(_, pdf) => (
              <Flex vertical>
                <Link to={recordPath(def, "show", pdf.id)}>{pdf.name}</Link>
                <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                  {pdf.original_name}
                </Typography.Text>
              </Flex>
            )}
          />
          <Table.Column<PdfRecord>
            dataIndex="pdflist_status"
            title="Status"
            width={240}
            render={(_, pdf) => <PdfStatus pdf={pdf} />}
          />
          <Table.Column<PdfRecord> dataIndex="page_count" title="Pages" width={80} sorter />
          <Table.Column<PdfRecord>
            dataIndex="file_size"
            title="Size"
            width={100}
            sorter
            render={(size: number | null) => (size === null ? "—" : formatBytes(size))}
          />
          <Table.Column<PdfRecord>
            dataIndex="pdfstatus"
            title="Published"
            width={110}
            sorter
            render={(_, pdf) => (
              <Tooltip
                title={
                  pdf.pdflist_status === "ready" || pdf.pdfstatus ? undefined : "Publish once it is processed"
                }
              >
                <Switch
                  checked={pdf.pdfstatus}
                  disabled={pdf.pdflist_status !== "ready" && !pdf.pdfstatus}
                  aria-label={`Published: ${pdf.name}`}
                  onChange={(checked) => void setPublished(pdf, checked)}
                />
              </Tooltip>
            )}
          />
          <Table.Column<PdfRecord>
            dataIndex="updated_at"
            title="Updated"
            width={170}
            sorter
            render={(value: string) => <DateText value={value} />}
          />
          <Table.Column<PdfRecord>
            key="actions"
            width={56}
            render={(_, pdf) => (
              <Dropdown menu={menu(pdf)} trigger={["click"]}>
                <Button type="text" icon={<MoreOutlined />} aria-label={`Actions for ${pdf.name}`} />
              </Dropdown>
            )}
          />
        </Table>
      </section>
      <NameDialog
        title={renaming ? "Rename catalogue" : null}
        label="Name"
        initial={renaming?.name ?? ""}
        okText="Rename"
        onSubmit={async (name) => {
          if (!renaming) return;
          await update({ resource: def.name, id: renaming.id, values: { name }, successNotification: false });
          message.success(`Renamed to ${name}`);
        }}
        onClose={() => setRenaming(null)}
      />
      <UploadPanel uploads={uploads} onClear={clearFinished} />
    </List>
  );
}
