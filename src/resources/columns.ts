/**
 * The list screen's columns and filters, derived from a resource's schema (`x-list`,
 * `x-filterable`, `x-searchable`) and hints (`columnWidths`). Pure.
 */
import type { ResourceDefinition } from "../../resources/contract";
import {
  type FieldKind,
  fieldKind,
  fieldTitle,
  inSentence,
  isNumeric,
  joinWords,
  relationOf,
} from "./fields";

export interface ListColumn {
  field: string;
  title: string;
  kind: FieldKind;
  width?: number;
  /** Sortable when the API may sort by it (`x-filterable`). */
  sortable: boolean;
  align?: "right";
  /** The record's label field: rendered as the link to its show page. */
  isLabel: boolean;
}

/** Default widths by kind, so dates and tags do not wrap; `columnWidths` overrides. */
const KIND_WIDTHS: Partial<Record<FieldKind, number>> = {
  datetime: 160,
  date: 120,
  time: 90,
  boolean: 100,
  money: 140,
  integer: 120,
  media: 140,
};

/**
 * Columns of the list screen, in `x-list` order.
 *
 * @example
 * listColumns(products).map((c) => c.title);
 * // ["SKU code", "Name", "Price", "Currency", "Category", "Sub-category", "Status", "Updated"]
 */
export function listColumns(def: ResourceDefinition): ListColumn[] {
  const { schema } = def;
  return schema["x-list"].map((field) => {
    const kind = fieldKind(schema, field);
    return {
      field,
      title: fieldTitle(schema, field),
      kind,
      width: def.columnWidths?.[field] ?? KIND_WIDTHS[kind],
      sortable: schema["x-filterable"].includes(field),
      align: isNumeric(kind) ? "right" : undefined,
      isLabel: field === schema["x-label"],
    };
  });
}

/** The initial sort of the list, from `x-defaultSort` (`-updated_at`). */
export function defaultSorters(def: ResourceDefinition): { field: string; order: "asc" | "desc" }[] {
  return def.schema["x-defaultSort"]
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (s.startsWith("-") ? { field: s.slice(1), order: "desc" } : { field: s, order: "asc" }));
}

export type FilterControl =
  | { kind: "select"; field: string; title: string; source: "enum" | "boolean" }
  | { kind: "relation"; field: string; title: string; resource: string; labelField: string }
  | { kind: "number-range"; field: string; title: string }
  /** `day`: a `date` field, filtered by days; `instant`: a `date-time`, from the start of one local day to the end of another. */
  | { kind: "date-range"; field: string; title: string; granularity: "day" | "instant" }
  | { kind: "time-range"; field: string; title: string }
  | { kind: "text"; field: string; title: string };

/** Kinds filtered by a "contains" box. */
const TEXT_KINDS: ReadonlySet<FieldKind> = new Set(["text", "multiline", "email", "url"]);

/**
 * The filter controls above the table, one per `x-filterable` field, chosen by kind: enum
 * and boolean → select, relation → searchable select of the related resource, numbers,
 * dates and times of day → ranges. Text fields (emails and web addresses too) that `q`
 * already searches get no control of their own.
 */
export function filterControls(def: ResourceDefinition): FilterControl[] {
  const { schema } = def;
  return schema["x-filterable"].flatMap((field): FilterControl[] => {
    const kind = fieldKind(schema, field);
    const title = fieldTitle(schema, field);
    const relation = relationOf(schema.properties[field]);
    if (relation) return [{ kind: "relation", field, title, ...relation }];
    if (kind === "enum") return [{ kind: "select", field, title, source: "enum" }];
    if (kind === "boolean") return [{ kind: "select", field, title, source: "boolean" }];
    if (isNumeric(kind)) return [{ kind: "number-range", field, title }];
    if (kind === "date") return [{ kind: "date-range", field, title, granularity: "day" }];
    if (kind === "datetime") return [{ kind: "date-range", field, title, granularity: "instant" }];
    if (kind === "time") return [{ kind: "time-range", field, title }];
    if (TEXT_KINDS.has(kind) && !schema["x-searchable"].includes(field))
      return [{ kind: "text", field, title }];
    return [];
  });
}

/**
 * The search box's placeholder, naming what `q` searches.
 *
 * @example
 * searchPlaceholder(products); // "Search by SKU code, name or description"
 */
export function searchPlaceholder(def: ResourceDefinition): string {
  const titles = def.schema["x-searchable"].map((f) => inSentence(fieldTitle(def.schema, f)));
  return `Search by ${joinWords(titles)}`;
}

/** Relation fields among the columns: their labels are fetched once per page. */
export function relationColumns(def: ResourceDefinition): ListColumn[] {
  return listColumns(def).filter((c) => c.kind === "relation");
}

const AUDIT_ORDER = ["created_at", "created_by", "updated_at", "updated_by", "id"];

/**
 * Fields of the show page, in order: the form's order (`ui:order`), the other writable
 * fields, then the audit fields.
 */
export function detailFields(def: ResourceDefinition): string[] {
  const properties = def.schema.properties;
  const writable = Object.keys(properties).filter((f) => !properties[f].readOnly);
  const order = (def.uiSchema?.["ui:order"] as string[] | undefined) ?? [];
  const first = order.filter((f) => writable.includes(f));
  const rest = writable.filter((f) => !first.includes(f));
  const audit = AUDIT_ORDER.filter((f) => f in properties);
  const other = Object.keys(properties).filter((f) => properties[f].readOnly && !audit.includes(f));
  return [...first, ...rest, ...other, ...audit];
}
