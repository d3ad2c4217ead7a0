import { Tooltip } from "antd";
import { type ReactNode, useLayoutEffect, useRef, useState } from "react";
import { truncateToWidth } from "../../lib/text";

/**
 * Text measured in the font it is drawn in. One canvas for the whole page; the browser
 * measures without laying anything out.
 */
let canvas: CanvasRenderingContext2D | null = null;
function measurer(font: string): (text: string) => number {
  canvas ??= document.createElement("canvas").getContext("2d");
  const context = canvas;
  if (!context) return (text) => text.length * 8;
  return (text) => {
    context.font = font;
    return context.measureText(text).width;
  };
}

/** One ResizeObserver for every cell: a column that grows or shrinks cuts its texts again. */
const watchers = new Map<Element, () => void>();
let observer: ResizeObserver | null = null;
function watch(element: Element, onResize: () => void): () => void {
  observer ??= new ResizeObserver((entries) => {
    for (const entry of entries) watchers.get(entry.target)?.();
  });
  watchers.set(element, onResize);
  observer.observe(element);
  return () => {
    watchers.delete(element);
    observer?.unobserve(element);
  };
}

interface TruncatedTextProps {
  text: string;
  /**
   * Draws the shown text (a link, a styled span), which must then carry the whole text as its
   * accessible name when cut; plain text by default.
   */
  render?: (shown: string, cut: boolean) => ReactNode;
}

/**
 * One line of text that fits its table cell: cut with the 3-character ellipsis "..." (spec
 * §9; CSS can only draw "…") and shown whole in a tooltip on hover.
 */
export function TruncatedText({ text, render }: TruncatedTextProps) {
  const box = useRef<HTMLSpanElement>(null);
  const [shown, setShown] = useState(text);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const refit = () => {
      const width = element.clientWidth;
      // Not laid out (a hidden tab): keep the whole text until it is.
      if (width === 0) return;
      setShown(truncateToWidth(text, width, measurer(getComputedStyle(element).font)));
    };
    refit();
    return watch(element, refit);
  }, [text]);

  const cut = shown !== text;
  const content = (
    <span
      ref={box}
      data-truncated={cut || undefined}
      style={{ display: "block", overflow: "hidden", whiteSpace: "nowrap" }}
    >
      {render ? (
        render(shown, cut)
      ) : cut ? (
        // Assistive technology (and a search of the page) gets the whole text; the eye the cut one.
        // A rendered value (a link) names itself whole instead.
        <>
          <span className="atelier-sr-only">{text}</span>
          <span aria-hidden>{shown}</span>
        </>
      ) : (
        shown
      )}
    </span>
  );
  // Always inside the Tooltip (empty while the text fits): swapping the wrapper would remount
  // the box and leave the resize watch on the old one.
  return (
    <Tooltip title={cut ? text : undefined} placement="topLeft" mouseEnterDelay={0.3}>
      {content}
    </Tooltip>
  );
}
