import { useSelect } from "@refinedev/antd";
import type { BaseRecord } from "@refinedev/core";
import { Select } from "antd";
import { useState } from "react";
import { anyPlaceholder } from "../fields";
import { relationTarget } from "../relation-target";

interface RelationFilterProps {
  resource: string;
  labelField: string;
  title: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}

/**
 * A relation filter: a searchable select of the related resource (typing searches with `q`).
 * Its options are read when it is first focused or opened, not with the list: a list has
 * several of these, and their reads and renders would come before its first row (issue 28).
 * A chosen value's label is read at once, as before.
 */
export function RelationFilter({ resource, labelField, title, value, onChange }: RelationFilterProps) {
  const target = relationTarget(resource);
  const [wanted, setWanted] = useState(false);
  const want = () => setWanted(true);
  const { selectProps } = useSelect<BaseRecord>({
    queryOptions: { enabled: wanted },
    resource: target.resource,
    dataProviderName: target.dataProviderName,
    optionLabel: (item) => String(item[labelField] ?? item.id),
    optionValue: (item) => String(item.id),
    defaultValue: value,
    pagination: { pageSize: 20 },
    onSearch: (q) => [{ field: "q", operator: "contains", value: q.trim() || undefined }],
  });
  return (
    <Select<string>
      options={selectProps.options as { label: string; value: string }[] | undefined}
      onSearch={selectProps.onSearch}
      loading={wanted && selectProps.loading}
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
  );
}
