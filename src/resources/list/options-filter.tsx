import { Select } from "antd";
import { anyPlaceholder } from "../fields";
import { optionText, useOptionList } from "../options";

interface OptionsFilterProps {
  list: string;
  title: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}

/** A filter on an `x-options` field: a select of its list's options by label (archived ones too, marked). */
export function OptionsFilter({ list, title, value, onChange }: OptionsFilterProps) {
  const { options, loading } = useOptionList(list);
  const placeholder = anyPlaceholder(title);
  return (
    <Select<string>
      aria-label={`Filter by ${title}`}
      placeholder={placeholder}
      allowClear
      showSearch
      optionFilterProp="label"
      loading={loading}
      value={value}
      options={options.map((o) => ({ value: o.value, label: optionText(options, o.value) }))}
      onChange={(next) => onChange(next ?? undefined)}
      style={{ width: `clamp(160px, calc(${placeholder.length} * 0.6em + 44px), 260px)` }}
      popupMatchSelectWidth={false}
    />
  );
}
