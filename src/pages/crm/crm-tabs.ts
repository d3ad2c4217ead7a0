/**
 * The CRM page's entity tabs (spec §3 `crm.entitiesSelectedTab`, default 1): the module's
 * entities in menu order, numbered from 1 — 1 Clients, 2 Opportunities, 3 Tasks, … — the
 * selected one kept in the address as `?tab=<number>`. A missing or unknown number is tab 1.
 * The Opportunities tab shows the pipeline board or the list (`?view=list`), the board first.
 */
import type { ResourceDefinition } from "../../../resources/contract";

/** Spec §3: `entitiesSelectedTab` starts at 1, the first entity tab. */
export const DEFAULT_ENTITY_TAB = 1;

export interface EntityTab {
  /** 1-based, as the spec counts and the address shows. */
  number: number;
  def: ResourceDefinition;
}

/** The tabs of the module's entities, numbered in menu order from 1. */
export function entityTabs(defs: readonly ResourceDefinition[]): EntityTab[] {
  return defs.map((def, i) => ({ number: i + 1, def }));
}

/**
 * The selected tab's number from the address: a whole number naming a tab, else the default.
 *
 * @example
 * selectedEntityTab(null, 5); // 1
 * selectedEntityTab("2", 5); // 2
 * selectedEntityTab("9", 5); // 1
 */
export function selectedEntityTab(param: string | null, count: number): number {
  const n = Number(param);
  return Number.isInteger(n) && n >= 1 && n <= count ? n : DEFAULT_ENTITY_TAB;
}

export type OpportunityView = "board" | "list";

/** The Opportunities tab's view from the address: the list when asked for, else the board. */
export const opportunityView = (param: string | null): OpportunityView =>
  param === "list" ? "list" : "board";
