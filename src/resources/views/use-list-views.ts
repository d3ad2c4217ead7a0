/**
 * The saved views of one list: which one is open (kept for the browser tab in session storage,
 * so a reload stays on it), applying one (its filters, sort, page size and columns), the person's default view
 * opened when the list is opened plainly, and whether the list was changed since the view
 * was applied (then it may be saved into it).
 */
import type { CrudFilter, CrudSort } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App } from "antd";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useLocation } from "react-router";
import type { ResourceDefinition } from "../../../resources/contract";
import type { ListColumnsPreference } from "../../../schemas/preferences";
import type { SavedView, SavedViewList, SavedViewState } from "../../../schemas/saved-views";
import { DEFAULT_PAGE_SIZE } from "../../lib/constants";
import type { ListColumn } from "../columns";
import { defaultSorters } from "../columns";
import { listViews, viewKeys } from "./views-api";

/** The parts of the list a view reads and sets (Refine's useTable, the column preference). */
export interface ListControls {
  filters: CrudFilter[];
  sorters: CrudSort[];
  pageSize: number;
  setFilters: (filters: CrudFilter[], behavior: "replace") => void;
  setSorters: (sorters: CrudSort[]) => void;
  setPageSize: (size: number) => void;
  setCurrentPage: (page: number) => void;
  columns: readonly ListColumn[];
  /** The columns shown now, in order. */
  shown: readonly ListColumn[];
  layout: { value: ListColumnsPreference | null; save: (value: ListColumnsPreference | null) => void };
}

/** The view open in this browser tab, per list: a reload (its address holds the list's state) stays on it. */
const openKey = (resource: string) => `atelier.view:${resource}`;
function rememberOpen(resource: string, id: string | null) {
  try {
    if (id) sessionStorage.setItem(openKey(resource), id);
    else sessionStorage.removeItem(openKey(resource));
  } catch {
    // Storage refused (private mode): the view is only not remembered across a reload.
  }
}
function openBefore(resource: string): string | null {
  try {
    return sessionStorage.getItem(openKey(resource));
  } catch {
    return null;
  }
}
/** Address parameters that say the list was opened in a given state, not plainly. */
const STATE_PARAMS = ["filters", "sorters", "currentPage", "current", "pageSize"];

const hasValue = (v: unknown) =>
  v !== undefined && v !== null && v !== "" && !(Array.isArray(v) && v.length === 0);

/** Filters with a value (the list keeps cleared ones as empty filters). */
function meaningful(filters: readonly CrudFilter[]): CrudFilter[] {
  return filters.filter((f) => ("field" in f ? hasValue(f.value) : Array.isArray(f.value) && f.value.length));
}

const toSort = (sorters: readonly CrudSort[]) =>
  sorters.map((s) => (s.order === "desc" ? `-${s.field}` : s.field)).join(",");

const toSorters = (sort: string): CrudSort[] =>
  sort
    .split(",")
    .filter(Boolean)
    .map((s) => (s.startsWith("-") ? { field: s.slice(1), order: "desc" } : { field: s, order: "asc" }));

/** The list as it is now, as a view would hold it. */
export function stateOf(controls: ListControls): SavedViewState {
  return {
    filters: meaningful(controls.filters),
    sort: toSort(controls.sorters),
    columns: controls.layout.value ? controls.shown.map((c) => c.field) : null,
    pageSize: controls.pageSize,
  };
}

/** Whether two states show the same list (filter values compared as text: the address types none). */
export function sameState(a: SavedViewState, b: SavedViewState): boolean {
  const text = (s: SavedViewState) =>
    JSON.stringify([s.filters, s.sort, s.columns, s.pageSize], (_k, v) =>
      typeof v === "number" || typeof v === "boolean" ? String(v) : v,
    );
  return text(a) === text(b);
}

export function useListViews(def: ResourceDefinition, controls: ListControls, enabled: boolean) {
  const { notification } = App.useApp();
  const queryClient = useQueryClient();
  const location = useLocation();
  // How the list was opened: plainly (the default view opens), or with a state in its address
  // (a reload, a link): then the view open before in this tab, if any, stays open.
  const [openedPlainly] = useState(() => {
    const keys = [...new URLSearchParams(location.search).keys()];
    return !STATE_PARAMS.some((p) => keys.some((k) => k.startsWith(p)));
  });
  const [openId, setOpenId] = useState<string | null>(() => (openedPlainly ? null : openBefore(def.name)));
  const query = useQuery({
    queryKey: viewKeys.views(def.name),
    queryFn: () => listViews(def),
    enabled,
  });
  const views = query.data?.data ?? [];
  const active = views.find((v) => v.id === openId) ?? null;
  const controlsRef = useRef(controls);
  controlsRef.current = controls;

  const apply = useCallback(
    (view: SavedView | null) => {
      const c = controlsRef.current;
      setOpenId(view?.id ?? null);
      rememberOpen(def.name, view?.id ?? null);
      const state: SavedViewState = view?.state ?? {
        filters: [],
        sort: def.schema["x-defaultSort"],
        columns: null,
        pageSize: DEFAULT_PAGE_SIZE,
      };
      c.setFilters(state.filters as CrudFilter[], "replace");
      c.setSorters(state.sort ? toSorters(state.sort) : defaultSorters(def));
      c.setPageSize(state.pageSize);
      c.setCurrentPage(1);
      if (state.columns) {
        const order = state.columns;
        const hidden = c.columns
          .filter((col) => !col.isLabel && !order.includes(col.field))
          .map((col) => col.field);
        c.layout.save({ hidden, order });
      } else if (c.layout.value) c.layout.save(null);
      for (const notice of view?.notices ?? [])
        notification.warning({
          message: `View “${view?.name}”`,
          description: notice,
          placement: "bottomRight",
        });
    },
    [def, notification],
  );

  // Opened plainly: the person's default view, once the views are known.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !query.data) return;
    opened.current = true;
    const chosen = query.data.data.find((v) => v.id === query.data.defaultId);
    if (openedPlainly) {
      if (chosen) apply(chosen);
      else rememberOpen(def.name, null);
    }
  }, [query.data, openedPlainly, apply, def.name]);

  const now = stateOf(controls);
  const changed = Boolean(active) && !sameState(active?.state as SavedViewState, now);
  const refresh = useCallback(
    (update?: (list: SavedViewList) => SavedViewList) => {
      if (update) queryClient.setQueryData<SavedViewList>(viewKeys.views(def.name), (l) => l && update(l));
      return queryClient.invalidateQueries({ queryKey: viewKeys.views(def.name) });
    },
    [queryClient, def.name],
  );

  return useMemo(
    () => ({
      views,
      defaultId: query.data?.defaultId ?? null,
      active,
      changed,
      now,
      loading: query.isLoading,
      error: query.error,
      apply,
      refresh,
      retry: () => query.refetch(),
    }),
    [views, query, active, changed, now, apply, refresh],
  );
}

/** A list's views and what is done with them (useListViews). */
export type ListViews = ReturnType<typeof useListViews>;
