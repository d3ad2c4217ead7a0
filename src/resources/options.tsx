/**
 * Admin-managed option lists (the CRM's `/crm/dropdowns`, spec §3 `commonDropdown`) as the
 * generated screens use them for `x-options` fields: a list's options read once and shared by
 * every select, cell and filter that shows it (react-query, through Refine's `useList`), and
 * read again when an option changes anywhere (the `dropdowns` live channel).
 */
import { useList } from "@refinedev/core";
import { Tag } from "antd";
import { TruncatedText } from "./list/truncated-text";
import { EMPTY_VALUE } from "./thumbnails";

export interface DropdownOption {
  id: string;
  value: string;
  label: string;
  archived: boolean;
  color: string | null;
}

/** Options a list screen or form reads of one list (the API's page size, ample for option lists). */
const MAX_OPTIONS = 200;

/**
 * The options of `list`, in order (archived ones too: records keep them).
 *
 * @example
 * const { options } = useOptionList("source");
 */
export function useOptionList(list: string | undefined) {
  const { result, query } = useList<DropdownOption>({
    resource: "dropdowns",
    dataProviderName: "crm",
    filters: [{ field: "list", operator: "eq", value: list }],
    sorters: [
      { field: "position", order: "asc" },
      { field: "label", order: "asc" },
    ],
    pagination: { currentPage: 1, pageSize: MAX_OPTIONS },
    queryOptions: { enabled: Boolean(list), staleTime: 60_000 },
  });
  return { options: result.data ?? [], loading: query.isLoading };
}

/** An option's words: its label, "(archived)" when no longer offered; the value itself when unknown. */
export function optionText(options: readonly DropdownOption[], value: string): string {
  const option = options.find((o) => o.value === value);
  if (!option) return value;
  return option.archived ? `${option.label} (archived)` : option.label;
}

/** Select options of a list: those offered, and archived ones a record still holds (`keep`). */
export function selectOptions(options: readonly DropdownOption[], keep: readonly string[] = []) {
  return options
    .filter((o) => !o.archived || keep.includes(o.value))
    .map((o) => ({ value: o.value, label: optionText(options, o.value) }));
}

/** An `x-options` value in a cell or on the show page: each option by its label. */
export function OptionValue({
  list,
  value,
  variant,
}: {
  list: string;
  value: unknown;
  variant: "cell" | "detail";
}) {
  const { options } = useOptionList(list);
  const values = (Array.isArray(value) ? value : [value]).filter((v) => typeof v === "string");
  if (!values.length) return EMPTY_VALUE;
  if (!Array.isArray(value)) {
    const text = optionText(options, values[0]);
    return variant === "cell" ? <TruncatedText text={text} /> : <span>{text}</span>;
  }
  return (
    <span style={variant === "cell" ? { whiteSpace: "nowrap" } : undefined}>
      {values.map((v) => (
        <Tag key={v} color={options.find((o) => o.value === v)?.color ?? undefined}>
          {optionText(options, v)}
        </Tag>
      ))}
    </span>
  );
}
