/**
 * Action registries: a resource names extra list actions by key (`actions.toolbar`,
 * `actions.row`, `actions.bulk` in resources/<entity>.ts, which is pure data), and the SPA maps each key
 * to its component here. Adding an action = one component and one entry, keys sorted.
 * (Export CSV and Import CSV are on every generated list without an entry: list-page.tsx.)
 */
import { type ComponentType, lazy } from "react";
import type { BulkActionProps, RowActionProps, ToolbarActionProps } from "./types";

/** Buttons above a list, next to Create. */
export const TOOLBAR_ACTIONS: Readonly<Record<string, ComponentType<ToolbarActionProps>>> = {};

/** Buttons in a list row, after Show/Edit/Delete. */
export const ROW_ACTIONS: Readonly<Record<string, ComponentType<RowActionProps>>> = {};

/**
 * Buttons on the selection bar, beside Delete selected: they act on the selected records. Each
 * is lazy (the bar renders it in Suspense), so a list without it does not load it.
 */
export const BULK_ACTIONS: Readonly<Record<string, ComponentType<BulkActionProps>>> = {
  "clients.merge": lazy(async () => ({
    default: (await import("../pages/crm/merge-clients-action")).MergeClientsAction,
  })),
  "crm.enrol-in-sequence": lazy(() => import("../pages/crm/sequences/enrol-selection")),
};
