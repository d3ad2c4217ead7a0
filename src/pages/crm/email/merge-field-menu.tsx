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
}

const item = (f: MergeField) => ({ key: f.key, label: `${f.label} {{${f.key}}}` });

export function MergeFieldMenu({
  custom = [],
  onInsert,
  disabled,
  label = "Insert field",
  button = { size: "small" },
}: MergeFieldMenuProps) {
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
      <Button {...button}>
        {label} <DownOutlined aria-hidden />
      </Button>
    </Dropdown>
  );
}
