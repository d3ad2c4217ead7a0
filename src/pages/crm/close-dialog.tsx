/**
 * The dialog a drop on Won or Lost opens: Lost asks why (the `lost_reason` options of the CRM's
 * dropdown lists) and both take a note. Nothing changes until it is confirmed; what the server
 * refuses is shown at its field.
 */
import { useList } from "@refinedev/core";
import { Form, Input, Modal, Select } from "antd";
import { useState } from "react";
import type { BoardCard } from "../../../schemas/crm-board";
import { getErrorMessage, getFieldErrors } from "../../lib/errors";
import type { Closing } from "./board-api";
import type { Outcome } from "./board-zones";

interface CloseValues {
  lost_reason?: string;
  close_note?: string;
}

interface CloseDialogProps {
  closing: { card: BoardCard; outcome: Outcome } | null;
  onCancel: () => void;
  /** Saves the close; rejects with the server's answer. */
  onConfirm: (card: BoardCard, closing: Closing) => Promise<unknown>;
}

function useLostReasons(enabled: boolean) {
  const { result, query } = useList<{ value: string; label: string }>({
    resource: "dropdowns",
    filters: [
      { field: "list", operator: "eq", value: "lost_reason" },
      { field: "archived", operator: "eq", value: false },
    ],
    sorters: [{ field: "position", order: "asc" }],
    pagination: { currentPage: 1, pageSize: 100 },
    queryOptions: { enabled, staleTime: 60_000 },
  });
  return { options: result.data.map((o) => ({ value: o.value, label: o.label })), loading: query.isLoading };
}

export function CloseDialog({ closing, onCancel, onConfirm }: CloseDialogProps) {
  const [form] = Form.useForm<CloseValues>();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const lost = closing?.outcome === "lost";
  const reasons = useLostReasons(lost);

  const submit = async (values: CloseValues) => {
    if (!closing) return;
    const note = values.close_note?.trim() || null;
    const body: Closing = lost
      ? { status: "lost", lost_reason: values.lost_reason ?? "", close_note: note }
      : { status: "won", close_note: note };
    setSaving(true);
    setFailure(null);
    try {
      await onConfirm(closing.card, body);
    } catch (error) {
      const fields = getFieldErrors(error).filter(
        (f) => f.field === "lost_reason" || f.field === "close_note",
      );
      if (fields.length)
        form.setFields(fields.map((f) => ({ name: f.field as keyof CloseValues, errors: [f.message] })));
      else setFailure(getErrorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  const title = closing ? `Mark “${closing.card.title}” as ${closing.outcome}` : "";
  return (
    <Modal
      open={Boolean(closing)}
      title={title}
      okText={lost ? "Mark as lost" : "Mark as won"}
      okButtonProps={{ danger: lost, loading: saving, htmlType: "submit", form: "pb-close-form" }}
      onCancel={onCancel}
      destroyOnHidden
      afterClose={() => setFailure(null)}
    >
      <Form
        id="pb-close-form"
        form={form}
        layout="vertical"
        onFinish={submit}
        preserve={false}
        requiredMark="optional"
      >
        {lost && (
          <Form.Item
            name="lost_reason"
            label="Why was it lost?"
            rules={[{ required: true, message: "Choose why it was lost" }]}
          >
            <Select
              autoFocus
              options={reasons.options}
              loading={reasons.loading}
              placeholder="Choose a reason"
              notFoundContent={
                reasons.loading ? "Loading reasons…" : "No reasons: add some under CRM › Dropdown lists"
              }
            />
          </Form.Item>
        )}
        <Form.Item
          name="close_note"
          label={lost ? "Note" : "Note (what won it)"}
          rules={[{ max: 1000, message: "At most 1,000 characters" }]}
        >
          <Input.TextArea autoFocus={!lost} rows={3} maxLength={1000} showCount />
        </Form.Item>
        {failure && (
          <div role="alert" className="pb-dialog-error">
            {failure}
          </div>
        )}
      </Form>
    </Modal>
  );
}
