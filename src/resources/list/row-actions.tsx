import { useDelete, useGo } from "@refinedev/core";
import { Button, Popconfirm, Space } from "antd";
import { canEdit } from "../../../resources/contract";
import { ROW_ACTIONS } from "../actions";
import { recordPath } from "../routes";
import type { ResourceRecord, ScreenProps } from "../types";

/** What to call a record in a sentence: its label field, else its kind. */
export const recordName = (def: ScreenProps["def"], record: ResourceRecord): string => {
  const label = record[def.schema["x-label"]];
  return typeof label === "string" && label ? label : `this ${def.singular.toLowerCase()}`;
};

interface RowActionsProps extends ScreenProps {
  record: ResourceRecord;
  /** Shows the record in place (an embedded list's drawer) instead of at its show page. */
  onOpen?: (record: ResourceRecord) => void;
}

/** Show, Edit (unless the records have no edit screen), Delete (confirmed), then the resource's own row actions. */
export function RowActions({ def, record, onOpen }: RowActionsProps) {
  const go = useGo();
  const { mutate: remove, mutation } = useDelete();
  const extra = def.actions?.row ?? [];

  return (
    <Space size={0}>
      <Button
        type="link"
        size="small"
        onClick={() => (onOpen ? onOpen(record) : go({ to: recordPath(def, "show", record.id) }))}
      >
        Show
      </Button>
      {canEdit(def) && (
        <Button type="link" size="small" onClick={() => go({ to: recordPath(def, "edit", record.id) })}>
          Edit
        </Button>
      )}
      <Popconfirm
        title={`Delete ${recordName(def, record)}?`}
        description="This cannot be undone."
        okText="Yes, delete"
        okButtonProps={{ danger: true }}
        cancelText="Cancel"
        onConfirm={() =>
          remove({
            resource: def.name,
            // A run-time resource (a form's submissions) is no Refine resource to find its base by.
            dataProviderName: def.base,
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
