import { type RefObject, useLayoutEffect, useState } from "react";

/**
 * The height that takes an element from where it starts down to the window's bottom (less
 * `bottom` px), at least `min`: the editor fills the screen and scrolls inside its own
 * columns, so the page, its thumbnails and the panel are all in view at once.
 */
export function useFillHeight(element: RefObject<HTMLElement | null>, bottom: number, min: number): number {
  const [height, setHeight] = useState(min);
  const measure = () => {
    const el = element.current;
    if (!el) return;
    const top = el.getBoundingClientRect().top + window.scrollY;
    const next = Math.max(min, Math.floor(window.innerHeight - top - bottom));
    setHeight((h) => (h === next ? h : next));
  };
  // After every render, since what is above may have changed (the header's buttons arrive
  // with the catalogue, a banner opens); an unchanged height is not set again, so it settles.
  useLayoutEffect(measure);
  useLayoutEffect(() => {
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  });
  return height;
}
