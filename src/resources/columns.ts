/**
 * The list screen's columns and filters, derived from a resource's schema (`x-list`,
 * `x-filterable`, `x-searchable`) and hints (`columnWidths`). Pure.
 */
import type { ResourceDefinition } from "../../resources/contract";
import { isInternal } from "../../schemas/contract";
import type { ListColumnsPreference } from "../../schemas/preferences";
import {
  enumOptions,
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
  /**
   * Width in pixels. A flexible column (the label, long text) has no width of its own: it
   * takes a share of the room the others leave, and this is the least it gets.
   */
  width: number;
  flexible: boolean;
  /** Sortable when the API may sort by it (`x-filterable`). */
  sortable: boolean;
  align?: "right";
  /** The record's label field: rendered as the link to its show page. */
  isLabel: boolean;
}

/**
 * Widths by kind, wide enough for a typical value in the table's 14 px font plus the cell's
 * padding: dates, amounts and tags are never cut. `columnWidths` of a resource overrides.
 */
const KIND_WIDTHS: Readonly<Record<FieldKind, number>> = {
  text: 200,
  multiline: 240,
  richtext: 240,
  list: 200,
  enum: 110,
  boolean: 90,
  integer: 110,
  number: 120,
  money: 140,
  date: 120,
  datetime: 160,
  time: 90,
  email: 220,
  url: 220,
  relation: 180,
  media: 140,
  assets: 140,
  urls: 140,
  id: 110,
};

/** Kinds of free text: their columns share the spare room, and their values are cut to fit. */
const FLEXIBLE: ReadonlySet<FieldKind> = new Set(["text", "multiline", "richtext", "list"]);

/** The label column's least width: most names fit whole. */
const LABEL_MIN_WIDTH = 300;

/** Average width of a character of the 14 px UI font, and the cell's left and right padding. */
const CHAR_PX = 7.5;
const CELL_PADDING = 32;
/** The sort arrows beside a sortable column's title. */
const SORTER_PX = 28;
/** A tag's own padding and border. */
const TAG_PX = 18;

const roundUp = (px: number) => Math.ceil(px / 10) * 10;

/** Least width that shows a column's title on one line, with its sort arrows. */
export const titleWidth = (title: string, sortable: boolean): number =>
  roundUp(title.length * CHAR_PX + CELL_PADDING + (sortable ? SORTER_PX : 0));

/** An enum's width: its longest label as a tag. */
function enumWidth(def: ResourceDefinition, field: string): number {
  const labels = enumOptions(def.schema.properties[field]).map((o) => o.label);
  const longest = Math.max(0, ...labels.map((l) => l.length));
  return roundUp(longest * CHAR_PX + TAG_PX + CELL_PADDING);
}

/**
 * Columns of the list screen: the label column first (the link to each record), then the
 * other `x-list` fields in order. Widths come from the field's kind, never narrower than
 * the title.
 *
 * @example
 * listColumns(products).map((c) => c.title);
 * // ["Name", "SKU code", "Price", "Currency", "Category", "Sub-category", "Status", "Updated"]
 */
export function listColumns(def: ResourceDefinition): ListColumn[] {
  const { schema } = def;
  const label = schema["x-label"];
  // An internal field (an ordering key) is never a column, even when a list names it.
  const shown = schema["x-list"].filter((f) => !isInternal(schema.properties[f]));
  const fields = shown.includes(label) ? [label, ...shown.filter((f) => f !== label)] : shown;
  return fields.map((field) => {
    const kind = fieldKind(schema, field);
    const title = fieldTitle(schema, field);
    // A list of values (a many relation) filters but has no order of its own.
    const sortable = schema["x-filterable"].includes(field) && schema.properties[field]?.type !== "array";
    const isLabel = field === label;
    const byKind = isLabel ? LABEL_MIN_WIDTH : kind === "enum" ? enumWidth(def, field) : KIND_WIDTHS[kind];
    return {
      field,
      title,
      kind,
      width: Math.max(def.columnWidths?.[field] ?? byKind, titleWidth(title, sortable)),
      flexible: isLabel || FLEXIBLE.has(kind),
      sortable,
      align: isNumeric(kind) ? "right" : undefined,
      isLabel,
    };
  });
}

/**
 * The columns as the user arranged them with the column chooser: in their saved order (a
 * column added since comes last), without the hidden ones. The label column stays first and
 * is never hidden: it is the way to each record.
 *
 * @example
 * arrangeColumns(listColumns(products), { hidden: ["currency"], order: ["status"] }).map((c) => c.field);
 * // ["name", "status", "sku_code", "price", "category_id", "sub_category_id", "updated_at"]
 */
export function arrangeColumns(
  columns: readonly ListColumn[],
  preference: ListColumnsPreference | null | undefined,
): ListColumn[] {
  const label = columns.filter((c) => c.isLabel);
  const others = columns.filter((c) => !c.isLabel);
  const order = preference?.order ?? [];
  const rank = (c: ListColumn) => {
    const i = order.indexOf(c.field);
    return i === -1 ? order.length + others.indexOf(c) : i;
  };
  const hidden = new Set(preference?.hidden ?? []);
  const sorted = [...others].sort((a, b) => rank(a) - rank(b));
  return [...label, ...sorted.filter((c) => !hidden.has(c.field))];
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
  /** A value of an admin-managed list (`x-options`): a select of that list's options. */
  | { kind: "options"; field: string; title: string; list: string }
  | { kind: "number-range"; field: string; title: string }
  /** `day`: a `date` field, filtered by days; `instant`: a `date-time`, from the start of one local day to the end of another. */
  | { kind: "date-range"; field: string; title: string; granularity: "day" | "instant" }
  | { kind: "time-range"; field: string; title: string }
  | { kind: "text"; field: string; title: string };

/** Kinds filtered by a "contains" box. */
const TEXT_KINDS: ReadonlySet<FieldKind> = new Set(["text", "multiline", "richtext", "email", "url"]);

/**
 * The filter controls above the table, one per `x-filterable` field, chosen by kind: enum
 * and boolean → select, relation → searchable select of the related resource, a value of an
 * admin-managed list (`x-options`) → select of its options, numbers,
 * dates and times of day → ranges. Text fields (emails and web addresses too) that `q`
 * already searches get no control of their own, unless the definition names them in
 * `textFilters`.
 */
export function filterControls(def: ResourceDefinition): FilterControl[] {
  const { schema } = def;
  return schema["x-filterable"].flatMap((field): FilterControl[] => {
    if (isInternal(schema.properties[field])) return [];
    const kind = fieldKind(schema, field);
    const title = fieldTitle(schema, field);
    const relation = relationOf(schema.properties[field]);
    if (relation) return [{ kind: "relation", field, title, ...relation }];
    const list = schema.properties[field]?.["x-options"];
    if (list) return [{ kind: "options", field, title, list }];
    if (kind === "enum") return [{ kind: "select", field, title, source: "enum" }];
    if (kind === "boolean") return [{ kind: "select", field, title, source: "boolean" }];
    if (isNumeric(kind)) return [{ kind: "number-range", field, title }];
    if (kind === "date") return [{ kind: "date-range", field, title, granularity: "day" }];
    if (kind === "datetime") return [{ kind: "date-range", field, title, granularity: "instant" }];
    if (kind === "time") return [{ kind: "time-range", field, title }];
    if (TEXT_KINDS.has(kind) && (!schema["x-searchable"].includes(field) || def.textFilters?.includes(field)))
      return [{ kind: "text", field, title }];
    return [];
  });
}

/** Fields a search placeholder names; past them, it says how many others. */
const NAMED_SEARCH_FIELDS = 4;

/**
 * The search box's placeholder, naming what `q` searches (the first few, then how many
 * others: a form's submissions may search a dozen answers).
 *
 * @example
 * searchPlaceholder(products); // "Search by SKU code, name or description"
 * // six fields: "Search by name, email, message or 3 other fields"
 */
export function searchPlaceholder(def: ResourceDefinition): string {
  const titles = def.schema["x-searchable"].map((f) => inSentence(fieldTitle(def.schema, f)));
  if (titles.length <= NAMED_SEARCH_FIELDS) return `Search by ${joinWords(titles)}`;
  const named = NAMED_SEARCH_FIELDS - 1;
  return `Search by ${joinWords([...titles.slice(0, named), `${titles.length - named} other fields`])}`;
}

/** Relation fields among the columns: their labels are fetched once per page. */
export function relationColumns(def: ResourceDefinition): ListColumn[] {
  return listColumns(def).filter((c) => c.kind === "relation");
}

const AUDIT_ORDER = ["created_at", "created_by", "updated_at", "updated_by", "id"];

/**
 * Fields of the show page, in order: the form's order (`ui:order`), the other writable
 * fields, then the audit fields. Internal fields (`x-internal`, an ordering key) are not for
 * people and are left out.
 */
export function detailFields(def: ResourceDefinition): string[] {
  const properties = Object.fromEntries(
    Object.entries(def.schema.properties).filter(([, f]) => !isInternal(f)),
  );
  const writable = Object.keys(properties).filter((f) => !properties[f].readOnly);
  const order = (def.uiSchema?.["ui:order"] as string[] | undefined) ?? [];
  const first = order.filter((f) => writable.includes(f));
  const rest = writable.filter((f) => !first.includes(f));
  const audit = AUDIT_ORDER.filter((f) => f in properties);
  const other = Object.keys(properties).filter((f) => properties[f].readOnly && !audit.includes(f));
  return [...first, ...rest, ...other, ...audit];
}
