/**
 * The store product list's paging as the spec's products state keeps it (§3: `currentPage`
 * from 0, `pageLimit` 10, `pagesearch`), and how it reads as the API's list contract (`page`
 * from 1, `pageSize`, `q`): the screen keeps the spec's state, the API its own contract.
 */
export interface ListPaging {
  /** 0-based page (spec §3: default 0). */
  currentPage: number;
  /** Rows per page (spec §3: default 10). */
  pageLimit: number;
  /** The search box's words. */
  pagesearch: string;
}

export const INITIAL_PAGING: ListPaging = { currentPage: 0, pageLimit: 10, pagesearch: "" };

/** The list contract's query of a paging state. */
export function toListQuery(paging: ListPaging): { page: number; pageSize: number; q?: string } {
  const q = paging.pagesearch.trim();
  return {
    page: Math.max(0, Math.trunc(paging.currentPage)) + 1,
    pageSize: paging.pageLimit,
    ...(q ? { q } : {}),
  };
}

/** A new search starts again from the first page. */
export const searchPaging = (paging: ListPaging, pagesearch: string): ListPaging => ({
  ...paging,
  pagesearch,
  currentPage: 0,
});
