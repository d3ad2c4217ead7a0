/**
 * The bar under the pages: previous and next, the page number box, and the zoom buttons.
 */
import { useEffect, useState } from "react";
import { formatPercent } from "../../schemas/money";
import { Icon } from "./icons";
import { MAX_ZOOM, MIN_ZOOM } from "./navigation";

export interface ControlsProps {
  /** The page asked for (of a spread, the one the visitor went to). */
  page: number;
  pageCount: number;
  zoom: number;
  onPrevious: (() => void) | null;
  onNext: (() => void) | null;
  onGoTo(page: number): void;
  onZoomIn(): void;
  onZoomOut(): void;
  onFit(): void;
}

function PageBox({
  page,
  pageCount,
  onGoTo,
}: {
  page: number;
  pageCount: number;
  onGoTo(page: number): void;
}) {
  const [draft, setDraft] = useState(String(page));
  useEffect(() => setDraft(String(page)), [page]);
  const submit = () => {
    const wanted = Number.parseInt(draft, 10);
    if (Number.isFinite(wanted)) onGoTo(wanted);
    else setDraft(String(page));
  };
  return (
    <form
      className="vw-page-box"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <input
        aria-label="Page number"
        inputMode="numeric"
        pattern="[0-9]*"
        value={draft}
        onChange={(event) => setDraft(event.target.value.replace(/\D/g, "").slice(0, 6))}
        onBlur={submit}
        onFocus={(event) => event.target.select()}
      />
      <span className="vw-page-count">/ {pageCount}</span>
    </form>
  );
}

export function Controls(props: ControlsProps) {
  const { page, pageCount, zoom } = props;
  return (
    <nav className="vw-controls" aria-label="Page controls">
      <div className="vw-controls-group">
        <button
          type="button"
          className="vw-icon-btn"
          aria-label="Previous page"
          disabled={!props.onPrevious}
          onClick={() => props.onPrevious?.()}
        >
          <Icon name="previous" />
        </button>
        <PageBox page={page} pageCount={pageCount} onGoTo={props.onGoTo} />
        <button
          type="button"
          className="vw-icon-btn"
          aria-label="Next page"
          disabled={!props.onNext}
          onClick={() => props.onNext?.()}
        >
          <Icon name="next" />
        </button>
      </div>
      <div className="vw-controls-group">
        <button
          type="button"
          className="vw-icon-btn"
          aria-label="Zoom out"
          disabled={zoom <= MIN_ZOOM}
          onClick={props.onZoomOut}
        >
          <Icon name="zoomOut" />
        </button>
        <output className="vw-zoom-level" aria-label="Zoom level">
          {formatPercent(zoom, { fraction: true, decimals: 0 })}
        </output>
        <button
          type="button"
          className="vw-icon-btn"
          aria-label="Zoom in"
          disabled={zoom >= MAX_ZOOM}
          onClick={props.onZoomIn}
        >
          <Icon name="zoomIn" />
        </button>
        <button
          type="button"
          className="vw-icon-btn"
          aria-label="Fit to screen"
          disabled={zoom === 1}
          onClick={props.onFit}
        >
          <Icon name="fit" />
        </button>
      </div>
    </nav>
  );
}
