import { useInvalidate, useWarnAboutChange } from "@refinedev/core";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Flex, Modal, Progress, Select, Table, Typography } from "antd";
import { useMemo, useRef, useState } from "react";
import { newIdempotencyKey } from "../../../providers/idempotency";
import type { ResourceDefinition } from "../../../resources/contract";
import type { BulkRefusal, BulkUpdate, BulkUpdateInput } from "../../../schemas/saved-views";
import { getErrorMessage, getFieldErrors } from "../../lib/errors";
import { FieldValue } from "../field-value";
import { enumLabel, fieldKind, fieldTitle } from "../fields";
import { ResourceForm, type ResourceFormHandle } from "../form/resource-form";
import type { FormData } from "../form-schema";
import { getBulkUpdate, startBulkUpdate, viewKeys } from "../views/views-api";
import type { BulkTarget } from "./bulk-edit-button";
import { bulkFieldsOf, oneFieldDef } from "./bulk-fields";

const count = (n: number) => n.toLocaleString("en-IN");

type Step =
  | { step: "pick" }
  | { step: "confirm"; value: unknown; key: string }
  | { step: "running"; id: string }
  | { step: "result"; bulk: BulkUpdate };

/**
 * The bulk edit's dialog (loaded when "Edit field" is first clicked: it holds the resource
 * form): pick one field, give its value with the form's own control for it (the resource
 * form, narrowed to that field), confirm with the number of records, then follow the job's
 * progress (large selections) and read what was refused.
 */
export default function BulkEditDialog({
  def,
  target,
  onClose,
}: {
  def: ResourceDefinition;
  target: BulkTarget;
  onClose: (changed: boolean) => void;
}) {
  const fields = useMemo(() => bulkFieldsOf(def), [def]);
  const [field, setField] = useState<string | undefined>(undefined);
  const [step, setStep] = useState<Step>({ step: "pick" });
  // The value given, kept when going back from the confirmation.
  const [draft, setDraft] = useState<FormData>({});
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const formRef = useRef<ResourceFormHandle>(null);
  const invalidate = useInvalidate();
  // The one-field form marks an edit as unsaved; this dialog is not a page to leave.
  const { setWarnWhen } = useWarnAboutChange();
  const close = (changed: boolean) => {
    setWarnWhen(false);
    onClose(changed);
  };
  const total = target.kind === "ids" ? target.ids.length : target.total;
  const noun = (total === 1 ? def.singular : def.label).toLowerCase();
  const title = field ? fieldTitle(def.schema, field) : "";
  const single = useMemo(() => (field ? oneFieldDef(def, field) : null), [def, field]);

  const progress = useQuery({
    queryKey: viewKeys.bulk(def.name, step.step === "running" ? step.id : ""),
    queryFn: () => getBulkUpdate(def, (step as { id: string }).id),
    enabled: step.step === "running",
    refetchInterval: (q) =>
      q.state.data?.status === "finished" || q.state.data?.status === "failed" ? false : 700,
  });
  const running = step.step === "running" ? progress.data : undefined;
  if (step.step === "running" && running && (running.status === "finished" || running.status === "failed")) {
    setStep({ step: "result", bulk: running });
    void invalidate({ resource: def.name, dataProviderName: def.base, invalidates: ["list", "many"] });
  }

  const send = async (value: unknown, key: string) => {
    if (!field) return;
    setSending(true);
    setError(null);
    try {
      const input: BulkUpdateInput =
        target.kind === "ids"
          ? { ids: target.ids, field, value }
          : { filters: target.filters, ...(target.q ? { q: target.q } : {}), field, value };
      const bulk = await startBulkUpdate(def, input, key);
      if (bulk.id && bulk.status !== "finished") setStep({ step: "running", id: bulk.id });
      else {
        setStep({ step: "result", bulk });
        void invalidate({ resource: def.name, dataProviderName: def.base, invalidates: ["list", "many"] });
      }
    } catch (e) {
      const details = getFieldErrors(e);
      setError(details.length ? details.map((d) => d.message).join(" ") : getErrorMessage(e));
    } finally {
      setSending(false);
    }
  };

  const valueText = (value: unknown) => {
    if (!field) return null;
    if (value === null || value === undefined || value === "") return null;
    const kind = fieldKind(def.schema, field);
    if (kind === "enum") return enumLabel(def.schema.properties[field], value);
    if (kind === "boolean") return value ? "Yes" : "No";
    return <FieldValue schema={def.schema} field={field} record={{ [field]: value }} />;
  };

  const done = step.step === "result";
  const footer = (() => {
    if (step.step === "pick")
      return [
        <Button key="cancel" onClick={() => close(false)}>
          Cancel
        </Button>,
        <Button key="next" type="primary" disabled={!field} onClick={() => formRef.current?.submit()}>
          Next
        </Button>,
      ];
    if (step.step === "confirm")
      return [
        <Button key="back" onClick={() => setStep({ step: "pick" })} disabled={sending}>
          Back
        </Button>,
        <Button key="go" type="primary" loading={sending} onClick={() => send(step.value, step.key)}>
          {`Set on ${count(total)} ${noun}`}
        </Button>,
      ];
    if (step.step === "running") return [];
    return [
      <Button key="close" type="primary" onClick={() => close(true)}>
        Done
      </Button>,
    ];
  })();

  return (
    <Modal
      open
      title={`Edit a field of ${count(total)} ${noun}`}
      footer={footer}
      onCancel={() => close(done)}
      maskClosable={false}
      closable={step.step !== "running"}
      keyboard={step.step !== "running"}
      width={560}
      destroyOnHidden
    >
      {step.step === "pick" && (
        <Flex vertical gap={8}>
          <label htmlFor="bulk-field">Field</label>
          <Select
            id="bulk-field"
            aria-label="Field to set"
            style={{ width: "calc(50% - 12px)" }}
            showSearch
            optionFilterProp="label"
            placeholder="Choose the field to set"
            value={field}
            onChange={(next: string) => {
              setField(next);
              setDraft({});
            }}
            options={fields.map((f) => ({ value: f, label: fieldTitle(def.schema, f) }))}
            autoFocus
          />
          {single && field && (
            <ResourceForm
              key={field}
              def={single}
              initialData={draft}
              formRef={formRef}
              onSubmit={(data: FormData) => {
                setWarnWhen(false);
                setDraft(data);
                setStep({ step: "confirm", value: data[field] ?? null, key: newIdempotencyKey() });
              }}
            />
          )}
        </Flex>
      )}
      {step.step === "confirm" && field && (
        <Flex vertical gap={12}>
          <Typography.Paragraph style={{ fontSize: 16, marginBottom: 0 }}>
            {valueText(step.value) === null ? (
              <>
                Clear {title} on {count(total)} {noun}?
              </>
            ) : (
              <>
                Set {title} to <Typography.Text strong>{valueText(step.value)}</Typography.Text> on{" "}
                {count(total)} {noun}?
              </>
            )}
          </Typography.Paragraph>
          <Typography.Text type="secondary">
            Each record is saved as an edit would save it: one that its rules refuse is left as it is and
            listed with the reason.
          </Typography.Text>
          {error && <Alert type="error" showIcon message={error} />}
        </Flex>
      )}
      {step.step === "running" && (
        <BulkProgress bulk={running} total={total} noun={noun} error={progress.error} />
      )}
      {step.step === "result" && <BulkResult bulk={step.bulk} def={def} title={title} />}
    </Modal>
  );
}

function BulkProgress({
  bulk,
  total,
  noun,
  error,
}: {
  bulk: BulkUpdate | undefined;
  total: number;
  noun: string;
  error: unknown;
}) {
  const done = bulk?.done ?? 0;
  const percent = total ? Math.floor((done / total) * 100) : 0;
  return (
    <div
      role="progressbar"
      aria-label="Bulk edit progress"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${count(done)} of ${count(total)} ${noun}`}
    >
      <Progress percent={percent} status="active" />
      <Typography.Text type="secondary">
        {!bulk || bulk.status === "queued"
          ? "Waiting to start…"
          : `${count(done)} of ${count(total)} ${noun} done${bulk.refused ? `, ${count(bulk.refused)} refused` : ""}`}
      </Typography.Text>
      {Boolean(error) && (
        <Alert type="warning" showIcon message={`Progress could not be read: ${getErrorMessage(error)}`} />
      )}
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        It runs on the server: closing this page does not stop it.
      </Typography.Paragraph>
    </div>
  );
}

function BulkResult({ bulk, def, title }: { bulk: BulkUpdate; def: ResourceDefinition; title: string }) {
  const updated = `${count(bulk.updated)} ${(bulk.updated === 1 ? def.singular : def.label).toLowerCase()}`;
  if (bulk.status === "failed")
    return (
      <Alert
        type="error"
        showIcon
        message="The bulk edit stopped"
        description={`${bulk.error ?? "Something Went Wrong"}. ${updated} were changed before it stopped.`}
      />
    );
  return (
    <Flex vertical gap={12}>
      <Alert
        type={bulk.refused ? "warning" : "success"}
        showIcon
        message={`${title} set on ${updated}`}
        description={bulk.refused ? `${count(bulk.refused)} refused: they are left as they were.` : undefined}
      />
      {bulk.errors.length > 0 && (
        <Table<BulkRefusal>
          size="small"
          rowKey="id"
          dataSource={bulk.errors}
          pagination={bulk.errors.length > 5 ? { pageSize: 5, size: "small" } : false}
          columns={[
            {
              title: def.singular,
              dataIndex: "label",
              width: 180,
              render: (label: string | null, r) =>
                label ?? <Typography.Text code>{r.id.slice(0, 8)}</Typography.Text>,
            },
            { title: "Why it was refused", dataIndex: "message" },
          ]}
        />
      )}
      {bulk.refused > bulk.errors.length && (
        <Typography.Text type="secondary">
          The first {count(bulk.errors.length)} refusals are listed.
        </Typography.Text>
      )}
    </Flex>
  );
}
