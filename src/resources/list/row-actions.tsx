import { useDelete, useGo } from "@refinedev/core";
import { Button, Popconfirm, Space } from "antd";
import { ROW_ACTIONS } from "../actions";
import { recordPath } from "../routes";
import type { ResourceRecord, ScreenProps } from "../types";

/** What to call a record in a sentence: its label field, else its kind. */
export const recordName = (def: ScreenProps["def"], record: ResourceRecord): string => {
  const label = record[def.schema["x-label"]];
  return typeof label === "string" && label ? label : `this ${def.singular.toLowerCase()}`;
};

/** Show, Edit, Delete (confirmed), then the resource's own row actions. */
export function RowActions({ def, record }: ScreenProps & { record: ResourceRecord }) {
  const go = useGo();
  const { mutate: remove, mutation } = useDelete();
  const extra = def.actions?.row ?? [];

  return (
    <Space size={0}>
      <Button type="link" size="small" onClick={() => go({ to: recordPath(def, "show", record.id) })}>
        Show
      </Button>
      <Button type="link" size="small" onClick={() => go({ to: recordPath(def, "edit", record.id) })}>
        Edit
      </Button>
      <Popconfirm
        title={`Delete ${recordName(def, record)}?`}
        description="This cannot be undone."
        okText="Yes, delete"
        okButtonProps={{ danger: true }}
        cancelText="Cancel"
        onConfirm={() =>
          remove({
            resource: def.name,
            id: record.id,
            successNotification: { type: "success", message: `${def.singular} deleted` },
          })
        }
      >
        <Button type="link" size="small" danger loading={mutation.isPending}>
          Delete
        </Button>
      </Popconfirm>
      {extra.map((key) => {
        const Action = ROW_ACTIONS[key];
        return Action ? <Action key={key} def={def} record={record} /> : null;
      })}
    </Space>
  );
}
