/** How a list of pages is shared between parallel renderers. */

export interface PageRange {
  first: number;
  last: number;
}

/** The pages, sorted, without duplicates; throws on anything that is not a page number. */
export function normalisePages(pages: number[], pageCount?: number): number[] {
  for (const page of pages) {
    if (!Number.isInteger(page) || page < 1 || (pageCount !== undefined && page > pageCount)) {
      throw new RangeError(`Not a page of this PDF: ${page}`);
    }
  }
  return [...new Set(pages)].sort((a, b) => a - b);
}

/**
 * Splits pages into contiguous ranges of at most ⌈pages / slots⌉ pages each: a range is one
 * renderer process (one parse of the file, fonts loaded once), and `slots` of them at a time
 * keep every core busy.
 *
 * @example planRanges([1, 2, 3, 4, 5, 9], 2) // → [{first: 1, last: 3}, {first: 4, last: 5}, {first: 9, last: 9}]
 */
export function planRanges(pages: number[], slots: number): PageRange[] {
  const sorted = normalisePages(pages);
  const size = Math.max(1, Math.ceil(sorted.length / Math.max(1, slots)));
  const ranges: PageRange[] = [];
  let current: PageRange | undefined;
  for (const page of sorted) {
    if (current && page === current.last + 1 && page - current.first < size) current.last = page;
    else {
      current = { first: page, last: page };
      ranges.push(current);
    }
  }
  return ranges;
}
