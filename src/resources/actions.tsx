/**
 * Action registries: a resource names extra list actions by key (`actions.toolbar`,
 * `actions.row` in resources/<entity>.ts, which is pure data), and the SPA maps each key
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
 * Buttons on the rows selected, beside Delete selected. Each loads when a selection first
 * shows it (lazy): the list screen's own code stays as small as it was.
 */
export const BULK_ACTIONS: Readonly<Record<string, ComponentType<BulkActionProps>>> = {
  "crm.enrol-in-sequence": lazy(() => import("../pages/crm/sequences/enrol-selection")),
};
