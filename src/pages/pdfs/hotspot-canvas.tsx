import { theme } from "antd";
import { type PointerEvent as ReactPointerEvent, useRef, useState } from "react";
import { LINK_KIND_LABELS, type PdfLink } from "../../../schemas/pdf-library";
import { type Handle, moved, type Rect, rectFrom, resized } from "./hotspot-editor-state";

export interface HotspotCanvasProps {
  /** The page image. */
  src: string;
  /** Page size in points: the image's aspect ratio before it loads. */
  width: number;
  height: number;
  /** Displayed width in px. */
  displayWidth: number;
  links: PdfLink[];
  selected: number | null;
  /** Suggested boxes, drawn dashed (accepted from the panel). */
  suggestions?: Rect[];
  onSelect: (index: number | null) => void;
  onDraw: (rect: Rect) => void;
  /** A hotspot moved or resized (called once, at the end of the drag). */
  onChange: (index: number, rect: Rect) => void;
  editable: boolean;
}

type Drag =
  | { kind: "draw"; from: { x: number; y: number }; to: { x: number; y: number } }
  | { kind: "move" | Handle; index: number; start: { x: number; y: number }; rect: Rect; now: Rect };

const HANDLES: Handle[] = ["nw", "ne", "sw", "se"];

/**
 * A page with its hotspots. Drag on the page to draw one; drag a hotspot to move it, or a
 * corner to resize it; click to select. Coordinates are fractions of the page, so they stay
 * right at every zoom and after the page is rendered again.
 */
export function HotspotCanvas(props: HotspotCanvasProps) {
  const { src, width, height, displayWidth, links, selected, suggestions = [], editable } = props;
  const { token } = theme.useToken();
  const box = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);

  const point = (event: { clientX: number; clientY: number }) => {
    const r = box.current?.getBoundingClientRect();
    if (!r) return { x: 0, y: 0 };
    return { x: (event.clientX - r.left) / r.width, y: (event.clientY - r.top) / r.height };
  };

  const startDraw = (event: ReactPointerEvent) => {
    if (!editable || event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    const p = point(event);
    setDrag({ kind: "draw", from: p, to: p });
    props.onSelect(null);
  };

  const startEdit = (event: ReactPointerEvent, index: number, kind: "move" | Handle) => {
    event.stopPropagation();
    props.onSelect(index);
    if (!editable || event.button !== 0) return;
    box.current?.setPointerCapture(event.pointerId);
    const rect = links[index];
    setDrag({ kind, index, start: point(event), rect, now: rect });
  };

  const onMove = (event: ReactPointerEvent) => {
    if (!drag) return;
    const p = point(event);
    if (drag.kind === "draw") setDrag({ ...drag, to: p });
    else {
      const dx = p.x - drag.start.x;
      const dy = p.y - drag.start.y;
      setDrag({
        ...drag,
        now: drag.kind === "move" ? moved(drag.rect, dx, dy) : resized(drag.rect, drag.kind, dx, dy),
      });
    }
  };

  const onUp = () => {
    if (!drag) return;
    if (drag.kind === "draw") props.onDraw(rectFrom(drag.from, drag.to));
    else if (drag.now !== drag.rect) props.onChange(drag.index, drag.now);
    setDrag(null);
  };

  const pct = (v: number) => `${v * 100}%`;
  const rectOf = (i: number): Rect =>
    drag && drag.kind !== "draw" && drag.index === i ? drag.now : links[i];

  return (
    <div
      ref={box}
      data-testid="page-canvas"
      onPointerDown={startDraw}
      onPointerMove={onMove}
      onPointerUp={onUp}
      style={{
        position: "relative",
        width: displayWidth,
        aspectRatio: `${width} / ${height}`,
        background: "#fff",
        boxShadow: token.boxShadow,
        cursor: editable ? "crosshair" : "default",
        userSelect: "none",
        touchAction: "none",
      }}
    >
      <img src={src} alt="" draggable={false} style={{ width: "100%", height: "100%", display: "block" }} />
      {suggestions.map((s) => (
        <div
          key={`${s.x}:${s.y}`}
          style={{
            position: "absolute",
            left: pct(s.x),
            top: pct(s.y),
            width: pct(s.w),
            height: pct(s.h),
            border: `2px dashed ${token.colorWarning}`,
            background: "rgba(250, 173, 20, 0.12)",
            pointerEvents: "none",
          }}
        />
      ))}
      {links.map((link, i) => {
        const r = rectOf(i);
        const active = i === selected;
        return (
          <button
            // biome-ignore lint/suspicious/noArrayIndexKey: hotspots are edited by their place in the list.
            key={i}
            type="button"
            aria-label={`Hotspot ${i + 1}: ${LINK_KIND_LABELS[link.kind]}`}
            aria-pressed={active}
            onPointerDown={(e) => startEdit(e, i, "move")}
            onClick={(e) => e.stopPropagation()}
            onFocus={() => props.onSelect(i)}
            style={{
              position: "absolute",
              left: pct(r.x),
              top: pct(r.y),
              width: pct(r.w),
              height: pct(r.h),
              padding: 0,
              border: `2px solid ${active ? token.colorPrimary : token.colorInfoBorder}`,
              background: active ? "rgba(79, 70, 229, 0.22)" : "rgba(79, 70, 229, 0.10)",
              borderRadius: 2,
              cursor: editable ? "move" : "pointer",
            }}
          >
            <span
              style={{
                position: "absolute",
                left: 0,
                top: 0,
                transform: "translateY(-100%)",
                fontSize: 11,
                lineHeight: "16px",
                padding: "0 4px",
                whiteSpace: "nowrap",
                color: "#fff",
                background: active ? token.colorPrimary : token.colorInfo,
                borderRadius: 2,
              }}
            >
              {i + 1} · {LINK_KIND_LABELS[link.kind]}
            </span>
            {active &&
              editable &&
              HANDLES.map((h) => (
                <span
                  key={h}
                  data-handle={h}
                  onPointerDown={(e) => startEdit(e, i, h)}
                  style={{
                    position: "absolute",
                    width: 10,
                    height: 10,
                    background: "#fff",
                    border: `2px solid ${token.colorPrimary}`,
                    borderRadius: 2,
                    left: h.includes("w") ? -6 : undefined,
                    right: h.includes("e") ? -6 : undefined,
                    top: h.includes("n") ? -6 : undefined,
                    bottom: h.includes("s") ? -6 : undefined,
                    cursor: h === "nw" || h === "se" ? "nwse-resize" : "nesw-resize",
                  }}
                />
              ))}
          </button>
        );
      })}
      {drag?.kind === "draw" && (
        <div
          style={{
            position: "absolute",
            ...(() => {
              const r = rectFrom(drag.from, drag.to);
              return { left: pct(r.x), top: pct(r.y), width: pct(r.w), height: pct(r.h) };
            })(),
            border: `2px dashed ${token.colorPrimary}`,
            background: "rgba(79, 70, 229, 0.12)",
            pointerEvents: "none",
          }}
        />
      )}
    </div>
  );
}
