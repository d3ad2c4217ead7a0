/**
 * The merge dialog of selected clients (`POST /crm/clients/merge`): choose the client to keep;
 * the dialog shows, from the same rules the server applies (schemas/crm-merge.ts), where the
 * clients disagree (the kept one's value stays) and which empty fields the others fill in.
 * Everything linked to the others (opportunities, tasks, the timeline…) moves to the kept one,
 * and the others are deleted, in one transaction.
 */
import { useInvalidate, useMany } from "@refinedev/core";
import { Alert, App, Modal, Radio, Space, Table, Tag, Typography } from "antd";
import { useMemo, useState } from "react";
import { createServiceClient } from "../../../providers/http";
import { mergeRecords } from "../../../schemas/crm-merge";
import { LoadError } from "../../components/load-error";
import { getErrorMessage } from "../../lib/errors";
import { FieldValue } from "../../resources/field-value";
import { fieldTitle, joinWords } from "../../resources/fields";
import type { BulkActionProps, ResourceRecord } from "../../resources/types";

const crm = createServiceClient("crm");

interface Props extends Omit<BulkActionProps, "onDone"> {
  open: boolean;
  onClose: () => void;
  onMerged: () => void;
}

const describe = (r: ResourceRecord) =>
  [r.email, r.company].filter((v) => typeof v === "string" && v).join(" · ") || "no email or company";

export function MergeClientsDialog({ def, ids, open, onClose, onMerged }: Props) {
  const { message } = App.useApp();
  const invalidate = useInvalidate();
  const [keep, setKeep] = useState<string>(ids[0]);
  const [busy, setBusy] = useState(false);
  const { result, query } = useMany<ResourceRecord>({
    resource: def.name,
    dataProviderName: def.base,
    ids,
    queryOptions: { enabled: open },
  });
  const records = ids.flatMap((id) => result.data.filter((r) => r.id === id));
  const primary = records.find((r) => r.id === keep) ?? records[0];
  const others = records.filter((r) => r !== primary);
  const { changes, conflicts } = useMemo(
    () => (primary ? mergeRecords(def.schema, primary, others) : { changes: {}, conflicts: [] }),
    [def.schema, primary, others],
  );
  const filled = Object.keys(changes).filter((f) => !conflicts.some((c) => c.field === f));
  const name = (r: ResourceRecord | undefined) => String(r?.[def.schema["x-label"]] ?? "this client");

  const merge = async () => {
    if (!primary) return;
    setBusy(true);
    try {
      await crm.post(
        `/${def.name}/merge`,
        { primaryId: primary.id, duplicateIds: others.map((r) => r.id) },
        { idempotent: true },
      );
      message.success(`Merged ${others.length + 1} ${def.label.toLowerCase()} into ${name(primary)}`);
      void invalidate({
        resource: def.name,
        dataProviderName: def.base,
        invalidates: ["list", "many", "detail"],
      });
      onMerged();
    } catch (error) {
      message.error(getErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title={`Merge ${ids.length} ${def.label.toLowerCase()}`}
      open={open}
      onCancel={onClose}
      onOk={merge}
      okText={`Merge into ${name(primary)}`}
      okButtonProps={{ loading: busy, disabled: records.length < 2 }}
      width={760}
      destroyOnHidden
    >
      {query.isError ? (
        <LoadError what={def.label.toLowerCase()} error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <Space direction="vertical" size="middle" style={{ width: "100%" }}>
          <Typography.Paragraph style={{ margin: 0 }}>
            Choose the {def.singular.toLowerCase()} to keep. The others are deleted: their opportunities,
            tasks, timeline and everything else linked to them move to it, their tags are added, and its empty
            fields take their values.
          </Typography.Paragraph>
          <Radio.Group
            value={primary?.id}
            onChange={(e) => setKeep(e.target.value)}
            aria-label="Client to keep"
          >
            <Space direction="vertical">
              {records.map((r) => (
                <Radio key={r.id} value={r.id}>
                  <Typography.Text strong>{name(r)}</Typography.Text>{" "}
                  <Typography.Text type="secondary">{describe(r)}</Typography.Text>
                </Radio>
              ))}
            </Space>
          </Radio.Group>
          {filled.length > 0 && (
            <Alert
              type="info"
              showIcon
              message={`Filled in from the others: ${joinWords(
                filled.map((f) => fieldTitle(def.schema, f)),
                "and",
              )}`}
            />
          )}
          {conflicts.length > 0 ? (
            <Table
              size="small"
              pagination={false}
              rowKey="field"
              caption={
                <Typography.Text strong>
                  Where they differ ({name(primary)}'s values are kept)
                </Typography.Text>
              }
              dataSource={conflicts}
              scroll={{ x: true }}
              columns={[
                { title: "Field", dataIndex: "field", render: (f: string) => fieldTitle(def.schema, f) },
                ...records.map((r) => ({
                  key: r.id,
                  title:
                    r.id === primary?.id ? (
                      <span>
                        {name(r)} <Tag color="green">kept</Tag>
                      </span>
                    ) : (
                      name(r)
                    ),
                  render: (_: unknown, c: { field: string }) => (
                    <FieldValue schema={def.schema} field={c.field} record={r} />
                  ),
                })),
              ]}
            />
          ) : (
            records.length > 1 && (
              <Typography.Text type="secondary">They do not disagree on any field.</Typography.Text>
            )
          )}
        </Space>
      )}
    </Modal>
  );
}
