/**
 * "Insert field": the merge fields a message may use (the client's, their custom fields, the
 * sender's), each typed as `{{key}}` where the cursor is. Shared by the email and SMS dialogs.
 */
import { DownOutlined } from "@ant-design/icons";
import { Button, type ButtonProps, Dropdown } from "antd";
import {
  CLIENT_MERGE_FIELDS,
  type MergeField,
  mergeFieldToken,
  USER_MERGE_FIELDS,
} from "../../../../schemas/merge-fields";

export interface MergeFieldMenuProps {
  /** The client's custom fields (`client.<key>`), besides the standard ones. */
  custom?: readonly MergeField[];
  onInsert: (token: string) => void;
  disabled?: boolean;
  /** The button's words (default "Insert field"). */
  label?: string;
  /** The button's size and style where it sits (small beside a field; full size in a row of pickers). */
  button?: Pick<ButtonProps, "size" | "style">;
  /** Other groups of fields instead of the client's and the sender's (an automation's variables). */
  groups?: ReadonlyArray<{ label: string; fields: readonly MergeField[] }>;
}

const item = (f: MergeField) => ({ key: f.key, label: `${f.label} {{${f.key}}}` });

export function MergeFieldMenu({
  custom = [],
  onInsert,
  disabled,
  label = "Insert field",
  button = { size: "small" },
  groups,
}: MergeFieldMenuProps) {
  const items = groups
    ? groups.map((g) => ({ type: "group" as const, label: g.label, children: g.fields.map(item) }))
    : [
        { type: "group" as const, label: "Client", children: CLIENT_MERGE_FIELDS.map(item) },
        ...(custom.length
          ? [{ type: "group" as const, label: "Custom fields", children: custom.map(item) }]
          : []),
        { type: "group" as const, label: "You", children: USER_MERGE_FIELDS.map(item) },
      ];
  return (
    <Dropdown
      disabled={disabled}
      trigger={["click"]}
      // Opened from the keyboard, the arrows move through the fields at once.
      autoFocus
      menu={{
        onClick: ({ key }) => onInsert(mergeFieldToken(key)),
        items,
      }}
    >
      <Button {...button}>
        {label} <DownOutlined aria-hidden />
      </Button>
    </Dropdown>
  );
}
