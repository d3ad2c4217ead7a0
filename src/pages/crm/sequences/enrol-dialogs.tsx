/**
 * Enrolling, from either end: from a sequence's page, pick clients (searched by name or email);
 * from a client's page or a selection of the clients list, pick the sequence. Both answer with
 * who was enrolled and who was in it already (a client is in a sequence at most once at a time).
 */
import { useSelect } from "@refinedev/antd";
import { type BaseRecord, useInvalidate } from "@refinedev/core";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Form, Modal, Select, Typography } from "antd";
import { type ReactNode, useRef, useState } from "react";
import { MAX_ENROLMENT_CLIENTS } from "../../../../schemas/crm-sequence-steps";
import { getErrorMessage } from "../../../lib/errors";
import { enrolSummary } from "./sequence-steps";
import { enrol, sequenceKeys } from "./sequences-api";

interface DialogProps {
  open: boolean;
  onClose: () => void;
}

function useAfterEnrol() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  return (sequenceId: string, clientIds: readonly string[]) => {
    void queryClient.invalidateQueries({ queryKey: ["crm", "sequences", sequenceId] });
    for (const id of clientIds) {
      void queryClient.invalidateQueries({ queryKey: sequenceKeys.ofClient(id) });
      void queryClient.invalidateQueries({ queryKey: ["crm", "timeline", id] });
    }
    void invalidate({ resource: "sequences", invalidates: ["list", "detail"], id: sequenceId });
  };
}

/** "Enrol clients" on a sequence's page. */
export function EnrolClientsDialog({
  open,
  onClose,
  sequence,
}: DialogProps & { sequence: { id: string; name: string; paused: boolean } }) {
  const { message } = App.useApp();
  const after = useAfterEnrol();
  // With their labels: a client picked stays named while the next search shows others.
  const [picked, setPicked] = useState<Array<{ value: string; label: ReactNode }>>([]);
  const clientIds = picked.map((p) => p.value);
  const [busy, setBusy] = useState(false);
  const { selectProps } = useSelect<BaseRecord>({
    resource: "clients",
    optionLabel: (c) => (c.email ? `${c.name} (${c.email})` : String(c.name)),
    optionValue: (c) => String(c.id),
    pagination: { pageSize: 20 },
    onSearch: (q) => [{ field: "q", operator: "contains", value: q.trim() || undefined }],
    queryOptions: { enabled: open },
  });
  const submit = async () => {
    setBusy(true);
    try {
      const result = await enrol(sequence.id, clientIds);
      message.success(enrolSummary(result, sequence.name));
      after(sequence.id, clientIds);
      setPicked([]);
      onClose();
    } catch (error) {
      message.error(getErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={`Enrol clients in ${sequence.name}`}
      okText="Enrol"
      okButtonProps={{ disabled: !clientIds.length, loading: busy }}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      {sequence.paused && (
        <Alert
          type="warning"
          showIcon
          message="This sequence is paused: their first step waits until it is active again."
          style={{ marginBottom: 12 }}
        />
      )}
      <Form layout="vertical" component="div">
        <Form.Item
          label="Clients"
          htmlFor="seq-enrol-clients"
          extra="Clients already in it are left as they are."
        >
          <Select
            showSearch
            filterOption={false}
            options={selectProps.options}
            onSearch={selectProps.onSearch}
            loading={selectProps.loading}
            id="seq-enrol-clients"
            mode="multiple"
            labelInValue
            value={picked}
            onChange={(v: Array<{ value: string; label: ReactNode }>) =>
              setPicked(v.slice(0, MAX_ENROLMENT_CLIENTS))
            }
            placeholder="Search clients by name or email"
            style={{ width: "100%" }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** "Enrol in sequence" for one client (their page) or a selection of the clients list. */
export function EnrolInSequenceDialog({
  open,
  onClose,
  clientIds,
  who,
  onDone,
}: DialogProps & { clientIds: readonly string[]; who: string; onDone?: () => void }) {
  const { message } = App.useApp();
  const after = useAfterEnrol();
  const [sequenceId, setSequenceId] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const { selectProps, query } = useSelect<BaseRecord>({
    resource: "sequences",
    optionLabel: (s) => (s.status === "paused" ? `${s.name} (paused)` : String(s.name)),
    optionValue: (s) => String(s.id),
    pagination: { pageSize: 50 },
    sorters: [{ field: "name", order: "asc" }],
    onSearch: (q) => [{ field: "q", operator: "contains", value: q.trim() || undefined }],
    queryOptions: { enabled: open },
  });
  // Every sequence the options have shown, by id: the options stay on screen while the next
  // search loads (when the query's data is empty), and a choice made then must still be known.
  const seen = useRef(new Map<string, BaseRecord>());
  for (const s of query.data?.data ?? []) seen.current.set(String(s.id), s);
  // Kept as it was when chosen: the options change with the next search (the search box clears
  // on a choice, and the first 50 by name may not hold it), and the summary names it.
  const [chosen, setChosen] = useState<BaseRecord | undefined>();
  const submit = async () => {
    if (!sequenceId) return;
    setBusy(true);
    try {
      const result = await enrol(sequenceId, [...clientIds]);
      message.success(enrolSummary(result, String(chosen?.name ?? "the sequence")));
      after(sequenceId, clientIds);
      setSequenceId(undefined);
      setChosen(undefined);
      onDone?.();
      onClose();
    } catch (error) {
      message.error(getErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  const tooMany = clientIds.length > MAX_ENROLMENT_CLIENTS;
  return (
    <Modal
      open={open}
      title={`Enrol ${who} in a sequence`}
      okText="Enrol"
      okButtonProps={{ disabled: !sequenceId || tooMany, loading: busy }}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      {tooMany && (
        <Alert
          type="error"
          showIcon
          message={`Enrol at most ${MAX_ENROLMENT_CLIENTS} clients at a time: select fewer.`}
          style={{ marginBottom: 12 }}
        />
      )}
      <Form layout="vertical" component="div">
        <Form.Item label="Sequence" htmlFor="seq-enrol-sequence">
          <Select
            showSearch
            filterOption={false}
            options={selectProps.options}
            onSearch={selectProps.onSearch}
            loading={selectProps.loading}
            id="seq-enrol-sequence"
            value={sequenceId}
            onChange={(v?: string) => {
              setSequenceId(v);
              setChosen(v ? seen.current.get(v) : undefined);
            }}
            placeholder="Choose a sequence"
            notFoundContent="No sequence yet"
            style={{ width: "100%" }}
          />
        </Form.Item>
      </Form>
      {chosen?.status === "paused" && (
        <Typography.Paragraph type="warning">
          This sequence is paused: the first step waits until it is active again.
        </Typography.Paragraph>
      )}
      {Number(chosen?.step_count ?? 1) === 0 && (
        <Typography.Paragraph type="danger">This sequence has no steps yet.</Typography.Paragraph>
      )}
    </Modal>
  );
}
