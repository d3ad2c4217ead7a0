import { useSelect } from "@refinedev/antd";
import type { BaseRecord } from "@refinedev/core";
import { Select } from "antd";
import { anyPlaceholder } from "../fields";
import { relationTarget } from "../relation-target";

interface RelationFilterProps {
  resource: string;
  labelField: string;
  title: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}

/** A relation filter: a searchable select of the related resource (typing searches with `q`). */
export function RelationFilter({ resource, labelField, title, value, onChange }: RelationFilterProps) {
  const target = relationTarget(resource);
  const { selectProps } = useSelect<BaseRecord>({
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
      loading={selectProps.loading}
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
