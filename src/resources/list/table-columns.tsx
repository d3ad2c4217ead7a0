import { getDefaultSortOrder } from "@refinedev/antd";
import type { CrudSort } from "@refinedev/core";
import { Button, type TableColumnsType } from "antd";
import { Link } from "react-router";
import { canEdit, type ResourceDefinition } from "../../../resources/contract";
import { formatDmyTime } from "../../lib/dates";
import type { ListColumn } from "../columns";
import { FieldValue } from "../field-value";
import type { FieldKind } from "../fields";
import { idsOf } from "../relation-value";
import { recordPath } from "../routes";
import type { ResourceRecord } from "../types";
import { RowActions } from "./row-actions";
import { TruncatedText } from "./truncated-text";

/**
 * The text of the link to a record: its label (an instant as `DD-MM-YYYY HH:mm`, as a
 * submission's "Submitted"), or "(unnamed product)".
 */
export function labelText(value: unknown, kind: FieldKind, singular: string): string {
  if (value === null || value === undefined || value === "") return `(unnamed ${singular.toLowerCase()})`;
  const date = kind === "datetime" ? new Date(String(value)) : null;
  return date && !Number.isNaN(date.getTime()) ? formatDmyTime(date) : String(value);
}

/** Room for Show, Edit and Delete as small links; each extra row action adds one more. */
const ACTIONS_WIDTH = 180;
const ROW_ACTION_WIDTH = 70;
/** The Edit link, the shortest of the three. */
const EDIT_WIDTH = 40;
/** antd's row selection column. */
export const SELECTION_WIDTH = 48;

/** Width of the Actions column of a resource (records without an edit screen have no Edit). */
export const actionsWidth = (def: ResourceDefinition): number =>
  ACTIONS_WIDTH - (canEdit(def) ? 0 : EDIT_WIDTH) + (def.actions?.row?.length ?? 0) * ROW_ACTION_WIDTH;

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
 * `onOpen`: records open in place (an embedded list's drawer) instead of at their show page.
 */
export function tableColumns(
  def: ResourceDefinition,
  shown: readonly ListColumn[],
  records: readonly ResourceRecord[] | undefined,
  sorters: CrudSort[],
  onOpen?: (record: ResourceRecord) => void,
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
        const label = labelText(record[column.field], column.kind, def.singular);
        return (
          <TruncatedText
            text={label}
            render={(text, cut) =>
              onOpen ? (
                // A button, not an <a> without an address: reachable with the keyboard like a link.
                <Button
                  type="link"
                  style={{ padding: 0, height: "auto" }}
                  onClick={() => onOpen(record)}
                  aria-label={cut ? label : undefined}
                >
                  {text}
                </Button>
              ) : (
                <Link to={recordPath(def, "show", record.id)} aria-label={cut ? label : undefined}>
                  {text}
                </Link>
              )
            }
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
    render: (_: unknown, record: ResourceRecord) => <RowActions def={def} record={record} onOpen={onOpen} />,
  });
  return columns;
}
