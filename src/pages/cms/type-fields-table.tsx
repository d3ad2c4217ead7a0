/** The builder's fields of one type, in order: change, move up or down, remove (the draft of the type). */
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, EditOutlined } from "@ant-design/icons";
import { Button, Empty, Space, Table, Tag, Typography } from "antd";
import { useRef } from "react";
import { FIELD_KIND_LABELS } from "../../../schemas/cms-fields";
import { focusFirst } from "../../hooks/use-focus-return";
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
  const box = useRef<HTMLDivElement>(null);
  const button = (label: string) => () =>
    box.current?.querySelector<HTMLElement>(`[aria-label="${CSS.escape(label)}"]`);
  // A removed field's buttons go, a field moved to an end disables the button pressed: focus
  // the nearest control that is still there, never the page body.
  const remove = (i: number) => {
    const next = rows[i + 1] ?? rows[i - 1];
    onRemove(i);
    focusFirst(next && button(`Change ${next.field.title}`), () =>
      box.current?.parentElement?.querySelector<HTMLElement>("[data-add-field]"),
    );
  };
  const move = (i: number, by: 1 | -1) => {
    const title = rows[i].field.title;
    onMove(i, by);
    focusFirst(
      button(`Move ${title} ${by < 0 ? "up" : "down"}`),
      button(`Move ${title} ${by < 0 ? "down" : "up"}`),
    );
  };
  return (
    <div ref={box}>
      <Table<FieldRow>
        rowKey={(r) => r.original ?? r.name}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: <Empty description="No fields yet" /> }}
        columns={[
          // Long titles and names are cut to one line ("…"), whole on hover: never broken mid-word.
          {
            title: "Title",
            render: (_, r) => (
              <Typography.Text ellipsis={{ tooltip: r.field.title }} style={{ maxWidth: 320 }}>
                {r.field.title}
              </Typography.Text>
            ),
          },
          {
            title: "API name",
            render: (_, r) => (
              <Typography.Text code ellipsis={{ tooltip: r.name }} style={{ maxWidth: 240 }}>
                {r.name}
              </Typography.Text>
            ),
          },
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
                  onClick={() => move(i, -1)}
                />
                <Button
                  type="text"
                  aria-label={`Move ${r.field.title} down`}
                  icon={<ArrowDownOutlined aria-hidden />}
                  disabled={i === rows.length - 1}
                  onClick={() => move(i, 1)}
                />
                <Button
                  type="text"
                  danger
                  aria-label={`Remove ${r.field.title}`}
                  icon={<DeleteOutlined aria-hidden />}
                  onClick={() => remove(i)}
                />
              </Space>
            ),
          },
        ]}
      />
    </div>
  );
}
