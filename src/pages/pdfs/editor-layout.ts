import type { CSSProperties } from "react";

/** The hotspot editor's side columns (px); the page takes the rest of the width. */
export const THUMBNAILS_WIDTH = 112;
export const PANEL_WIDTH = 320;
export const COLUMN_GAP = 12;

/** A card as tall as its column, its body scrolling inside (the editor fills the screen). */
export const FILL_CARD = {
  style: { height: "100%", display: "flex", flexDirection: "column" } satisfies CSSProperties,
  styles: { body: { flex: 1, minHeight: 0, overflowY: "auto" } satisfies CSSProperties },
};
