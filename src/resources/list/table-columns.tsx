import { getDefaultSortOrder } from "@refinedev/antd";
import type { CrudSort } from "@refinedev/core";
import type { TableColumnsType } from "antd";
import type { MouseEvent, ReactNode } from "react";
import { Link } from "react-router";
import type { ResourceDefinition } from "../../../resources/contract";
import { listColumns } from "../columns";
import { FieldValue } from "../field-value";
import type { FieldKind } from "../fields";
import { idsOf } from "../relation-value";
import { recordPath } from "../routes";
import type { ResourceRecord } from "../types";
import { RowActions } from "./row-actions";

const WRAPPING: ReadonlySet<FieldKind> = new Set(["text", "multiline", "list"]);

/** The text of the link to a record: its label, or "(unnamed product)". */
const labelText = (value: unknown, singular: string): string =>
  value === null || value === undefined || value === ""
    ? `(unnamed ${singular.toLowerCase()})`
    : String(value);

/** Widest a related record's label gets in a cell: one long name must not push the other columns off screen. */
const RELATION_CELL_MAX = 240;

/** Cuts its content with an ellipsis past RELATION_CELL_MAX (the cell shows it whole on hover). */
function CutLabel({ children }: { children: ReactNode }) {
  return (
    <span
      data-cut-label
      style={{
        display: "inline-block",
        maxWidth: RELATION_CELL_MAX,
        overflow: "hidden",
        textOverflow: "ellipsis",
        verticalAlign: "bottom",
      }}
    >
      {children}
    </span>
  );
}

/** On hover, a cell whose CutLabel is cut gets the whole text as its title. */
function titleIfCut(event: MouseEvent<HTMLElement>) {
  const box = event.currentTarget.querySelector<HTMLElement>("[data-cut-label]");
  if (box) event.currentTarget.title = box.scrollWidth > box.clientWidth ? (box.textContent ?? "") : "";
}

/**
 * The antd columns of a resource's table: one per `x-list` field (title, width, sorter,
 * renderer by kind; the label field links to the record), then the row actions.
 * `records` is the page being shown: each relation column asks for all its labels at once.
 */
export function tableColumns(
  def: ResourceDefinition,
  records: readonly ResourceRecord[] | undefined,
  sorters: CrudSort[],
): TableColumnsType<ResourceRecord> {
  const columns: TableColumnsType<ResourceRecord> = listColumns(def).map((column) => {
    const relationIds = column.kind === "relation" ? idsOf(records, column.field) : undefined;
    const cut = column.kind === "relation" && column.width === undefined;
    return {
      key: column.field,
      dataIndex: column.field,
      title: column.title,
      width: column.width,
      align: column.align,
      sorter: column.sortable,
      sortOrder: column.sortable ? (getDefaultSortOrder(column.field, sorters) ?? null) : undefined,
      // Short values stay on one line; text columns cut long values with an ellipsis instead.
      onCell: () =>
        WRAPPING.has(column.kind)
          ? {}
          : { style: { whiteSpace: "nowrap" }, onMouseEnter: cut ? titleIfCut : undefined },
      render: (_: unknown, record: ResourceRecord) =>
        column.isLabel ? (
          <Link to={recordPath(def, "show", record.id)}>{labelText(record[column.field], def.singular)}</Link>
        ) : cut ? (
          <CutLabel>
            <FieldValue schema={def.schema} field={column.field} record={record} relationIds={relationIds} />
          </CutLabel>
        ) : (
          <FieldValue schema={def.schema} field={column.field} record={record} relationIds={relationIds} />
        ),
    };
  });
  columns.push({
    key: "actions",
    title: "Actions",
    fixed: "right",
    width: 180 + (def.actions?.row?.length ?? 0) * 70,
    render: (_: unknown, record: ResourceRecord) => <RowActions def={def} record={record} />,
  });
  return columns;
}
