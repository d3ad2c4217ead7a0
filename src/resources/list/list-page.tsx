import { CreateButton, List, useTable } from "@refinedev/antd";
import type { CrudFilter } from "@refinedev/core";
import { Button, Empty, Table } from "antd";
import { useMemo, useState } from "react";
import { canCreate } from "../../../resources/contract";
import { DEFAULT_PAGE_SIZE } from "../../lib/constants";
import { TOOLBAR_ACTIONS } from "../actions";
import { defaultSorters } from "../columns";
import { CsvExportButton } from "../csv/csv-export-button";
import { CsvImportButton } from "../csv/csv-import-button";
import type { ResourceRecord, ScreenProps } from "../types";
import { BulkDeleteBar } from "./bulk-delete-bar";
import { hasActiveFilters } from "./filter-values";
import { ListFilters } from "./list-filters";
import { tableColumns } from "./table-columns";
import { totalLabel } from "./total-label";

/**
 * `/<module>/<name>`: the generated list of a resource. Columns, sorters and filters come
 * from its schema; 10 a page; row selection with bulk delete; Export CSV (the list's current
 * search, filters and sort) and Import CSV, and the resource's own toolbar actions, beside Create.
 */
export default function ResourceListPage({ def }: ScreenProps) {
  const [selected, setSelected] = useState<string[]>([]);
  const { tableProps, tableQuery, sorters, filters, setFilters, setCurrentPage } = useTable<ResourceRecord>({
    resource: def.name,
    pagination: { pageSize: DEFAULT_PAGE_SIZE },
    sorters: { initial: defaultSorters(def) },
    syncWithLocation: true,
  });
  const records = tableProps.dataSource as ResourceRecord[] | undefined;
  const columns = useMemo(() => tableColumns(def, records, sorters), [def, records, sorters]);
  const filtered = hasActiveFilters(filters);
  const plural = def.label.toLowerCase();
  const toolbar = def.actions?.toolbar ?? [];

  const applyFilters = (next: CrudFilter[], behavior: "merge" | "replace" = "merge") => {
    setFilters(next, behavior);
    setCurrentPage(1);
  };

  return (
    <List
      resource={def.name}
      title={def.label}
      headerButtons={({ defaultButtons }) => (
        <>
          <CsvExportButton def={def} filters={filters} sorters={sorters} />
          <CsvImportButton def={def} />
          {toolbar.map((key) => {
            const Action = TOOLBAR_ACTIONS[key];
            return Action ? <Action key={key} def={def} filters={filters} sorters={sorters} /> : null;
          })}
          {defaultButtons}
        </>
      )}
    >
      <ListFilters
        def={def}
        filters={filters}
        onChange={applyFilters}
        onClear={() => applyFilters([], "replace")}
      />
      <BulkDeleteBar def={def} ids={selected} onDone={() => setSelected([])} />
      <Table<ResourceRecord>
        {...tableProps}
        rowKey="id"
        columns={columns}
        scroll={{ x: "max-content" }}
        rowSelection={{
          selectedRowKeys: selected,
          preserveSelectedRowKeys: true,
          onChange: (keys) => setSelected(keys.map(String)),
        }}
        locale={{
          emptyText: filtered ? (
            <Empty description={`No ${plural} match these filters`}>
              <Button onClick={() => applyFilters([], "replace")}>Clear filters</Button>
            </Empty>
          ) : (
            <Empty description={`No ${plural} yet`}>
              {canCreate(def) && (
                <CreateButton resource={def.name} type="primary">
                  Create {def.singular.toLowerCase()}
                </CreateButton>
              )}
            </Empty>
          ),
        }}
        pagination={{
          ...tableProps.pagination,
          showSizeChanger: true,
          showTotal: (total) =>
            totalLabel(total, tableQuery.data?.totalExact !== false, def.singular.toLowerCase(), plural),
        }}
      />
    </List>
  );
}
