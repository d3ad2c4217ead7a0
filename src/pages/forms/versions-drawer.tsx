/**
 * A form's versions, newest first (each save, publication and restore), with who made each and
 * when. One can be looked at (its fields, and the form as it was, drawn by the public renderer)
 * and restored: its definition becomes the draft, after a confirmation.
 */
import { ArrowLeftOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Drawer, Flex, List, Popconfirm, Spin, Table, Tag, Typography } from "antd";
import { lazy, Suspense, useState } from "react";
import type { FormFieldDef } from "../../../schemas/form-definition";
import { FORM_FIELD_LABELS } from "../../../schemas/forms";
import { DateText } from "../../components/date-text";
import { LoadError } from "../../components/load-error";
import { formKeys, getFormVersion, listFormVersions } from "./forms-api";

const FormPreview = lazy(() => import("./form-preview"));

const KINDS = {
  save: { label: "Saved", color: "default" },
  publish: { label: "Published", color: "green" },
  restore: { label: "Restored", color: "blue" },
} as const;

interface VersionsDrawerProps {
  open: boolean;
  formId: string;
  name: string;
  slug: string;
  /** The draft has unsaved changes, which a restore would replace. */
  dirty: boolean;
  onClose: () => void;
  onRestore: (version: number) => Promise<void>;
}

function VersionView({
  formId,
  version,
  name,
  slug,
}: {
  formId: string;
  version: number;
  name: string;
  slug: string;
}) {
  const query = useQuery({
    queryKey: formKeys.version(formId, version),
    queryFn: () => getFormVersion(formId, version),
  });
  if (query.isLoading) return <Spin style={{ display: "block", padding: 48 }} />;
  if (query.isError || !query.data)
    return (
      <LoadError compact what={`version ${version}`} error={query.error} onRetry={() => query.refetch()} />
    );
  const { definition } = query.data;
  return (
    <Flex vertical gap={16}>
      <Table<FormFieldDef>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={definition.fields}
        locale={{ emptyText: "No fields" }}
        columns={[
          { title: "Label", dataIndex: "label", ellipsis: true },
          {
            title: "Kind",
            dataIndex: "kind",
            width: 120,
            render: (k: FormFieldDef["kind"]) => FORM_FIELD_LABELS[k],
          },
          {
            title: "Id",
            dataIndex: "id",
            width: 170,
            ellipsis: true,
            render: (id: string) => <Typography.Text code>{id}</Typography.Text>,
          },
          { title: "Required", dataIndex: "required", width: 90, render: (r?: boolean) => (r ? "Yes" : "") },
        ]}
      />
      <Suspense fallback={<Spin />}>
        <FormPreview name={name} slug={slug} definition={definition} version={version} />
      </Suspense>
    </Flex>
  );
}

export function VersionsDrawer({ open, formId, name, slug, dirty, onClose, onRestore }: VersionsDrawerProps) {
  const [viewing, setViewing] = useState<number | null>(null);
  const [restoring, setRestoring] = useState<number | null>(null);
  const versions = useQuery({
    queryKey: formKeys.versions(formId),
    queryFn: () => listFormVersions(formId),
    enabled: open,
  });

  const restore = async (version: number) => {
    setRestoring(version);
    try {
      await onRestore(version);
      setViewing(null);
    } finally {
      setRestoring(null);
    }
  };
  const restoreButton = (version: number) => (
    <Popconfirm
      key="restore"
      title={`Make version ${version} the draft?`}
      description={
        dirty
          ? "Your unsaved changes will be lost. The published form does not change until you publish."
          : "The published form does not change until you publish."
      }
      okText="Restore"
      okButtonProps={{ danger: dirty }}
      onConfirm={() => restore(version)}
    >
      <Button size="small" loading={restoring === version}>
        Restore
      </Button>
    </Popconfirm>
  );

  return (
    <Drawer
      title={viewing === null ? "Versions" : `Version ${viewing}`}
      open={open}
      onClose={() => {
        setViewing(null);
        onClose();
      }}
      width={640}
      extra={
        viewing !== null && (
          <Flex gap={8}>
            <Button size="small" icon={<ArrowLeftOutlined aria-hidden />} onClick={() => setViewing(null)}>
              All versions
            </Button>
            {restoreButton(viewing)}
          </Flex>
        )
      }
    >
      {viewing !== null ? (
        <VersionView formId={formId} version={viewing} name={name} slug={slug} />
      ) : versions.isError ? (
        <LoadError compact what="versions" error={versions.error} onRetry={() => versions.refetch()} />
      ) : (
        <>
          {dirty && (
            <Alert
              type="warning"
              showIcon
              message="You have unsaved changes: restoring a version replaces them."
              style={{ marginBottom: 12 }}
            />
          )}
          <List
            loading={versions.isLoading}
            dataSource={versions.data ?? []}
            locale={{
              emptyText: (
                <Typography.Text type="secondary">
                  No versions yet: each save and publication makes one.
                </Typography.Text>
              ),
            }}
            renderItem={(v) => (
              <List.Item
                actions={[
                  <Button key="view" size="small" onClick={() => setViewing(v.version)}>
                    View
                  </Button>,
                  restoreButton(v.version),
                ]}
              >
                <List.Item.Meta
                  title={
                    <Flex gap={8} align="center">
                      Version {v.version}
                      <Tag color={KINDS[v.kind]?.color ?? "default"}>{KINDS[v.kind]?.label ?? v.kind}</Tag>
                    </Flex>
                  }
                  description={
                    <>
                      {v.author ?? "A removed user"} · <DateText value={v.createdAt} />
                    </>
                  }
                />
              </List.Item>
            )}
          />
        </>
      )}
    </Drawer>
  );
}
