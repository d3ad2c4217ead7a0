/**
 * CRM › Custom fields (`/crm/custom-fields`, spec §3 `customFieldsData`): the fields admins add
 * to clients and opportunities at run time — text, number, date, a choice from a dropdown list,
 * yes/no, email, web address — in the order forms, lists and CSV files show them. A change
 * shows at once in every open list and form (their schema is read again, runtime-def.tsx).
 * Everyone with the CRM module sees the fields; administrators change them.
 */
import { ArrowDownOutlined, ArrowUpOutlined, PlusOutlined } from "@ant-design/icons";
import { useGetIdentity, useInvalidate, useList } from "@refinedev/core";
import {
  App,
  Button,
  Card,
  Empty,
  Form,
  Input,
  Modal,
  Popconfirm,
  Segmented,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from "antd";
import { useMemo, useState } from "react";
import { RESOURCES } from "../../../resources/index";
import type { MeResponse } from "../../../schemas/auth";
import { dropdownListLabel } from "../../../schemas/crm";
import {
  CUSTOM_FIELD_TYPE_LABELS,
  CUSTOM_FIELD_TYPES,
  type CustomField,
  type CustomFieldType,
} from "../../../schemas/custom-fields";
import { LoadError } from "../../components/load-error";
import { getErrorMessage, getFieldErrors } from "../../lib/errors";
import { type CustomFieldBody, customFieldsApi, keyOfLabel } from "./custom-fields-api";

/** The records admins may add fields to, by their `x-custom` key. */
const ENTITIES = RESOURCES.flatMap((r) =>
  r.schema["x-custom"] ? [{ value: r.schema["x-custom"], label: r.label, singular: r.singular }] : [],
);

type Editing = { field: CustomField | null };

export default function CustomFieldsPage() {
  const { message } = App.useApp();
  const invalidate = useInvalidate();
  const { data: me } = useGetIdentity<MeResponse>();
  const admin = Boolean(me?.isadmin);
  const [entity, setEntity] = useState(ENTITIES[0]?.value ?? "clients");
  const [editing, setEditing] = useState<Editing | null>(null);
  const { result, query } = useList<CustomField>({
    resource: "custom-fields",
    dataProviderName: "crm",
    pagination: { mode: "off" },
  });
  const fields = useMemo(
    () => (result.data ?? []).filter((f) => f.entity === entity).sort((a, b) => a.position - b.position),
    [result.data, entity],
  );
  const { result: optionRows } = useList<{ list: string }>({
    resource: "dropdowns",
    dataProviderName: "crm",
    sorters: [{ field: "list", order: "asc" }],
    pagination: { currentPage: 1, pageSize: 200 },
  });
  const lists = [...new Set((optionRows.data ?? []).map((o) => o.list))];
  const current = ENTITIES.find((e) => e.value === entity);
  const refresh = () =>
    invalidate({ resource: "custom-fields", dataProviderName: "crm", invalidates: ["list"] });

  const move = async (index: number, by: -1 | 1) => {
    const ids = fields.map((f) => f.id);
    [ids[index], ids[index + by]] = [ids[index + by], ids[index]];
    try {
      await customFieldsApi.reorder(entity, ids);
    } catch (error) {
      message.error(getErrorMessage(error));
    }
    await refresh();
  };

  const remove = async (field: CustomField) => {
    try {
      await customFieldsApi.remove(field.id);
      message.success(`${field.label} deleted`);
    } catch (error) {
      message.error(getErrorMessage(error));
    }
    await refresh();
  };

  return (
    <Card
      title="Custom fields"
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined aria-hidden />}
          disabled={!admin}
          title={admin ? undefined : "Only administrators add fields"}
          onClick={() => setEditing({ field: null })}
        >
          Add field
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        Fields added here appear at once in the {current?.label.toLowerCase() ?? "records"}' list, filters,
        forms, CSV files and API, with no restart. A choice field takes its options from a dropdown list (CRM
        › Dropdown lists).{admin ? "" : " Only administrators change them."}
      </Typography.Paragraph>
      <Segmented
        value={entity}
        onChange={(v) => setEntity(String(v))}
        options={ENTITIES.map((e) => ({ value: e.value, label: e.label }))}
        style={{ marginBottom: 16 }}
        aria-label="Records"
      />
      {query.isError ? (
        <LoadError what="custom fields" error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <Table<CustomField>
          rowKey="id"
          loading={query.isLoading}
          dataSource={fields}
          pagination={false}
          locale={{
            emptyText: (
              <Empty
                description={`No custom fields on ${current?.label.toLowerCase() ?? "these records"} yet`}
              />
            ),
          }}
          columns={[
            {
              title: "Order",
              width: 100,
              render: (_, f, i) => (
                <Space size={4}>
                  <Button
                    size="small"
                    icon={<ArrowUpOutlined aria-hidden />}
                    aria-label={`Move ${f.label} up`}
                    disabled={!admin || i === 0}
                    onClick={() => move(i, -1)}
                  />
                  <Button
                    size="small"
                    icon={<ArrowDownOutlined aria-hidden />}
                    aria-label={`Move ${f.label} down`}
                    disabled={!admin || i === fields.length - 1}
                    onClick={() => move(i, 1)}
                  />
                </Space>
              ),
            },
            { title: "Label", dataIndex: "label" },
            {
              title: "Key",
              dataIndex: "key",
              render: (k: string) => <Typography.Text code>{k}</Typography.Text>,
            },
            {
              title: "Type",
              dataIndex: "type",
              render: (t: CustomFieldType, f) =>
                t === "enum" && f.list
                  ? `Choice from ${dropdownListLabel(f.list)}`
                  : CUSTOM_FIELD_TYPE_LABELS[t],
            },
            {
              title: "Required",
              dataIndex: "required",
              width: 100,
              render: (r: boolean) => (r ? <Tag color="blue">Required</Tag> : <Tag>Optional</Tag>),
            },
            {
              title: "Actions",
              width: 170,
              render: (_, f) => (
                <Space>
                  <Button size="small" disabled={!admin} onClick={() => setEditing({ field: f })}>
                    Edit
                  </Button>
                  <Popconfirm
                    title={`Delete ${f.label}?`}
                    description={`Its values on every ${current?.singular.toLowerCase() ?? "record"} are deleted too.`}
                    okText="Yes, delete"
                    okButtonProps={{ danger: true }}
                    onConfirm={() => remove(f)}
                    disabled={!admin}
                  >
                    <Button size="small" danger disabled={!admin}>
                      Delete
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      )}
      {editing && (
        <FieldDialog
          entity={entity}
          field={editing.field}
          lists={lists}
          onClose={() => setEditing(null)}
          onSaved={async (saved) => {
            setEditing(null);
            message.success(editing.field ? `${saved.label} saved` : `${saved.label} added`);
            await refresh();
          }}
        />
      )}
    </Card>
  );
}

interface FieldDialogProps {
  entity: string;
  field: CustomField | null;
  lists: string[];
  onClose: () => void;
  onSaved: (field: CustomField) => void;
}

/** Add or edit one field: label, key (proposed from the label; fixed once made), type, list, required. */
function FieldDialog({ entity, field, lists, onClose, onSaved }: FieldDialogProps) {
  const [form] = Form.useForm<CustomFieldBody>();
  const [keyTouched, setKeyTouched] = useState(Boolean(field));
  const [busy, setBusy] = useState(false);
  const type = Form.useWatch("type", form);
  const { message } = App.useApp();

  const save = async (values: CustomFieldBody) => {
    setBusy(true);
    const body = {
      ...values,
      list: values.type === "enum" ? values.list : null,
      description: values.description || null,
    };
    try {
      const saved = field
        ? await customFieldsApi.update(field.id, {
            label: body.label,
            type: body.type,
            list: body.list,
            required: body.required,
            description: body.description,
          })
        : await customFieldsApi.create({ ...body, entity });
      onSaved(saved);
    } catch (error) {
      const details = getFieldErrors(error);
      if (details.length)
        form.setFields(details.map((d) => ({ name: d.field as keyof CustomFieldBody, errors: [d.message] })));
      message.error(getErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={field ? `Edit ${field.label}` : "Add a custom field"}
      okText={field ? "Save" : "Add"}
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ loading: busy }}
      destroyOnHidden
    >
      <Form<CustomFieldBody>
        form={form}
        layout="vertical"
        initialValues={
          field ?? { label: "", key: "", type: "text", list: null, required: false, description: null }
        }
        onFinish={save}
        onValuesChange={(changed: Partial<CustomFieldBody>) => {
          if (changed.key !== undefined) setKeyTouched(true);
          if (changed.label !== undefined && !keyTouched)
            form.setFieldValue("key", keyOfLabel(changed.label));
        }}
      >
        <Form.Item
          name="label"
          label="Label"
          rules={[{ required: true, whitespace: true, message: "Give the field a label" }]}
        >
          <Input autoFocus maxLength={80} />
        </Form.Item>
        <Form.Item
          name="key"
          label="Key"
          extra={
            field
              ? "A field's key never changes: its values are kept under it."
              : "Its name in the API and CSV files."
          }
          rules={[
            { required: true, message: "Give the field a key" },
            {
              pattern: /^[a-z][a-z0-9_]{0,39}$/,
              message: "Key may only contain lower-case letters, digits and _, and must start with a letter",
            },
          ]}
        >
          <Input disabled={Boolean(field)} maxLength={40} />
        </Form.Item>
        <Form.Item
          name="type"
          label="Type"
          extra={field ? "The type changes only while no record has a value for the field." : undefined}
        >
          <Select
            options={CUSTOM_FIELD_TYPES.map((t) => ({ value: t, label: CUSTOM_FIELD_TYPE_LABELS[t] }))}
          />
        </Form.Item>
        {type === "enum" && (
          <Form.Item
            name="list"
            label="Dropdown list"
            extra="Its options are offered; add or archive them under CRM › Dropdown lists."
            rules={[{ required: true, message: "Choose the dropdown list whose options this field offers" }]}
          >
            <Select
              showSearch
              options={lists.map((l) => ({ value: l, label: `${dropdownListLabel(l)} (${l})` }))}
            />
          </Form.Item>
        )}
        <Form.Item name="description" label="Help text">
          <Input maxLength={300} />
        </Form.Item>
        <Form.Item
          name="required"
          label="Required"
          valuePropName="checked"
          extra="New records must have a value."
        >
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
