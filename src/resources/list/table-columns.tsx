import { getDefaultSortOrder } from "@refinedev/antd";
import type { CrudSort } from "@refinedev/core";
import type { TableColumnsType } from "antd";
import { Link } from "react-router";
import type { ResourceDefinition } from "../../../resources/contract";
import type { ListColumn } from "../columns";
import { FieldValue } from "../field-value";
import { idsOf } from "../relation-value";
import { recordPath } from "../routes";
import type { ResourceRecord } from "../types";
import { RowActions } from "./row-actions";
import { TruncatedText } from "./truncated-text";

/** The text of the link to a record: its label, or "(unnamed product)". */
const labelText = (value: unknown, singular: string): string =>
  value === null || value === undefined || value === ""
    ? `(unnamed ${singular.toLowerCase()})`
    : String(value);

/** Room for Show, Edit and Delete as small links; each extra row action adds one more. */
const ACTIONS_WIDTH = 180;
const ROW_ACTION_WIDTH = 70;
/** antd's row selection column. */
export const SELECTION_WIDTH = 48;

/** Width of the Actions column of a resource. */
export const actionsWidth = (def: ResourceDefinition): number =>
  ACTIONS_WIDTH + (def.actions?.row?.length ?? 0) * ROW_ACTION_WIDTH;

/**
 * The width the table needs (the row selection, every column at its width or least width,
 * the actions): wider than the screen, it scrolls sideways under a still Actions column.
 */
export const tableWidth = (def: ResourceDefinition, columns: readonly ListColumn[]): number =>
  SELECTION_WIDTH + columns.reduce((sum, c) => sum + c.width, 0) + actionsWidth(def);

/**
 * The antd columns of a resource's table: the shown columns (title, width, sorter, renderer
 * by kind; the label field links to the record), then the row actions, kept at the right.
 * Every cell is one line: long values are cut with "..." and shown whole on hover.
 * `records` is the page being shown: each relation column asks for all its labels at once.
 */
export function tableColumns(
  def: ResourceDefinition,
  shown: readonly ListColumn[],
  records: readonly ResourceRecord[] | undefined,
  sorters: CrudSort[],
): TableColumnsType<ResourceRecord> {
  const columns: TableColumnsType<ResourceRecord> = shown.map((column) => {
    const relationIds = column.kind === "relation" ? idsOf(records, column.field) : undefined;
    return {
      key: column.field,
      dataIndex: column.field,
      title: column.title,
      // A flexible column has no width: with the fixed table layout it takes the spare room.
      width: column.flexible ? undefined : column.width,
      align: column.align,
      sorter: column.sortable,
      sortOrder: column.sortable ? (getDefaultSortOrder(column.field, sorters) ?? null) : undefined,
      onCell: () => ({ style: { whiteSpace: "nowrap" } }),
      render: (_: unknown, record: ResourceRecord) => {
        if (!column.isLabel) {
          return (
            <FieldValue schema={def.schema} field={column.field} record={record} relationIds={relationIds} />
          );
        }
        const label = labelText(record[column.field], def.singular);
        return (
          <TruncatedText
            text={label}
            render={(text, cut) => (
              <Link to={recordPath(def, "show", record.id)} aria-label={cut ? label : undefined}>
                {text}
              </Link>
            )}
          />
        );
      },
    };
  });
  columns.push({
    key: "actions",
    title: "Actions",
    fixed: "right",
    width: actionsWidth(def),
    render: (_: unknown, record: ResourceRecord) => <RowActions def={def} record={record} />,
  });
  return columns;
}
