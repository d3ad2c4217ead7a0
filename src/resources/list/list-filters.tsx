import { ClearOutlined } from "@ant-design/icons";
import type { CrudFilter } from "@refinedev/core";
import { Button, Flex, Input, Select } from "antd";
import { lazy, memo, Suspense, useMemo } from "react";
import type { ResourceDefinition } from "../../../resources/contract";
import { type FilterControl, filterControls, searchPlaceholder } from "../columns";
import { anyPlaceholder, enumOptions, type Option } from "../fields";
import { asBoolean, asNumber, filterValue, hasActiveFilters, typedEnumValue } from "./filter-values";

import { DateRangeFilter, NumberRangeFilter, TimeRangeFilter } from "./range-filters";
import { RelationFilter } from "./relation-filter";

interface ListFiltersProps {
  def: ResourceDefinition;
  filters: CrudFilter[];
  /** Merges these filters into the list's (an `undefined` value removes one). */
  onChange: (filters: CrudFilter[]) => void;
  onClear: () => void;
}

/** Loaded by lists that filter on an admin-managed list's values (CRM), not by every list. */
const OptionsFilter = lazy(async () => ({ default: (await import("./options-filter")).OptionsFilter }));

/** Booleans go through the select as text (antd option values are strings or numbers). */
const BOOLEAN_OPTIONS: Option<string>[] = [
  { value: "true", label: "Yes" },
  { value: "false", label: "No" },
];

/**
 * Search box (`q`) and one control per filterable field, chosen by its kind. Drawn again only
 * when the filters change, not with every render of the list (its rows arriving).
 */
export const ListFilters = memo(function ListFilters({ def, filters, onChange, onClear }: ListFiltersProps) {
  const controls = useMemo(() => filterControls(def), [def]);
  const searchable = def.schema["x-searchable"].length > 0;
  const q = filterValue(filters, "q", "contains") as string | undefined;

  const control = (c: FilterControl) => {
    const eq = filterValue(filters, c.field, "eq");
    const set = (operator: "eq" | "contains", value: unknown) =>
      onChange([{ field: c.field, operator, value }]);
    const range = (from: unknown, to: unknown) =>
      onChange([
        { field: c.field, operator: "gte", value: from },
        { field: c.field, operator: "lte", value: to },
      ]);
    switch (c.kind) {
      case "select": {
        const field = def.schema.properties[c.field];
        const isBoolean = c.source === "boolean";
        const options = isBoolean ? BOOLEAN_OPTIONS : enumOptions(field);
        const value = isBoolean ? asBoolean(eq)?.toString() : typedEnumValue(eq, field?.enum ?? []);
        const placeholder = anyPlaceholder(c.title, isBoolean);
        return (
          <Select<string | number>
            key={c.field}
            aria-label={`Filter by ${c.title}`}
            placeholder={placeholder}
            allowClear
            value={value}
            options={options}
            // A yes-or-no choice says what it is about once chosen: "Agrees to SMS: yes".
            labelRender={isBoolean ? ({ label }) => `${c.title}: ${String(label).toLowerCase()}` : undefined}
            onChange={(next) => set("eq", isBoolean && next !== undefined ? next === "true" : next)}
            // The whole placeholder ("Any company size"), within reason: about 0.6em a
            // character and the arrow.
            style={{ width: `clamp(160px, calc(${placeholder.length} * 0.6em + 44px), 260px)` }}
          />
        );
      }
      case "options":
        return (
          <Suspense key={c.field} fallback={null}>
            <OptionsFilter
              list={c.list}
              title={c.title}
              value={eq === undefined ? undefined : String(eq)}
              onChange={(next) => set("eq", next)}
            />
          </Suspense>
        );
      case "relation":
        return (
          <RelationFilter
            key={c.field}
            resource={c.resource}
            labelField={c.labelField}
            title={c.title}
            value={eq === undefined ? undefined : String(eq)}
            onChange={(next) => set("eq", next)}
          />
        );
      case "number-range":
        return (
          <NumberRangeFilter
            key={c.field}
            title={c.title}
            value={[
              asNumber(filterValue(filters, c.field, "gte")),
              asNumber(filterValue(filters, c.field, "lte")),
            ]}
            onChange={([from, to]) => range(from, to)}
          />
        );
      case "date-range":
        return (
          <DateRangeFilter
            key={c.field}
            title={c.title}
            granularity={c.granularity}
            value={[
              filterValue(filters, c.field, "gte") as string | undefined,
              filterValue(filters, c.field, "lte") as string | undefined,
            ]}
            onChange={([from, to]) => range(from, to)}
          />
        );
      case "time-range":
        return (
          <TimeRangeFilter
            key={c.field}
            title={c.title}
            value={[
              filterValue(filters, c.field, "gte") as string | undefined,
              filterValue(filters, c.field, "lte") as string | undefined,
            ]}
            onChange={([from, to]) => range(from, to)}
          />
        );
      case "text":
        return (
          <Input.Search
            key={c.field}
            aria-label={`Filter by ${c.title}`}
            placeholder={c.title}
            allowClear
            defaultValue={filterValue(filters, c.field, "contains") as string | undefined}
            onSearch={(value) => set("contains", value.trim() || undefined)}
            style={{ width: 200 }}
          />
        );
    }
  };

  return (
    <Flex gap={12} wrap="wrap" style={{ marginBottom: 16 }}>
      {searchable && (
        <Input.Search
          // Remounted by a clear, so the box empties too.
          key={q === undefined ? "empty" : "search"}
          aria-label={`Search ${def.label.toLowerCase()}`}
          placeholder={searchPlaceholder(def)}
          allowClear
          defaultValue={q}
          onSearch={(value) =>
            onChange([{ field: "q", operator: "contains", value: value.trim() || undefined }])
          }
          // Wide enough for the whole placeholder ("Search by SKU code, name or description"):
          // about 0.6em a character (capitals such as "UTM" take more), plus the clear icon and
          // the search button.
          style={{ width: `max(340px, calc(${searchPlaceholder(def).length} * 0.6em + 80px))` }}
        />
      )}
      {controls.map(control)}
      {hasActiveFilters(filters) && (
        <Button icon={<ClearOutlined />} onClick={onClear}>
          Clear filters
        </Button>
      )}
    </Flex>
  );
});
