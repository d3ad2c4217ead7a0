/** The builder's fields of one type, in order: change, move up or down, remove (the draft of the type). */
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, EditOutlined } from "@ant-design/icons";
import { Button, Empty, Space, Table, Tag, Typography } from "antd";
import { FIELD_KIND_LABELS } from "../../../schemas/cms-fields";
import { type ContentTypeRecord, fieldOrder } from "./entry-definition";
import type { FieldDraft } from "./field-drawer";

/** A field in the working copy, with the name it had when loaded (renames keep values). */
export interface FieldRow extends FieldDraft {
  original?: string;
}

export function rowsOf(type: ContentTypeRecord): FieldRow[] {
  return fieldOrder(type.schema).map((name) => ({
    name,
    field: type.schema.properties[name],
    required: type.schema.required.includes(name),
    original: name,
  }));
}

export function TypeFieldsTable({
  rows,
  onEdit,
  onMove,
  onRemove,
}: {
  rows: FieldRow[];
  onEdit: (index: number) => void;
  onMove: (index: number, by: 1 | -1) => void;
  onRemove: (index: number) => void;
}) {
  return (
    <Table<FieldRow>
      rowKey={(r) => r.original ?? r.name}
      dataSource={rows}
      pagination={false}
      locale={{ emptyText: <Empty description="No fields yet" /> }}
      columns={[
        { title: "Title", render: (_, r) => r.field.title },
        { title: "API name", render: (_, r) => <Typography.Text code>{r.name}</Typography.Text> },
        {
          title: "Kind",
          render: (_, r) => (
            <Space size={4}>
              {FIELD_KIND_LABELS[r.field["x-kind"]]}
              {r.field["x-multiple"] && <Tag>many</Tag>}
            </Space>
          ),
        },
        { title: "Required", render: (_, r) => (r.required ? "Yes" : "No"), width: 100 },
        {
          title: "Actions",
          width: 180,
          render: (_, r, i) => (
            <Space size={0}>
              <Button
                type="text"
                aria-label={`Change ${r.field.title}`}
                icon={<EditOutlined aria-hidden />}
                onClick={() => onEdit(i)}
              />
              <Button
                type="text"
                aria-label={`Move ${r.field.title} up`}
                icon={<ArrowUpOutlined aria-hidden />}
                disabled={i === 0}
                onClick={() => onMove(i, -1)}
              />
              <Button
                type="text"
                aria-label={`Move ${r.field.title} down`}
                icon={<ArrowDownOutlined aria-hidden />}
                disabled={i === rows.length - 1}
                onClick={() => onMove(i, 1)}
              />
              <Button
                type="text"
                danger
                aria-label={`Remove ${r.field.title}`}
                icon={<DeleteOutlined aria-hidden />}
                onClick={() => onRemove(i)}
              />
            </Space>
          ),
        },
      ]}
    />
  );
}
