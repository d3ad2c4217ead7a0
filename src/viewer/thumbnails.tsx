/** The strip of page thumbnails; the pages shown are marked and kept in view. */
import { useEffect, useRef } from "react";
import type { PublicPage } from "./api";

export interface ThumbnailsProps {
  pages: PublicPage[];
  shown: number[];
  onGoTo(page: number): void;
}

export function Thumbnails({ pages, shown, onGoTo }: ThumbnailsProps) {
  const ref = useRef<HTMLOListElement>(null);
  const first = shown[0];

  useEffect(() => {
    const current = ref.current?.querySelector<HTMLElement>(`[data-page="${first}"]`);
    current?.scrollIntoView?.({ block: "nearest", inline: "nearest", behavior: "smooth" });
  }, [first]);

  return (
    <nav className="vw-thumbs" aria-label="Pages">
      <ol ref={ref}>
        {pages.map((page) => {
          const current = shown.includes(page.page);
          return (
            <li key={page.page}>
              <button
                type="button"
                className="vw-thumb"
                data-page={page.page}
                aria-label={`Page ${page.page}`}
                aria-current={current ? "page" : undefined}
                onClick={() => onGoTo(page.page)}
              >
                <img
                  src={page.images.thumbnail}
                  alt=""
                  loading="lazy"
                  decoding="async"
                  style={{ aspectRatio: `${page.width} / ${page.height}` }}
                />
                <span aria-hidden="true">{page.page}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
