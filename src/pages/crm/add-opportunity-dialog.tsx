/**
 * "Add opportunity" of a column: the few fields a deal starts with, in its column's stage,
 * created through the engine's `POST /crm/opportunities` (validated by the opportunity schema,
 * answered per field). The new card arrives on top of its column.
 */
import { useSelect } from "@refinedev/antd";
import { type BaseRecord, useCreate, useGetIdentity } from "@refinedev/core";
import { DatePicker, Form, Input, InputNumber, Modal, Select, Space } from "antd";
import type { Dayjs } from "dayjs";
import { useMemo, useState } from "react";
import type { MeResponse } from "../../../schemas/auth";
import type { BoardColumn, BoardOwner } from "../../../schemas/crm-board";
import { CURRENCIES } from "../../../schemas/products";
import { DEFAULT_CURRENCY } from "../../lib/constants";
import { getErrorMessage, getFieldErrors } from "../../lib/errors";
import { DAY_INPUT_FORMATS, dayToWire } from "../../resources/form/date-values";

interface AddValues {
  title: string;
  client_id: string;
  value?: number | null;
  currency: string;
  expected_close?: Dayjs | null;
  owner_id?: string | null;
}

interface AddOpportunityDialogProps {
  column: BoardColumn | null;
  owners: readonly BoardOwner[];
  onClose: () => void;
  /** Told the new opportunity's id once it is created. */
  onCreated: (id: string) => void;
}

export function AddOpportunityDialog({ column, owners, onClose, onCreated }: AddOpportunityDialogProps) {
  const [form] = Form.useForm<AddValues>();
  const [failure, setFailure] = useState<string | null>(null);
  const { data: me } = useGetIdentity<MeResponse>();
  const { mutateAsync, mutation } = useCreate();
  const { selectProps: clientSelect } = useSelect<BaseRecord>({
    resource: "clients",
    optionLabel: (c) => String(c.company ? `${c.name} (${c.company})` : c.name),
    optionValue: (c) => String(c.id),
    pagination: { pageSize: 20 },
    onSearch: (q) => [{ field: "q", operator: "contains", value: q.trim() || undefined }],
    queryOptions: { enabled: Boolean(column) },
  });
  const ownerOptions = useMemo(() => {
    const list = owners.map((o) => ({ value: o.id, label: o.name }));
    if (me && !list.some((o) => o.value === me.userID))
      list.unshift({ value: me.userID, label: `${me.first_name} ${me.last_name}`.trim() });
    return list;
  }, [owners, me]);

  const submit = async (values: AddValues) => {
    if (!column) return;
    setFailure(null);
    try {
      const created = await mutateAsync({
        resource: "opportunities",
        values: {
          title: values.title.trim(),
          client_id: values.client_id,
          stage: column.stage,
          value: values.value ?? 0,
          currency: values.currency,
          expected_close: values.expected_close ? dayToWire(values.expected_close) : null,
          owner_id: values.owner_id ?? null,
        },
        successNotification: false,
        errorNotification: false,
      });
      onCreated(String(created.data.id));
      onClose();
    } catch (error) {
      const fields = getFieldErrors(error);
      const known = new Set(["title", "client_id", "value", "currency", "expected_close", "owner_id"]);
      const here = fields.filter((f) => known.has(f.field));
      if (here.length)
        form.setFields(here.map((f) => ({ name: f.field as keyof AddValues, errors: [f.message] })));
      if (here.length < fields.length || !fields.length) setFailure(getErrorMessage(error));
    }
  };

  return (
    <Modal
      open={Boolean(column)}
      title={column ? `Add opportunity to ${column.label}` : ""}
      okText="Add opportunity"
      okButtonProps={{ loading: mutation.isPending, htmlType: "submit", form: "pb-add-form" }}
      onCancel={onClose}
      destroyOnHidden
      afterClose={() => setFailure(null)}
    >
      <Form
        id="pb-add-form"
        form={form}
        layout="vertical"
        onFinish={submit}
        preserve={false}
        initialValues={{ currency: DEFAULT_CURRENCY, owner_id: me?.userID }}
        requiredMark="optional"
      >
        <Form.Item
          name="title"
          label="Title"
          rules={[
            { required: true, whitespace: true, message: "Give it a title" },
            { max: 200, message: "At most 200 characters" },
          ]}
        >
          <Input autoFocus maxLength={200} />
        </Form.Item>
        <Form.Item name="client_id" label="Client" rules={[{ required: true, message: "Choose a client" }]}>
          <Select {...clientSelect} showSearch placeholder="Search clients by name" />
        </Form.Item>
        <Form.Item label="Value" required={false}>
          <Space.Compact block>
            <Form.Item name="value" noStyle>
              <InputNumber
                min={0}
                max={999999999999.99}
                step={1000}
                style={{ width: "100%" }}
                aria-label="Value"
              />
            </Form.Item>
            <Form.Item name="currency" noStyle>
              <Select
                aria-label="Currency"
                style={{ width: 100 }}
                options={CURRENCIES.map((c) => ({ value: c, label: c }))}
              />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
        <Form.Item name="expected_close" label="Expected close">
          <DatePicker format={DAY_INPUT_FORMATS} style={{ width: "100%" }} />
        </Form.Item>
        <Form.Item name="owner_id" label="Owner">
          <Select allowClear options={ownerOptions} placeholder="Nobody yet" />
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
