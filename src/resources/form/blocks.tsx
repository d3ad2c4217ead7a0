/**
 * Lists of blocks in the generated forms (a CMS dynamic zone): each block headed by its kind's
 * name and number ("Hero — 1", not rjsf's "Blocks-1"), with the choice of kind beside it, and
 * add buttons that say what they add in words rather than an icon with a tooltip.
 */
import { PlusOutlined } from "@ant-design/icons";
import type { IconButtonProps, WidgetProps } from "@rjsf/utils";
import { getUiOptions } from "@rjsf/utils";
import { Button, Flex, Select, Typography } from "antd";

/** The block's number from its kind select's id (`root_blocks_0__oneof_select`). */
const numberOf = (id: string) => Number(/_(\d+)__(?:one|any)of_select$/.exec(id)?.[1] ?? 0) + 1;

/** What rjsf draws above each block: the kind select of a oneOf item, shown as the block's heading. */
export function BlockKindWidget({ id, value, options, disabled, readonly, onChange }: WidgetProps) {
  const kinds = (options.enumOptions ?? []) as Array<{ value: number; label: string }>;
  const number = numberOf(id);
  const kind = kinds.find((k) => k.value === value)?.label ?? "Block";
  return (
    <Flex align="center" justify="space-between" gap={8} wrap style={{ marginBottom: 8 }}>
      <Typography.Text strong id={`${id}-heading`}>{`${kind} — ${number}`}</Typography.Text>
      {kinds.length > 1 && (
        <Select<number>
          id={id}
          size="small"
          aria-label={`Kind of block ${number}`}
          value={value}
          options={kinds.map((k) => ({ value: k.value, label: k.label }))}
          disabled={disabled || readonly}
          onChange={(next) => onChange(next)}
          style={{ minWidth: 160 }}
        />
      )}
    </Flex>
  );
}

/** The add button of every list in the generated forms: "Add block", "Add item", in words. */
export function AddButton({ uiSchema, registry, onClick, disabled, className }: IconButtonProps) {
  const words = getUiOptions(uiSchema, registry.globalUiOptions).addLabel;
  return (
    <Button
      className={className}
      type="dashed"
      block
      icon={<PlusOutlined aria-hidden />}
      onClick={onClick}
      disabled={disabled}
    >
      {typeof words === "string" ? words : "Add item"}
    </Button>
  );
}
