/**
 * The reading area: the page (or the two pages of a spread) fitted to the space there is,
 * times the zoom, scrolling when zoomed in. A horizontal swipe turns the page when the pages
 * fit the screen.
 */
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { PublicLink, PublicPage, PublicProduct } from "./api";
import { linksOfPage } from "./hotspots";
import { fitScale, imageSizeFor } from "./navigation";
import { PageView } from "./page-view";

/** Room left around the pages, in pixels. */
const MARGIN = 16;
/** How far a finger must travel sideways to turn the page. */
const SWIPE = 60;

export interface PageStageProps {
  pages: PublicPage[];
  zoom: number;
  links: readonly PublicLink[];
  products: Record<string, PublicProduct>;
  onUse(link: PublicLink): void;
  onSwipe(direction: "next" | "previous"): void;
}

function useBoxSize(ref: RefObject<HTMLElement | null>) {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setSize({ width: element.clientWidth, height: element.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

export function PageStage({ pages, zoom, links, products, onUse, onSwipe }: PageStageProps) {
  const ref = useRef<HTMLDivElement>(null);
  const box = useBoxSize(ref);
  const touch = useRef<{ x: number; y: number } | null>(null);
  const scale = fitScale(pages, box.width - 2 * MARGIN, box.height - 2 * MARGIN) * zoom;
  const imageSize = imageSizeFor(zoom);
  const first = pages[0]?.page;

  // A new page starts at its top, however far the last one was scrolled.
  useEffect(() => {
    if (first !== undefined) ref.current?.scrollTo?.({ top: 0, left: 0 });
  }, [first]);

  return (
    <div
      ref={ref}
      className="vw-stage"
      data-zoom={zoom}
      onTouchStart={(event) => {
        const t = event.touches[0];
        touch.current = event.touches.length === 1 && zoom <= 1 ? { x: t.clientX, y: t.clientY } : null;
      }}
      onTouchEnd={(event) => {
        const start = touch.current;
        touch.current = null;
        const t = event.changedTouches[0];
        if (!start || !t) return;
        const dx = t.clientX - start.x;
        if (Math.abs(dx) > SWIPE && Math.abs(dx) > 2 * Math.abs(t.clientY - start.y))
          onSwipe(dx < 0 ? "next" : "previous");
      }}
    >
      {box.width > 0 ? (
        <div className="vw-spread">
          {pages.map((page) => (
            <PageView
              key={page.page}
              page={page}
              scale={scale}
              imageSize={imageSize}
              links={linksOfPage(links, page.page)}
              products={products}
              onUse={onUse}
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}
