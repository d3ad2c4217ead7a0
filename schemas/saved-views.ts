/**
 * Saved views and bulk edit of every resource's list (issue 31; docs/resource-api.md "Saved
 * views" and "Bulk edit"). Shared by the server and the SPA. Pure.
 */
import type { ConditionalFilter, CrudFilter } from "./conditions";

/** Longest view name. */
export const VIEW_NAME_MAX = 60;
/** Views one person may keep per resource (their own), so a client cannot fill the table. */
export const VIEWS_PER_PERSON_MAX = 50;
/** Largest page size a view may hold (the list's `pageSize` maximum). */
export const VIEW_PAGE_SIZE_MAX = 200;

/** What a view holds: the list as it was when saved. */
export interface SavedViewState {
  /** Refine CrudFilters, as the list sends them (the search box is the filter on `q`). */
  filters: CrudFilter[];
  /** `-price,name`; empty: the resource's default sort. */
  sort: string;
  /** The columns shown, in order; null: the list's default columns. */
  columns: string[] | null;
  pageSize: number;
  /**
   * Titles of the fields the view names, as they were when saved: a field renamed or removed
   * since is still named in words when it is left out (see {@link pruneViewState}).
   */
  labels?: Record<string, string>;
}

/** A view as the API answers it. */
export interface SavedView {
  id: string;
  name: string;
  shared: boolean;
  /** The state as it applies to the schema now: parts naming missing fields left out. */
  state: SavedViewState;
  /** One sentence per part left out ("The column 'Colour' no longer exists …"). */
  notices: string[];
  ownerId: string;
  ownerName: string;
  /** Whether the person asking may rename, change or delete it. */
  canEdit: boolean;
  createdAt: string;
  updatedAt: string;
}

/** `GET …/views`. */
export interface SavedViewList {
  data: SavedView[];
  /** The person's default view of this list, null: the plain list. */
  defaultId: string | null;
}

/** `POST …/views`. */
export interface SavedViewInput {
  name: string;
  shared: boolean;
  state: SavedViewState;
}

/** The fields a list may show, filter and sort by now, for {@link pruneViewState}. */
export interface ViewFields {
  columns: ReadonlySet<string>;
  filters: ReadonlySet<string>;
  sorts: ReadonlySet<string>;
}

/** The filter fields that are not schema fields: the search box and the record id. */
const ALWAYS_FILTERABLE = new Set(["q", "id"]);

const isGroup = (f: CrudFilter): f is ConditionalFilter =>
  (f.operator === "or" || f.operator === "and") && Array.isArray(f.value);

/** Every field a filter list names, groups included. */
export function filterFieldsOf(filters: readonly CrudFilter[]): string[] {
  const out: string[] = [];
  for (const f of filters) {
    if (isGroup(f)) out.push(...filterFieldsOf(f.value));
    else if ("field" in f && typeof f.field === "string") out.push(f.field);
  }
  return out;
}

function pruneFilters(filters: readonly CrudFilter[], keep: (field: string) => boolean): CrudFilter[] {
  const out: CrudFilter[] = [];
  for (const f of filters) {
    if (isGroup(f)) {
      const inner = pruneFilters(f.value, keep);
      if (inner.length) out.push({ ...f, value: inner });
    } else if ("field" in f && keep(f.field)) out.push(f);
  }
  return out;
}

/**
 * A view's state as it applies to the fields a list has now: a column, filter or sort naming
 * a field the schema no longer has (removed, or renamed) is left out, each with a notice in
 * words naming the field as the view knew it.
 *
 * @example
 * pruneViewState({ columns: ["name", "colour"], labels: { colour: "Colour" }, … }, fields)
 * // { state: { columns: ["name"], … }, notices: ["The column 'Colour' no longer exists and was left out of this view"] }
 */
export function pruneViewState(
  state: SavedViewState,
  fields: ViewFields,
): { state: SavedViewState; notices: string[] } {
  const notices: string[] = [];
  const title = (field: string) => state.labels?.[field] ?? field;
  const gone = (kind: string, field: string) =>
    notices.push(`The ${kind} '${title(field)}' no longer exists and was left out of this view`);
  const filterOk = (field: string) => ALWAYS_FILTERABLE.has(field) || fields.filters.has(field);
  for (const field of new Set(filterFieldsOf(state.filters))) if (!filterOk(field)) gone("filter on", field);
  const sorts = state.sort.split(",").filter(Boolean);
  const sortField = (s: string) => s.replace(/^-/, "");
  for (const s of sorts) if (!fields.sorts.has(sortField(s))) gone("sort by", sortField(s));
  const columns = state.columns ? state.columns.filter((c) => fields.columns.has(c)) : null;
  for (const c of state.columns ?? []) if (!fields.columns.has(c)) gone("column", c);
  return {
    state: {
      ...state,
      filters: pruneFilters(state.filters, filterOk),
      sort: sorts.filter((s) => fields.sorts.has(sortField(s))).join(","),
      columns,
    },
    notices,
  };
}

/** Records a bulk edit runs inline, in its request; more run as one job with progress. */
export const BULK_INLINE_MAX = 200;
/** Most records one bulk edit may change. */
export const BULK_UPDATE_MAX = 50_000;
/** Refusals listed in a bulk edit's report (all are counted). */
export const BULK_ERRORS_LISTED = 200;

/** One record a bulk edit did not change, and why. */
export interface BulkRefusal {
  id: string;
  /** The record's name (its label field), when it could be read. */
  label: string | null;
  message: string;
}

export type BulkUpdateStatus = "queued" | "running" | "finished" | "failed";

/** A bulk edit's progress and outcome (`POST …/bulk-update`, `GET …/bulk-update/{id}`). */
export interface BulkUpdate {
  /** null for one run inline (it was never stored). */
  id: string | null;
  status: BulkUpdateStatus;
  field: string;
  total: number;
  done: number;
  updated: number;
  refused: number;
  /** The first {@link BULK_ERRORS_LISTED} refusals. */
  errors: BulkRefusal[];
  /** Why a job failed as a whole (a refusal of one record is in `errors`). */
  error: string | null;
}

/** `POST …/bulk-update`: the records by id, or every record the list's filters and search match. */
export interface BulkUpdateInput {
  ids?: string[];
  filters?: CrudFilter[];
  q?: string;
  field: string;
  value: unknown;
}
