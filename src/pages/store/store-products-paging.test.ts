import { describe, expect, it } from "vitest";
import { INITIAL_PAGING, searchPaging, toListQuery } from "./store-products-paging";

describe("store product list paging", () => {
  it("starts at page 0 of 10 rows (spec §3) and asks the API for page 1", () => {
    expect(INITIAL_PAGING).toEqual({ currentPage: 0, pageLimit: 10, pagesearch: "" });
    expect(toListQuery(INITIAL_PAGING)).toEqual({ page: 1, pageSize: 10 });
  });

  it("sends the search trimmed, and a new search goes back to the first page", () => {
    const paged = { currentPage: 3, pageLimit: 20, pagesearch: "" };
    expect(toListQuery({ ...paged, pagesearch: "  mug " })).toEqual({ page: 4, pageSize: 20, q: "mug" });
    expect(searchPaging(paged, "mug")).toEqual({ currentPage: 0, pageLimit: 20, pagesearch: "mug" });
  });
});
