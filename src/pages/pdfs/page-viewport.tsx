import "./page-viewport.css";
import { Skeleton, theme } from "antd";
import { type RefObject, useEffect } from "react";
import type { PdfPage } from "../../../schemas/pdf-library";
import { HotspotCanvas } from "./hotspot-canvas";
import type { EditorState, Rect } from "./hotspot-editor-state";
import { usePageImage } from "./use-page-image";
import { PAGE_GUTTER, type Zoom } from "./use-zoom";

export interface PageViewportProps {
  viewport: RefObject<HTMLElement | null>;
  page: PdfPage | undefined;
  zoom: Zoom;
  editor: EditorState;
  suggestions: Rect[];
  onSelect: (index: number | null) => void;
  onDraw: (rect: Rect) => void;
  onChange: (index: number, rect: Rect) => void;
}

/**
 * The page at its zoom in a scrolling viewport that fills the space left to it: the page is
 * placed where the zoom's layout says (centred when smaller than the viewport), so zooming
 * can keep a point still. Hotspots are drawn on it in page fractions, right at every zoom.
 * The viewport takes the keyboard focus (a named region), so a zoomed page can be scrolled
 * without a mouse; the editor's keys work there as anywhere in the editor.
 */
export function PageViewport(props: PageViewportProps) {
  const { viewport, page, zoom, editor } = props;
  const { token } = theme.useToken();
  const layout = zoom.layout;
  const src = usePageImage(page, layout?.width ?? 0);

  // Another page starts at its top.
  const pageNumber = page?.page;
  useEffect(() => {
    if (pageNumber !== undefined) viewport.current?.scrollTo({ left: 0, top: 0 });
  }, [viewport, pageNumber]);

  return (
    <section
      ref={viewport}
      data-testid="page-viewport"
      className="page-viewport"
      aria-label={pageNumber === undefined ? "Page" : `Page ${pageNumber}`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region takes the focus to be scrolled by keys
      tabIndex={0}
      data-gutter={PAGE_GUTTER}
      style={{
        flex: 1,
        minHeight: 0,
        overflow: "auto",
        // The scrollbar's room is kept, so a page that starts to scroll keeps its width.
        scrollbarGutter: "stable",
        background: token.colorFillQuaternary,
        borderRadius: token.borderRadiusLG,
        overscrollBehavior: "contain",
      }}
    >
      {layout && (
        <div style={{ position: "relative", width: layout.contentWidth, height: layout.contentHeight }}>
          <div style={{ position: "absolute", left: layout.left, top: layout.top }}>
            {page && src ? (
              <HotspotCanvas
                src={src}
                width={page.width}
                height={page.height}
                displayWidth={layout.width}
                links={editor.links}
                selected={editor.selected}
                suggestions={props.suggestions}
                editable
                onSelect={props.onSelect}
                onDraw={props.onDraw}
                onChange={props.onChange}
              />
            ) : (
              <Skeleton.Image active style={{ width: layout.width, height: layout.height }} />
            )}
          </div>
        </div>
      )}
    </section>
  );
}
