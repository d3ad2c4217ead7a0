import type { WidgetProps } from "@rjsf/utils";
import { Select } from "antd";
import { useRef } from "react";
import { choosePlaceholder } from "../fields";
import type { OptionsWidgetOptions } from "../form-schema";
import { selectOptions, useOptionList } from "../options";

/**
 * An `x-options` field: a select of its list's options by label, several at once on a list
 * field (tags). Archived options are not offered, except one the record already holds (kept
 * as it was opened, so saving it again is never refused for it).
 */
export function OptionsWidget({
  id,
  value,
  required,
  disabled,
  readonly,
  options,
  rawErrors,
  onChange,
  onBlur,
  onFocus,
  label,
}: WidgetProps) {
  const { list, multiple } = options as unknown as OptionsWidgetOptions;
  const { options: all, loading } = useOptionList(list);
  const values = (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]).map(
    String,
  );
  // What the record held when the form opened: its archived options stay choosable.
  const opened = useRef(values);
  return (
    <Select<string | string[]>
      id={id}
      mode={multiple ? "multiple" : undefined}
      value={multiple ? values : (value ?? undefined)}
      options={selectOptions(all, opened.current)}
      loading={loading}
      showSearch
      optionFilterProp="label"
      placeholder={choosePlaceholder(String(label ?? ""), { many: Boolean(multiple) })}
      allowClear={!required}
      disabled={disabled || readonly}
      status={rawErrors?.length ? "error" : undefined}
      // A list emptied is an empty list (tags may not be null), a single choice cleared is no value.
      onChange={(next) => onChange(multiple ? (Array.isArray(next) ? next : []) : (next ?? undefined))}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      style={{ width: "100%" }}
    />
  );
}
