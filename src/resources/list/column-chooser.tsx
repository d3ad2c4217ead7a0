import { ArrowDownOutlined, ArrowUpOutlined, InsertRowLeftOutlined } from "@ant-design/icons";
import { Button, Checkbox, Flex, Popover, Typography } from "antd";
import { memo, useId } from "react";
import type { ListColumnsPreference } from "../../../schemas/preferences";
import { arrangeColumns, type ListColumn } from "../columns";

interface ColumnChooserProps {
  /** Every column of the list, in its default order. */
  columns: readonly ListColumn[];
  preference: ListColumnsPreference | null;
  onChange: (preference: ListColumnsPreference | null) => void;
}

/**
 * "Columns": show, hide and reorder the list's columns. The label column is always shown
 * and first (it links to each record). The choice is the user's, remembered on the server.
 */
export const ColumnChooser = memo(function ColumnChooser({
  columns,
  preference,
  onChange,
}: ColumnChooserProps) {
  const titleId = useId();
  const hidden = new Set(preference?.hidden ?? []);
  // Every column in the user's order, hidden ones included, so a hidden one keeps its place.
  const ordered = arrangeColumns(columns, { hidden: [], order: preference?.order });
  const movable = ordered.filter((c) => !c.isLabel);
  const hiddenCount = columns.filter((c) => !c.isLabel && hidden.has(c.field)).length;

  const save = (next: { hidden?: string[]; order?: string[] }) =>
    onChange({ hidden: next.hidden ?? [...hidden], order: next.order ?? preference?.order });
  const toggle = (field: string, show: boolean) =>
    save({ hidden: show ? [...hidden].filter((f) => f !== field) : [...hidden, field] });
  const move = (index: number, by: -1 | 1) => {
    const order = movable.map((c) => c.field);
    [order[index], order[index + by]] = [order[index + by], order[index]];
    save({ order });
  };

  const content = (
    <Flex vertical gap={2} role="group" aria-labelledby={titleId} style={{ minWidth: 260 }}>
      {ordered.map((column) => {
        const index = movable.indexOf(column);
        return (
          <Flex key={column.field} align="center" justify="space-between" gap={8}>
            <Checkbox
              checked={column.isLabel || !hidden.has(column.field)}
              disabled={column.isLabel}
              onChange={(event) => toggle(column.field, event.target.checked)}
            >
              {column.title}
              {column.isLabel && <Typography.Text type="secondary"> (always shown)</Typography.Text>}
            </Checkbox>
            {!column.isLabel && (
              <span>
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowUpOutlined />}
                  aria-label={`Move ${column.title} up`}
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                />
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowDownOutlined />}
                  aria-label={`Move ${column.title} down`}
                  disabled={index === movable.length - 1}
                  onClick={() => move(index, 1)}
                />
              </span>
            )}
          </Flex>
        );
      })}
      <Flex justify="end" style={{ marginTop: 8 }}>
        <Button size="small" disabled={!preference} onClick={() => onChange(null)}>
          Reset to default
        </Button>
      </Flex>
    </Flex>
  );

  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={<span id={titleId}>Columns shown</span>}
      content={content}
    >
      <Button icon={<InsertRowLeftOutlined />}>
        {hiddenCount > 0 ? `Columns (${hiddenCount} hidden)` : "Columns"}
      </Button>
    </Popover>
  );
});
