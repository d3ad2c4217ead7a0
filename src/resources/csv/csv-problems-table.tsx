import { Table } from "antd";
import { columnLabel, type ImportProblem } from "./import-report";

/**
 * The problems of an import: Row (as the spreadsheet numbers it), Column (its title) and
 * Message, each sortable; scrolls within the dialog when the list is long.
 */
export function CsvProblemsTable({ problems }: { problems: ImportProblem[] }) {
  const rows = problems.map((p, key) => ({ ...p, key }));
  return (
    <section aria-label="Import errors">
      <Table<ImportProblem & { key: number }>
        size="small"
        bordered
        dataSource={rows}
        pagination={false}
        scroll={{ y: 320 }}
        columns={[
          {
            title: "Row",
            dataIndex: "row",
            width: 90,
            sorter: (a, b) => (a.row ?? 0) - (b.row ?? 0),
            render: (row?: number) => row ?? "—",
          },
          {
            title: "Column",
            dataIndex: "field",
            width: 200,
            sorter: (a, b) => columnLabel(a).localeCompare(columnLabel(b)),
            render: (_: string, p) => columnLabel(p),
          },
          {
            title: "Message",
            dataIndex: "message",
            sorter: (a, b) => a.message.localeCompare(b.message),
          },
        ]}
      />
    </section>
  );
}
