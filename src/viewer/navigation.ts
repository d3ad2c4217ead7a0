/**
 * Page turning and zoom as pure functions: which pages a spread shows, where the previous
 * and next buttons lead, zoom steps, how big a page is drawn, which image size to load.
 */
import type { PageImageSize } from "../../schemas/pdf-library";

/** The page number within 1..count (1 for anything that is not a number). */
export function clampPage(page: number, count: number): number {
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.round(page)), Math.max(1, count));
}

/**
 * The pages shown together with `page`. In a spread the cover is alone and the rest go in
 * pairs like an open book (2-3, 4-5…); otherwise one page.
 *
 * @example
 * spreadOf(3, 6, true) // [2, 3]
 */
export function spreadOf(page: number, count: number, spread: boolean): number[] {
  const p = clampPage(page, count);
  if (!spread || p === 1) return [p];
  const left = p % 2 === 0 ? p : p - 1;
  return left + 1 <= count ? [left, left + 1] : [left];
}

/** The page the next button leads to, or null on the last page (or spread). */
export function nextPage(page: number, count: number, spread: boolean): number | null {
  const shown = spreadOf(page, count, spread);
  const next = shown[shown.length - 1] + 1;
  return next <= count ? next : null;
}

/** The page the previous button leads to, or null on the first page. */
export function previousPage(page: number, count: number, spread: boolean): number | null {
  const first = spreadOf(page, count, spread)[0];
  if (first <= 1) return null;
  return spreadOf(first - 1, count, spread)[0];
}

/** Zoom levels, 1 being the pages fitted to the screen. */
export const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3, 4] as const;
export const MIN_ZOOM = ZOOM_STEPS[0];
export const MAX_ZOOM = ZOOM_STEPS[ZOOM_STEPS.length - 1];

export const zoomIn = (zoom: number) => ZOOM_STEPS.find((step) => step > zoom + 1e-9) ?? MAX_ZOOM;
export const zoomOut = (zoom: number) =>
  [...ZOOM_STEPS].reverse().find((step) => step < zoom - 1e-9) ?? MIN_ZOOM;

/** Past 150 % the screen image (1200 px) gets soft: the 2400 px one is loaded instead. */
export function imageSizeFor(zoom: number): PageImageSize {
  return zoom > 1.5 ? "zoom" : "screen";
}

/**
 * Pixels per PDF point that fit `pages` (sizes in points, side by side) into a box of
 * `width`×`height` pixels.
 */
export function fitScale(pages: readonly { width: number; height: number }[], width: number, height: number) {
  const totalWidth = pages.reduce((sum, p) => sum + p.width, 0);
  const tallest = pages.reduce((max, p) => Math.max(max, p.height), 0);
  if (totalWidth <= 0 || tallest <= 0 || width <= 0 || height <= 0) return 1;
  return Math.min(width / totalWidth, height / tallest);
}

/** The page asked for by the address (`#page=4`), or null. */
export function pageFromHash(hash: string): number | null {
  const match = /^#?page=(\d{1,6})$/.exec(hash);
  return match ? Number(match[1]) : null;
}

/** A search snippet cut into plain and highlighted parts (hits are marked « »). */
export function snippetParts(snippet: string): { text: string; hit: boolean }[] {
  const parts: { text: string; hit: boolean }[] = [];
  const pattern = /«([^»]*)»/g;
  let last = 0;
  for (let match = pattern.exec(snippet); match; match = pattern.exec(snippet)) {
    if (match.index > last) parts.push({ text: snippet.slice(last, match.index), hit: false });
    if (match[1]) parts.push({ text: match[1], hit: true });
    last = match.index + match[0].length;
  }
  if (last < snippet.length) parts.push({ text: snippet.slice(last), hit: false });
  return parts;
}
