import { describe, expect, it } from "vitest";
import {
  fitPage,
  fitWidth,
  layoutPage,
  MAX_ZOOM,
  MIN_ZOOM,
  PX_PER_PT,
  pageSizeAt,
  scrollForZoom,
  stepZoom,
  wheelZoom,
  ZOOM_STEPS,
  zoomLabel,
  zoomOf,
} from "./zoom";

/** A4 in points. */
const A4 = { width: 595.28, height: 841.89 };
const GUTTER = 16;
/** About what the editor's viewport is at 1280×800. */
const VIEW = { width: 540, height: 560 };

/** Where a page point (0..1 fractions) is on screen, relative to the viewport. */
function onScreen(zoom: number, scroll: { x: number; y: number }, u: number, v: number) {
  const l = layoutPage(A4, zoom, VIEW, GUTTER);
  return { x: l.left + u * l.width - scroll.x, y: l.top + v * l.height - scroll.y };
}

describe("fits", () => {
  it("fit width makes the page exactly as wide as the viewport less its gutters", () => {
    const zoom = fitWidth(A4, VIEW, GUTTER);
    expect(pageSizeAt(A4, zoom).width).toBeCloseTo(VIEW.width - 2 * GUTTER, 6);
    const l = layoutPage(A4, zoom, VIEW, GUTTER);
    expect(l.left).toBeCloseTo(GUTTER, 6);
    expect(l.contentWidth).toBeCloseTo(VIEW.width, 6);
    // Taller than the viewport: it scrolls down, starting at the gutter.
    expect(l.top).toBeCloseTo(GUTTER, 6);
    expect(l.contentHeight).toBeCloseTo(l.height + 2 * GUTTER, 6);
  });

  it("fit page shows the whole page, centred across", () => {
    const zoom = fitPage(A4, VIEW, GUTTER);
    const l = layoutPage(A4, zoom, VIEW, GUTTER);
    expect(l.height).toBeCloseTo(VIEW.height - 2 * GUTTER, 6);
    expect(l.width).toBeLessThan(VIEW.width - 2 * GUTTER);
    expect(l.contentWidth).toBe(VIEW.width);
    expect(l.contentHeight).toBe(VIEW.height);
    expect(l.left).toBeCloseTo((VIEW.width - l.width) / 2, 6);
    // A landscape page in a tall viewport is limited by its width instead.
    const wide = { width: 842, height: 595 };
    const w = layoutPage(wide, fitPage(wide, VIEW, GUTTER), VIEW, GUTTER);
    expect(w.width).toBeCloseTo(VIEW.width - 2 * GUTTER, 6);
    expect(w.height).toBeLessThan(VIEW.height - 2 * GUTTER);
  });

  it("100 % is the page's real size (a point is 96/72 px)", () => {
    expect(pageSizeAt({ width: 72, height: 144 }, 1)).toEqual({ width: 96, height: 192 });
    expect(PX_PER_PT).toBeCloseTo(4 / 3, 10);
  });

  it("stays between the smallest and largest zoom, even in a tiny or huge viewport", () => {
    expect(fitWidth(A4, { width: 10, height: 10 }, GUTTER)).toBe(MIN_ZOOM);
    expect(fitPage(A4, { width: 100_000, height: 100_000 }, GUTTER)).toBe(MAX_ZOOM);
  });

  it("a fit mode follows the viewport; a custom zoom keeps its value", () => {
    expect(zoomOf({ mode: "width", zoom: 3 }, A4, VIEW, GUTTER)).toBe(fitWidth(A4, VIEW, GUTTER));
    expect(zoomOf({ mode: "page", zoom: 3 }, A4, VIEW, GUTTER)).toBe(fitPage(A4, VIEW, GUTTER));
    expect(zoomOf({ mode: "custom", zoom: 1.5 }, A4, VIEW, GUTTER)).toBe(1.5);
    expect(zoomOf({ mode: "custom", zoom: 99 }, A4, VIEW, GUTTER)).toBe(MAX_ZOOM);
  });
});

describe("steps", () => {
  it("goes to the next step from a step or from a fit in between", () => {
    expect(stepZoom(1, 1)).toBe(1.1);
    expect(stepZoom(1, -1)).toBe(0.9);
    expect(stepZoom(0.62, 1)).toBe(0.67);
    expect(stepZoom(0.62, -1)).toBe(0.5);
    // A fit of 0.668 is "67 %": the next step in is 75 %, not 67 % again.
    expect(stepZoom(0.668, 1)).toBe(0.75);
  });

  it("stops at both ends", () => {
    expect(stepZoom(MAX_ZOOM, 1)).toBe(MAX_ZOOM);
    expect(stepZoom(ZOOM_STEPS[0], -1)).toBe(ZOOM_STEPS[0]);
    expect(stepZoom(MIN_ZOOM, 1)).toBe(ZOOM_STEPS[0]);
  });

  it("zooms in on wheel up and out on wheel down, a notch at a time", () => {
    expect(wheelZoom(1, -100)).toBeGreaterThan(1);
    expect(wheelZoom(1, 100)).toBeLessThan(1);
    // In then out by the same travel comes back.
    expect(wheelZoom(wheelZoom(1, -100), 100)).toBeCloseTo(1, 10);
    // Lines (Firefox) count like pixels; a huge delta is capped.
    expect(wheelZoom(1, -3, 1)).toBeCloseTo(wheelZoom(1, -48), 10);
    expect(wheelZoom(1, -100_000)).toBeLessThan(1.5);
    expect(wheelZoom(MAX_ZOOM, -100)).toBe(MAX_ZOOM);
  });

  it("labels the zoom in whole percent", () => {
    expect(zoomLabel(0.6234)).toBe("62%");
    expect(zoomLabel(1.5)).toBe("150%");
  });
});

describe("zooming keeps the point under the cursor", () => {
  const fit = fitWidth(A4, VIEW, GUTTER);

  it("in and out, from fit width, at a point on the page", () => {
    const anchor = { x: 200, y: 300 };
    const scroll = { x: 0, y: 120 };
    for (const to of [1.5, 0.9, 2.5]) {
      const next = scrollForZoom({ page: A4, view: VIEW, gutter: GUTTER, from: fit, to, scroll, anchor });
      // The page point that was under the anchor…
      const before = layoutPage(A4, fit, VIEW, GUTTER);
      const u = (scroll.x + anchor.x - before.left) / before.width;
      const v = (scroll.y + anchor.y - before.top) / before.height;
      // …is still under it.
      const after = onScreen(to, next, u, v);
      expect(after.x).toBeCloseTo(anchor.x, 6);
      expect(after.y).toBeCloseTo(anchor.y, 6);
    }
  });

  it("the buttons zoom around the viewport's centre", () => {
    const centre = { x: VIEW.width / 2, y: VIEW.height / 2 };
    const scroll = { x: 0, y: 200 };
    const next = scrollForZoom({
      page: A4,
      view: VIEW,
      gutter: GUTTER,
      from: fit,
      to: 1.25,
      scroll,
      anchor: centre,
    });
    const before = layoutPage(A4, fit, VIEW, GUTTER);
    const u = (scroll.x + centre.x - before.left) / before.width;
    const v = (scroll.y + centre.y - before.top) / before.height;
    const after = onScreen(1.25, next, u, v);
    expect(after.x).toBeCloseTo(centre.x, 6);
    expect(after.y).toBeCloseTo(centre.y, 6);
  });

  it("a zoom from a centred page to a larger one keeps the point too", () => {
    const from = fitPage(A4, VIEW, GUTTER);
    const anchor = { x: 300, y: 100 };
    const before = layoutPage(A4, from, VIEW, GUTTER);
    const u = (anchor.x - before.left) / before.width;
    const v = (anchor.y - before.top) / before.height;
    const next = scrollForZoom({
      page: A4,
      view: VIEW,
      gutter: GUTTER,
      from,
      to: 1.5,
      scroll: { x: 0, y: 0 },
      anchor,
    });
    const after = onScreen(1.5, next, u, v);
    expect(after.x).toBeCloseTo(anchor.x, 6);
    expect(after.y).toBeCloseTo(anchor.y, 6);
  });

  it("never scrolls past the content's ends", () => {
    // Zooming out near the bottom right of a large page: the page shrinks back into view.
    const next = scrollForZoom({
      page: A4,
      view: VIEW,
      gutter: GUTTER,
      from: 2,
      to: fit,
      scroll: { x: 1100, y: 1700 },
      anchor: { x: 500, y: 500 },
    });
    const after = layoutPage(A4, fit, VIEW, GUTTER);
    expect(next.x).toBe(0);
    expect(next.y).toBeGreaterThanOrEqual(0);
    expect(next.y).toBeLessThanOrEqual(after.contentHeight - VIEW.height);
    // Zooming in at the top left corner scrolls nowhere negative.
    const corner = scrollForZoom({
      page: A4,
      view: VIEW,
      gutter: GUTTER,
      from: fit,
      to: 2,
      scroll: { x: 0, y: 0 },
      anchor: { x: 0, y: 0 },
    });
    expect(corner).toEqual({ x: 0, y: 0 });
  });
});
