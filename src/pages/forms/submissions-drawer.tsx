/**
 * One submission in full, beside the list: every answer under its field's label (the form's
 * order, dates as DD-MM-YYYY, consent Yes/No, files as links), answers to fields the form no
 * longer has, and where the respondent came from: the tracking parameters, the first touch,
 * referrer, landing page and browser. Delete, confirmed.
 */
import { DeleteOutlined } from "@ant-design/icons";
import { useDelete, useOne } from "@refinedev/core";
import {
  Button,
  Descriptions,
  type DescriptionsProps,
  Drawer,
  Flex,
  Popconfirm,
  Tag,
  Typography,
} from "antd";
import type { ReactNode } from "react";
import type { ResourceDefinition } from "../../../resources/contract";
import { answerText } from "../../../schemas/form-answers";
import type { FormFieldDef } from "../../../schemas/form-definition";
import { DateText } from "../../components/date-text";
import type { ResourceRecord } from "../../resources/types";
import { answerFields } from "./submissions-definition";
import {
  type FirstTouch,
  isBlankAnswer,
  orderedParameters,
  otherAnswers,
  readTracking,
  type SubmissionFile,
  submissionFiles,
  webAddress,
} from "./submissions-format";

const NONE = <Typography.Text type="secondary">—</Typography.Text>;

/** An address as a link when it is a web address, else as text; long ones wrap anywhere. */
function Address({ text }: { text: string }) {
  if (!text) return NONE;
  const href = webAddress(text);
  const style = { wordBreak: "break-all" } as const;
  return href ? (
    <Typography.Link href={href} target="_blank" rel="noopener noreferrer" style={style}>
      {text}
    </Typography.Link>
  ) : (
    <Typography.Text style={style}>{text}</Typography.Text>
  );
}

/** One answer, by its field's kind. */
function AnswerValue({ field, value, files }: AnswerProps) {
  if (isBlankAnswer(value)) return NONE;
  const list = Array.isArray(value) ? value.map(String) : [String(value)];
  switch (field.kind) {
    case "checkboxes":
      return (
        <Flex wrap gap={4}>
          {list.map((v) => (
            <Tag key={v}>{v}</Tag>
          ))}
        </Flex>
      );
    case "file":
      return (
        <Flex vertical gap={2}>
          {list.map((token) => {
            const file = files.get(token);
            return file ? (
              <Typography.Link key={token} href={file.url} target="_blank" rel="noopener noreferrer">
                {file.name}
              </Typography.Link>
            ) : (
              <Typography.Text key={token} type="secondary">
                A file no longer stored
              </Typography.Text>
            );
          })}
        </Flex>
      );
    case "email":
      return <Typography.Link href={`mailto:${String(value)}`}>{String(value)}</Typography.Link>;
    case "longtext":
      return <span style={{ whiteSpace: "pre-wrap" }}>{String(value)}</span>;
    default:
      return <span style={{ wordBreak: "break-word" }}>{answerText(field, value)}</span>;
  }
}

interface AnswerProps {
  field: Pick<FormFieldDef, "kind">;
  value: unknown;
  files: ReadonlyMap<string, SubmissionFile>;
}

/** The parameters as `name: value` lines, or "None". */
function Parameters({ parameters }: { parameters: Readonly<Record<string, string>> }) {
  const entries = orderedParameters(parameters);
  if (!entries.length) return <Typography.Text type="secondary">None</Typography.Text>;
  return (
    <Flex vertical gap={2}>
      {entries.map(([name, value]) => (
        <span key={name} style={{ wordBreak: "break-word" }}>
          <Typography.Text code>{name}</Typography.Text> {value}
        </span>
      ))}
    </Flex>
  );
}

function firstTouchItems(first: FirstTouch): DescriptionsProps["items"] {
  return [
    { key: "at", label: "When", children: <DateText value={first.at} fallback="—" /> },
    { key: "parameters", label: "Parameters", children: <Parameters parameters={first.parameters} /> },
    { key: "landing", label: "Landing page", children: <Address text={first.landingPage} /> },
    { key: "referrer", label: "Referrer", children: <Address text={first.referrer} /> },
  ];
}

interface SubmissionDrawerProps {
  def: ResourceDefinition;
  fields: readonly FormFieldDef[];
  /** The submission shown; `null`: closed. */
  record: ResourceRecord | null;
  onClose: () => void;
}

const LABEL_STYLE = { width: 180, verticalAlign: "top" } as const;

export function SubmissionDrawer({ def, fields, record: row, onClose }: SubmissionDrawerProps) {
  const { mutate: remove, mutation } = useDelete();
  // The list's row at once; then the submission itself, which names its files.
  const { query } = useOne<ResourceRecord>({
    resource: def.name,
    dataProviderName: def.base,
    id: row?.id ?? "",
    queryOptions: { enabled: row !== null },
    errorNotification: false,
  });
  const full = query.data?.data;
  const record = row && full?.id === row.id ? full : row;
  const answered = answerFields({ fields: [...fields] });
  const tracking = readTracking(record?.tracking);
  const others = record ? otherAnswers(record, answered) : [];
  const files = record ? submissionFiles(record) : new Map<string, SubmissionFile>();
  const section = (title: string, items: DescriptionsProps["items"], extra?: ReactNode) => (
    <Descriptions
      title={title}
      extra={extra}
      items={items}
      column={1}
      bordered
      size="small"
      labelStyle={LABEL_STYLE}
      style={{ marginBottom: 24 }}
    />
  );

  return (
    <Drawer
      open={record !== null}
      onClose={onClose}
      width="min(720px, 100vw)"
      title={
        record ? (
          <span>
            Submission of <DateText value={String(record.created_at)} />
          </span>
        ) : (
          "Submission"
        )
      }
      extra={
        record && (
          <Popconfirm
            title="Delete this submission?"
            description="This cannot be undone."
            okText="Yes, delete"
            okButtonProps={{ danger: true }}
            cancelText="Cancel"
            onConfirm={() =>
              remove(
                {
                  resource: def.name,
                  dataProviderName: def.base,
                  id: record.id,
                  // Not the submission itself: it is gone, and the drawer closes.
                  invalidates: ["list", "many"],
                  successNotification: { type: "success", message: "Submission deleted" },
                },
                { onSuccess: onClose },
              )
            }
          >
            <Button danger icon={<DeleteOutlined aria-hidden />} loading={mutation.isPending}>
              Delete
            </Button>
          </Popconfirm>
        )
      }
    >
      {record && (
        <>
          {section(
            "Answers",
            answered.map((f) => ({
              key: f.id,
              label: f.label.trim() || f.id,
              children: <AnswerValue field={f} value={record[f.id]} files={files} />,
            })),
            typeof record.version === "number" && (
              <Typography.Text type="secondary">Form version {record.version}</Typography.Text>
            ),
          )}
          {others.length > 0 &&
            section(
              "Answers to fields no longer in the form",
              others.map(([id, value]) => ({
                key: id,
                label: id,
                children: <AnswerValue field={{ kind: "text" }} value={value} files={files} />,
              })),
            )}
          {section("Tracking", [
            {
              key: "parameters",
              label: "Parameters",
              children: <Parameters parameters={tracking?.parameters ?? {}} />,
            },
            { key: "referrer", label: "Referrer", children: <Address text={tracking?.referrer ?? ""} /> },
            {
              key: "landing",
              label: "Landing page",
              children: <Address text={tracking?.landingPage ?? ""} />,
            },
            {
              key: "agent",
              label: "User agent",
              children: tracking?.userAgent ? <Typography.Text>{tracking.userAgent}</Typography.Text> : NONE,
            },
          ])}
          {tracking?.firstTouch ? (
            section("First touch", firstTouchItems(tracking.firstTouch))
          ) : (
            <>
              <Typography.Title level={5}>First touch</Typography.Title>
              <Typography.Paragraph type="secondary">
                Not recorded. The embed script keeps where a visitor first came from, when the form's
                first-touch setting allows it.
              </Typography.Paragraph>
            </>
          )}
        </>
      )}
    </Drawer>
  );
}
