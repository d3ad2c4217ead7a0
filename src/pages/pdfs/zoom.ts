/**
 * The hotspot editor's zoom, free of React and the DOM. A zoom is a scale of the page's real
 * size (1 = 100 %: a PDF point is 96/72 CSS px, as PDF readers show it). The page sits in a
 * scrolling viewport with a gutter around it, centred when it is smaller than the viewport.
 * Zooming keeps one point of the page under the cursor (or the viewport's centre) by moving
 * the scroll position with it.
 */
import { formatPercent } from "../../../schemas/money";

/** CSS pixels per PDF point at 100 %. */
export const PX_PER_PT = 96 / 72;
export const MIN_ZOOM = 0.1;
export const MAX_ZOOM = 4;
/** What the zoom buttons and the + / - keys step through (fits land in between). */
export const ZOOM_STEPS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4] as const;

export interface Size {
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

/** "width" and "page" follow the viewport's size; "custom" keeps its zoom. */
export type ZoomMode = "width" | "page" | "custom";

export interface ZoomState {
  mode: ZoomMode;
  /** The zoom of a custom state (fits are worked out from the viewport). */
  zoom: number;
}

export const clampZoom = (zoom: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));

/** The page's size in CSS px at a zoom. `page` is in PDF points. */
export const pageSizeAt = (page: Size, zoom: number): Size => ({
  width: page.width * PX_PER_PT * zoom,
  height: page.height * PX_PER_PT * zoom,
});

/** What the page may fill: the viewport less the gutter on each side. */
const room = (view: Size, gutter: number): Size => ({
  width: Math.max(1, view.width - 2 * gutter),
  height: Math.max(1, view.height - 2 * gutter),
});

/**
 * The zoom at which the page is exactly as wide as the viewport's room.
 *
 * @example
 * fitWidth({ width: 600, height: 800 }, { width: 832, height: 500 }, 16); // 1 (800 px = 600 pt)
 */
export function fitWidth(page: Size, view: Size, gutter: number): number {
  return clampZoom(room(view, gutter).width / (page.width * PX_PER_PT));
}

/** The zoom at which the whole page shows, both its width and its height. */
export function fitPage(page: Size, view: Size, gutter: number): number {
  const r = room(view, gutter);
  return clampZoom(Math.min(r.width / (page.width * PX_PER_PT), r.height / (page.height * PX_PER_PT)));
}

/** The zoom a state shows in a viewport. */
export function zoomOf(state: ZoomState, page: Size, view: Size, gutter: number): number {
  if (state.mode === "width") return fitWidth(page, view, gutter);
  if (state.mode === "page") return fitPage(page, view, gutter);
  return clampZoom(state.zoom);
}

/** Below this, two zooms are the same step (fits land between steps, 0.67 ≈ 2/3). */
const SAME = 0.005;

/**
 * The next step in (`1`) or out (`-1`) from any zoom, fits included.
 *
 * @example
 * stepZoom(0.62, 1); // 0.67
 * stepZoom(1, -1); // 0.9
 */
export function stepZoom(zoom: number, direction: 1 | -1): number {
  if (direction > 0) return ZOOM_STEPS.find((s) => s > zoom + SAME) ?? MAX_ZOOM;
  return [...ZOOM_STEPS].reverse().find((s) => s < zoom - SAME) ?? ZOOM_STEPS[0];
}

/** Wheel travel (in px) that doubles or halves the zoom: about five notches of a mouse wheel. */
const PX_PER_DOUBLING = 500;
/** A wheel notch in lines or pages, in px (what browsers scroll for one). */
const LINE_PX = 16;
const PAGE_PX = 800;
/** One event zooms at most this far, so a fast-spinning wheel does not jump. */
const MAX_WHEEL_PX = 250;

/**
 * The zoom after a Ctrl/⌘+wheel event: up zooms in, down zooms out, smoothly (a trackpad
 * pinch sends many small deltas, a mouse wheel a few large ones).
 */
export function wheelZoom(zoom: number, deltaY: number, deltaMode = 0): number {
  const px = deltaY * (deltaMode === 1 ? LINE_PX : deltaMode === 2 ? PAGE_PX : 1);
  const travel = Math.max(-MAX_WHEEL_PX, Math.min(MAX_WHEEL_PX, px));
  return clampZoom(zoom * 2 ** (-travel / PX_PER_DOUBLING));
}

/** Where the page sits in the viewport's scrolling content, in CSS px. */
export interface PageLayout {
  left: number;
  top: number;
  width: number;
  height: number;
  /** The scrolling content's size: at least the viewport, so a small page is centred. */
  contentWidth: number;
  contentHeight: number;
}

export function layoutPage(page: Size, zoom: number, view: Size, gutter: number): PageLayout {
  const { width, height } = pageSizeAt(page, zoom);
  const contentWidth = Math.max(view.width, width + 2 * gutter);
  const contentHeight = Math.max(view.height, height + 2 * gutter);
  return {
    left: (contentWidth - width) / 2,
    top: (contentHeight - height) / 2,
    width,
    height,
    contentWidth,
    contentHeight,
  };
}

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), Math.max(lo, hi));

/**
 * The scroll position after a zoom from `from` to `to` that keeps the page's point under
 * `anchor` (viewport px, from its top-left corner; the centre for the buttons) where it was.
 * Near the page's edges the scroll stops at its ends, so the point may move there.
 *
 * @example
 * // A 600 × 800 pt page at 100 % (800 px wide) in an 832 px viewport, gutter 16, not scrolled:
 * // the cursor 416 px in is at the page's middle (16 + 400); at 200 % the middle is 16 + 800 in,
 * // so the viewport scrolls 400 px right to keep it under the cursor.
 * scrollForZoom({ page: { width: 600, height: 800 }, view: { width: 832, height: 600 }, gutter: 16,
 *   from: 1, to: 2, scroll: { x: 0, y: 0 }, anchor: { x: 416, y: 0 } }); // { x: 400, y: 0 }
 */
export function scrollForZoom(args: {
  page: Size;
  view: Size;
  gutter: number;
  from: number;
  to: number;
  scroll: Point;
  anchor: Point;
}): Point {
  const { page, view, gutter, scroll, anchor } = args;
  const before = layoutPage(page, args.from, view, gutter);
  const after = layoutPage(page, args.to, view, gutter);
  // The anchor as a fraction of the page (it may be off the page, in the gutter: still linear).
  const u = (scroll.x + anchor.x - before.left) / before.width;
  const v = (scroll.y + anchor.y - before.top) / before.height;
  return {
    x: clamp(after.left + u * after.width - anchor.x, 0, after.contentWidth - view.width),
    y: clamp(after.top + v * after.height - anchor.y, 0, after.contentHeight - view.height),
  };
}

/** The zoom as people read it: "62%". */
export const zoomLabel = (zoom: number) => formatPercent(zoom, { fraction: true, decimals: 0 });
