import { CreateButton, List, useTable } from "@refinedev/antd";
import type { CrudFilter } from "@refinedev/core";
import { Button, type CheckboxProps, Empty, Flex, Table } from "antd";
import {
  type AriaAttributes,
  lazy,
  type MouseEvent,
  type ReactNode,
  Suspense,
  useCallback,
  useMemo,
  useState,
} from "react";
import { resourceByName } from "../../../resources";
import { canCreate } from "../../../resources/contract";
import { type ListColumnsPreference, PREFERENCE_KEYS } from "../../../schemas/preferences";
import { LoadError } from "../../components/load-error";
import { usePreference } from "../../layout/use-preference";
import { DEFAULT_PAGE_SIZE } from "../../lib/constants";
import { TOOLBAR_ACTIONS } from "../actions";
import { arrangeColumns, defaultSorters, listColumns } from "../columns";
import { CsvExportButton } from "../csv/csv-export-button";
import { CsvImportButton } from "../csv/csv-import-button";
import type { ListEmbedding, ResourceRecord, ScreenProps } from "../types";
import { ViewTabs } from "../views/view-tabs";
import { withRuntimeDef } from "../with-runtime-def";
import { BulkDeleteBar } from "./bulk-delete-bar";
import { ColumnChooser } from "./column-chooser";
import { hasActiveFilters } from "./filter-values";
import { ListFilters } from "./list-filters";
import { recordName } from "./row-actions";
import { SELECTION_WIDTH, tableColumns, tableWidth } from "./table-columns";
import { totalLabel } from "./total-label";

// Shown with a selection only (Select all matching, Edit field): not part of the list's first load.
const SelectionExtras = lazy(async () => ({
  default: (await import("../bulk/selection-extras")).SelectionExtras,
}));

/**
 * `/<module>/<name>`: the generated list of a resource. Columns, sorters and filters come
 * from its schema, shown and ordered as the user chose (Columns, remembered on the server);
 * 10 a page; row selection with bulk delete; Export CSV (the list's current search, filters
 * and sort) and Import CSV, and the resource's own toolbar actions, beside Create. A page
 * that fails to load says so in place, with Retry, instead of looking empty.
 *
 * `embedded`: the same list inside another page (a form's Submissions tab): its toolbar
 * above the table instead of a page header, its query kept out of the address, and each
 * record opened in place by its label, Show or a click on its row.
 */
/** What a screen that wraps the list may add to it (a CMS type's locale choice). */
export interface ListPageProps extends ScreenProps {
  embedded?: ListEmbedding;
  /** More query parameters of the list's reads (`{ locale: "hi-IN" }`). */
  query?: Record<string, string>;
  /** Controls before the page's own buttons. */
  headerControls?: ReactNode;
}

function ResourceListPage({ def, embedded, query, headerControls }: ListPageProps) {
  const [selected, setSelected] = useState<string[]>([]);
  // "Select all N matching": the bulk edit takes the list's filters instead of the rows.
  const [allMatching, setAllMatching] = useState(false);
  const {
    tableProps,
    tableQuery,
    sorters,
    filters,
    setFilters,
    setSorters,
    setCurrentPage,
    pageSize,
    setPageSize,
  } = useTable<ResourceRecord>({
    resource: def.name,
    // A run-time resource (a form's submissions) is no Refine resource to find its base by.
    dataProviderName: def.base,
    pagination: { pageSize: DEFAULT_PAGE_SIZE },
    sorters: { initial: defaultSorters(def) },
    syncWithLocation: !embedded,
    ...(query ? { meta: { query } } : {}),
  });
  const layout = usePreference<ListColumnsPreference>(PREFERENCE_KEYS.listColumns(def.name));
  const allColumns = useMemo(() => listColumns(def), [def]);
  const shown = useMemo(() => arrangeColumns(allColumns, layout.value), [allColumns, layout.value]);
  const records = tableProps.dataSource as ResourceRecord[] | undefined;
  const onOpen = embedded?.onOpen;
  const columns = useMemo(
    () => tableColumns(def, shown, records, sorters, onOpen),
    [def, shown, records, sorters, onOpen],
  );
  const filtered = hasActiveFilters(filters);
  const plural = def.label.toLowerCase();
  const toolbar = def.actions?.toolbar ?? [];
  // Failed, or waiting offline with nothing to show: never the empty "No products yet".
  const failed = tableQuery.isError || (tableQuery.isPaused && !tableQuery.data);
  const retry = () => tableQuery.refetch();

  // Stable, so the filters, the column chooser and the selection bar (memo) are not drawn
  // again when the rows arrive or the list writes its page into the address.
  const applyFilters = useCallback(
    (next: CrudFilter[], behavior: "merge" | "replace" = "merge") => {
      setFilters(next, behavior);
      setCurrentPage(1);
    },
    [setFilters, setCurrentPage],
  );
  const clearFilters = useCallback(() => applyFilters([], "replace"), [applyFilters]);
  const clearSelection = useCallback(() => {
    setSelected([]);
    setAllMatching(false);
  }, []);
  // Saved views and bulk edit are the engine's (issue 31): its resources' own lists have them.
  const engine = !embedded && !query && resourceByName(def.name)?.base === def.base;

  const actions = (
    <>
      {def.csv !== false && <CsvExportButton def={def} filters={filters} sorters={sorters} />}
      {def.csv === undefined && <CsvImportButton def={def} />}
      {toolbar.map((key) => {
        const Action = TOOLBAR_ACTIONS[key];
        return Action ? <Action key={key} def={def} filters={filters} sorters={sorters} /> : null;
      })}
    </>
  );
  const chooser = <ColumnChooser columns={allColumns} preference={layout.value} onChange={layout.save} />;
  const content = (
    <>
      {/* Embedded, the toolbar has a row of its own (there is no page header), so the filters get the whole width. */}
      {embedded && (
        <Flex justify="flex-end" gap={8} style={{ marginBottom: 12 }}>
          {actions}
          {chooser}
        </Flex>
      )}
      {engine && (
        <ViewTabs
          def={def}
          controls={{
            filters,
            sorters,
            pageSize,
            setFilters,
            setSorters,
            setPageSize,
            setCurrentPage,
            columns: allColumns,
            shown,
            layout,
          }}
        />
      )}
      <Flex justify="space-between" align="start" gap={12}>
        <ListFilters def={def} filters={filters} onChange={applyFilters} onClear={clearFilters} />
        {!embedded && chooser}
      </Flex>
      <BulkDeleteBar
        def={def}
        ids={selected}
        onDone={clearSelection}
        allMatching={allMatching ? tableQuery.data?.total : undefined}
        extra={
          engine && (
            <Suspense fallback={null}>
              <SelectionExtras
                def={def}
                ids={selected}
                pageRows={records?.length ?? 0}
                total={tableQuery.data?.total}
                filters={filters}
                allMatching={allMatching}
                setAllMatching={setAllMatching}
                onDone={clearSelection}
              />
            </Suspense>
          )
        }
      />
      {failed && (
        <LoadError
          what={plural}
          error={tableQuery.error}
          onRetry={retry}
          // A page already shown stays under a one-line alert; with nothing to show, in its place.
          compact={Boolean(tableQuery.data)}
        />
      )}
      {!(failed && !tableQuery.data) && (
        <Table<ResourceRecord>
          {...tableProps}
          // Nothing until the user's columns are known (a moment, once a session), so a hidden
          // column never flashes in; without data, antd shows only the spinner.
          loading={Boolean(tableProps.loading) || !layout.ready}
          dataSource={layout.ready ? tableProps.dataSource : undefined}
          rowKey="id"
          columns={layout.ready ? columns : []}
          onRow={
            onOpen && ((record) => ({ onClick: openOnClick(record, onOpen), style: { cursor: "pointer" } }))
          }
          tableLayout="fixed"
          scroll={{ x: tableWidth(def, shown) }}
          rowSelection={{
            columnWidth: SELECTION_WIDTH,
            selectedRowKeys: selected,
            preserveSelectedRowKeys: true,
            onChange: (keys) => setSelected(keys.map(String)),
            getCheckboxProps: (record) => {
              // Each row's box is named by its record, as antd names the header's "Select all".
              // antd's types leave out aria-*, which Checkbox hands to its input.
              const box: CheckboxProps & AriaAttributes = {
                "aria-label": `Select ${recordName(def, record)}`,
              };
              return box;
            },
          }}
          locale={{
            emptyText: filtered ? (
              <Empty description={`No ${plural} match these filters`}>
                <Button onClick={clearFilters}>Clear filters</Button>
              </Empty>
            ) : (
              (embedded?.empty ?? (
                <Empty description={`No ${plural} yet`}>
                  {canCreate(def) && (
                    <CreateButton resource={def.name} type="primary">
                      Create {def.singular.toLowerCase()}
                    </CreateButton>
                  )}
                </Empty>
              ))
            ),
          }}
          pagination={{
            ...tableProps.pagination,
            showSizeChanger: true,
            showTotal: (total) =>
              totalLabel(total, tableQuery.data?.totalExact !== false, def.singular.toLowerCase(), plural),
          }}
        />
      )}
    </>
  );
  if (embedded) return content;
  return (
    <List
      resource={def.name}
      title={def.label}
      headerButtons={({ defaultButtons }) => (
        <>
          {headerControls}
          {actions}
          {defaultButtons}
        </>
      )}
    >
      {content}
    </List>
  );
}

/** Controls in a row (its label link, Show, Delete, the selection box) act on their own, not as a click on the row. */
const OWN_CLICKS = "a, button, input, label, .ant-table-selection-column, .ant-popover";

/** A click on a row that opens its record, unless it was meant for a control in the row. */
function openOnClick(record: ResourceRecord, onOpen: (record: ResourceRecord) => void) {
  return (event: MouseEvent<HTMLElement>) => {
    if (event.target instanceof Element && event.target.closest(OWN_CLICKS)) return;
    onOpen(record);
  };
}

/** With its custom fields (runtime-def.tsx). */
export default withRuntimeDef(ResourceListPage);
