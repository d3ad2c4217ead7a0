import { useSelect } from "@refinedev/antd";
import type { BaseRecord, CrudFilter } from "@refinedev/core";
import type { WidgetProps } from "@rjsf/utils";
import { Select } from "antd";
import { resourceByName } from "../../../resources";
import { choosePlaceholder } from "../fields";
import type { FormData, RelationOptions } from "../form-schema";
import { relationTarget } from "../relation-target";

/** What the form shares with its widgets: the current values, for dependent selects. */
export interface ResourceFormContext {
  formData: FormData;
  [layout: string]: unknown;
}

/**
 * A foreign key as a searchable select of the related resource: options labelled by its
 * label field, typing searches the API (`q`), and the current value is fetched by id so it
 * shows its label before the options load. A select that depends on another field
 * (sub-category on category) offers only the matching records and waits for that field.
 */
export function RelationWidget({
  id,
  value,
  required,
  disabled,
  readonly,
  options,
  registry,
  rawErrors,
  onChange,
  onBlur,
  onFocus,
}: WidgetProps) {
  const { resource, labelField, dependsOn, multiple } = options as unknown as RelationOptions & {
    multiple?: boolean;
  };
  const formData = (registry.formContext as ResourceFormContext | undefined)?.formData ?? {};
  const parentValue = dependsOn ? formData[dependsOn.field] : undefined;
  const waiting = Boolean(dependsOn) && (parentValue === undefined || parentValue === null);
  const filters: CrudFilter[] =
    dependsOn && !waiting ? [{ field: dependsOn.filterField, operator: "eq", value: parentValue }] : [];
  const related = resourceByName(resource);
  const target = relationTarget(resource);

  const { selectProps } = useSelect<BaseRecord>({
    resource: target.resource,
    dataProviderName: target.dataProviderName,
    optionLabel: (item) => String(item[labelField] ?? item.id),
    optionValue: (item) => String(item.id),
    defaultValue: value ?? undefined,
    filters,
    pagination: { pageSize: 20 },
    onSearch: (q) => [{ field: "q", operator: "contains", value: q.trim() || undefined }],
    queryOptions: { enabled: !waiting },
  });

  const parentTitle = dependsOn ? registry.rootSchema.properties?.[dependsOn.field] : undefined;
  const placeholder = waiting
    ? `${choosePlaceholder(titleOf(parentTitle))} first`
    : multiple
      ? choosePlaceholder(related?.label ?? "Records", { many: true })
      : choosePlaceholder(related?.singular ?? target.singular ?? "Record");

  return (
    <Select
      {...selectProps}
      mode={multiple ? "multiple" : undefined}
      id={id}
      value={value ?? undefined}
      placeholder={placeholder}
      allowClear={!required}
      disabled={disabled || readonly || waiting}
      status={rawErrors?.length ? "error" : undefined}
      onChange={(next) =>
        onChange(multiple && Array.isArray(next) && !next.length ? undefined : (next ?? undefined))
      }
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      style={{ width: "100%" }}
    />
  );
}

const titleOf = (schema: unknown): string =>
  typeof schema === "object" && schema !== null && "title" in schema ? String(schema.title) : "related field";
