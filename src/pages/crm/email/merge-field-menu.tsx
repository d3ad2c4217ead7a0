/**
 * "Insert field": the merge fields a message may use (the client's, their custom fields, the
 * sender's), each typed as `{{key}}` where the cursor is. Shared by the email and SMS dialogs.
 */
import { DownOutlined } from "@ant-design/icons";
import { Button, Dropdown } from "antd";
import {
  CLIENT_MERGE_FIELDS,
  type MergeField,
  mergeFieldToken,
  USER_MERGE_FIELDS,
} from "../../../../schemas/merge-fields";

export interface MergeFieldMenuProps {
  /** Custom fields of the client (`client.<key>`), besides the standard ones. */
  customKeys?: readonly string[];
  onInsert: (token: string) => void;
  disabled?: boolean;
}

const item = (f: MergeField) => ({ key: f.key, label: `${f.label} {{${f.key}}}` });

export function MergeFieldMenu({ customKeys = [], onInsert, disabled }: MergeFieldMenuProps) {
  const custom = customKeys
    .filter((k) => !CLIENT_MERGE_FIELDS.some((f) => f.key === `client.${k}`))
    .map((k) => ({ key: `client.${k}`, label: k.replaceAll("_", " ") }));
  return (
    <Dropdown
      disabled={disabled}
      trigger={["click"]}
      menu={{
        onClick: ({ key }) => onInsert(mergeFieldToken(key)),
        items: [
          { type: "group", label: "Client", children: CLIENT_MERGE_FIELDS.map(item) },
          ...(custom.length
            ? [{ type: "group" as const, label: "Custom fields", children: custom.map(item) }]
            : []),
          { type: "group", label: "You", children: USER_MERGE_FIELDS.map(item) },
        ],
      }}
    >
      <Button size="small">
        Insert field <DownOutlined aria-hidden />
      </Button>
    </Dropdown>
  );
}
