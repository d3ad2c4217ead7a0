import { useSelect } from "@refinedev/antd";
import type { BaseRecord } from "@refinedev/core";
import { Select } from "antd";
import { memo, useCallback, useEffect, useRef, useState } from "react";
import { anyPlaceholder } from "../fields";
import { relationTarget } from "../relation-target";

interface RelationFilterProps {
  resource: string;
  labelField: string;
  title: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}

/** What the related records' reads give the select. */
interface Found {
  options?: { label: string; value: string }[];
  loading: boolean;
}

/**
 * A relation filter: a searchable select of the related resource (typing searches with `q`).
 * Its options are read when it is first focused or opened, not with the list: a list has
 * several of these, and their reads and renders would come before its first row (issue 28);
 * a chosen value's label is read at once.
 * Refine's `useSelect`, a dozen hooks of its own, runs only from then on too (or at once when
 * a value is chosen, to read its label), in {@link RelationOptions} beside the select: the
 * select itself stays mounted, so its focus and open list are kept.
 */
export function RelationFilter({ resource, labelField, title, value, onChange }: RelationFilterProps) {
  const [wanted, setWanted] = useState(false);
  const want = () => setWanted(true);
  const [found, setFound] = useState<Found>({ loading: false });
  const search = useRef<((q: string) => void) | undefined>(undefined);
  const onSearch = useCallback((q: string) => search.current?.(q), []);
  return (
    <>
      {(wanted || value !== undefined) && (
        <RelationOptions
          resource={resource}
          labelField={labelField}
          value={value}
          wanted={wanted}
          search={search}
          onFound={setFound}
        />
      )}
      <Select<string>
        options={found.options}
        onSearch={onSearch}
        loading={wanted && found.loading}
        onFocus={want}
        onOpenChange={(open) => open && want()}
        showSearch
        filterOption={false}
        aria-label={`Filter by ${title}`}
        placeholder={anyPlaceholder(title)}
        allowClear
        value={value}
        onChange={(next) => onChange(next ?? undefined)}
        style={{ width: 200 }}
        popupMatchSelectWidth={false}
      />
    </>
  );
}

interface RelationOptionsProps {
  resource: string;
  labelField: string;
  value: string | undefined;
  /** Read the options (the select was focused or opened); else only the chosen value's label. */
  wanted: boolean;
  /** Where the select's typing is sent (Refine's debounced search). */
  search: { current: ((q: string) => void) | undefined };
  onFound: (found: Found) => void;
}

/** Refine's `useSelect` for a {@link RelationFilter}: draws nothing, hands its options up. */
const RelationOptions = memo(function RelationOptions({
  resource,
  labelField,
  value,
  wanted,
  search,
  onFound,
}: RelationOptionsProps) {
  const target = relationTarget(resource);
  const { selectProps } = useSelect<BaseRecord>({
    queryOptions: { enabled: wanted },
    // Its own options, or it would take `queryOptions` and leave a chosen value's label unread
    // until the select is opened (an id in the box after a reload).
    defaultValueQueryOptions: { enabled: value !== undefined },
    resource: target.resource,
    dataProviderName: target.dataProviderName,
    optionLabel: (item) => String(item[labelField] ?? item.id),
    optionValue: (item) => String(item.id),
    defaultValue: value,
    pagination: { pageSize: 20 },
    onSearch: (q) => [{ field: "q", operator: "contains", value: q.trim() || undefined }],
  });
  search.current = selectProps.onSearch;
  const options = selectProps.options as Found["options"];
  const loading = Boolean(selectProps.loading);
  useEffect(() => onFound({ options, loading }), [options, loading, onFound]);
  return null;
});
