import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import {
  clampZoom,
  layoutPage,
  type PageLayout,
  type Point,
  type Size,
  scrollForZoom,
  stepZoom,
  wheelZoom,
  type ZoomMode,
  type ZoomState,
  zoomOf,
} from "./zoom";

/** Space around the page inside the viewport (room for the hotspots' labels above them). */
export const PAGE_GUTTER = 16;

export interface Zoom {
  zoom: number;
  mode: ZoomMode;
  /** Where the page sits in the viewport's scrolling content (null until it is measured). */
  layout: PageLayout | null;
  fitWidth: () => void;
  fitPage: () => void;
  /** One step in or out around the viewport's centre. */
  step: (direction: 1 | -1) => void;
  /** A given zoom (1 = actual size) around the viewport's centre. */
  set: (zoom: number) => void;
}

/** The viewport's inner size (its scrollbars excluded), kept current as it resizes. */
function useViewSize(viewport: RefObject<HTMLElement | null>, active: boolean): Size | null {
  const [size, setSize] = useState<Size | null>(null);
  useLayoutEffect(() => {
    const el = viewport.current;
    if (!active || !el) return;
    const measure = () =>
      setSize((s) =>
        s?.width === el.clientWidth && s.height === el.clientHeight
          ? s
          : { width: el.clientWidth, height: el.clientHeight },
      );
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [viewport, active]);
  return size;
}

/**
 * The zoom of the page in a scrolling viewport: fit width by default, fit page, steps and
 * Ctrl/⌘+wheel. Every change keeps a point of the page where it was on screen — under the
 * cursor for the wheel, the viewport's centre otherwise — by scrolling with it.
 * `page` is the page's size in PDF points (null while there is no page).
 */
export function useZoom(viewport: RefObject<HTMLElement | null>, page: Size | null): Zoom {
  const [state, setState] = useState<ZoomState>({ mode: "width", zoom: 1 });
  const view = useViewSize(viewport, page !== null);
  const zoom = page && view ? zoomOf(state, page, view, PAGE_GUTTER) : state.zoom;
  const layout = page && view ? layoutPage(page, zoom, view, PAGE_GUTTER) : null;

  // The zoom just rendered and the point to keep still, read when the next one is rendered.
  const shown = useRef(zoom);
  const anchor = useRef<{ from: number; scroll: Point; at: Point } | null>(null);

  const change = useCallback(
    (next: (current: number) => ZoomState, at?: Point) => {
      const el = viewport.current;
      const current = shown.current;
      if (el) {
        anchor.current = {
          from: current,
          scroll: { x: el.scrollLeft, y: el.scrollTop },
          at: at ?? { x: el.clientWidth / 2, y: el.clientHeight / 2 },
        };
      }
      setState(next(current));
    },
    [viewport],
  );

  useLayoutEffect(() => {
    const el = viewport.current;
    const pending = anchor.current;
    anchor.current = null;
    if (el && pending && page && view && pending.from !== zoom) {
      const to = scrollForZoom({
        page,
        view,
        gutter: PAGE_GUTTER,
        from: pending.from,
        to: zoom,
        scroll: pending.scroll,
        anchor: pending.at,
      });
      el.scrollLeft = to.x;
      el.scrollTop = to.y;
    }
    shown.current = zoom;
  });

  // Ctrl/⌘+wheel (and a trackpad pinch, which Chromium sends as one) zooms at the cursor.
  // A native listener: React's wheel handler is passive and cannot stop the browser's zoom.
  const active = page !== null;
  useEffect(() => {
    const el = viewport.current;
    if (!active || !el) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      const r = el.getBoundingClientRect();
      const at = { x: event.clientX - r.left - el.clientLeft, y: event.clientY - r.top - el.clientTop };
      change((z) => ({ mode: "custom", zoom: wheelZoom(z, event.deltaY, event.deltaMode) }), at);
    };
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => el.removeEventListener("wheel", onWheel);
  }, [viewport, active, change]);

  return {
    zoom,
    mode: state.mode,
    layout,
    fitWidth: useCallback(() => change((z) => ({ mode: "width", zoom: z })), [change]),
    fitPage: useCallback(() => change((z) => ({ mode: "page", zoom: z })), [change]),
    step: useCallback(
      (direction: 1 | -1) => change((z) => ({ mode: "custom", zoom: stepZoom(z, direction) })),
      [change],
    ),
    set: useCallback((z: number) => change(() => ({ mode: "custom", zoom: clampZoom(z) })), [change]),
  };
}
