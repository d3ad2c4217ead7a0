/**
 * The hotspot editor's state, free of React: the page's draft links, the selected one, an
 * undo history, and the server revision the draft is based on (so a save never overwrites
 * someone else's change silently). Coordinates are fractions of the page (0..1).
 */
import type { LinkKind, LinkTarget, PdfLink } from "../../../schemas/pdf-library";

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface EditorState {
  links: PdfLink[];
  selected: number | null;
  /** Earlier `links`, newest last (Ctrl+Z). */
  history: PdfLink[][];
  /** The server revision the draft started from. */
  revision: number;
  dirty: boolean;
}

/** The smallest hotspot, as a fraction of the page, so a stray click draws nothing. */
export const MIN_SIZE = 0.01;
const HISTORY_MAX = 50;

export const loaded = (links: PdfLink[], revision: number): EditorState => ({
  links,
  selected: null,
  history: [],
  revision,
  dirty: false,
});

const clamp = (v: number, lo = 0, hi = 1) => Math.min(hi, Math.max(lo, v));

/**
 * A rectangle from two corners (in any order), kept on the page.
 *
 * @example
 * rectFrom({ x: 0.5, y: 0.5 }, { x: 0.2, y: 0.9 }); // { x: 0.2, y: 0.5, w: 0.3, h: 0.4 }
 */
export function rectFrom(a: { x: number; y: number }, b: { x: number; y: number }): Rect {
  const x1 = clamp(Math.min(a.x, b.x));
  const y1 = clamp(Math.min(a.y, b.y));
  const x2 = clamp(Math.max(a.x, b.x));
  const y2 = clamp(Math.max(a.y, b.y));
  return { x: x1, y: y1, w: x2 - x1, h: y2 - y1 };
}

/** A rectangle moved by (dx, dy), stopped at the page's edges. */
export function moved(r: Rect, dx: number, dy: number): Rect {
  return { ...r, x: clamp(r.x + dx, 0, 1 - r.w), y: clamp(r.y + dy, 0, 1 - r.h) };
}

export type Handle = "nw" | "ne" | "sw" | "se";

/** A rectangle with one corner dragged by (dx, dy); it never turns inside out or leaves the page. */
export function resized(r: Rect, handle: Handle, dx: number, dy: number): Rect {
  let { x, y } = r;
  let x2 = r.x + r.w;
  let y2 = r.y + r.h;
  if (handle.includes("w")) x = clamp(Math.min(x + dx, x2 - MIN_SIZE));
  else x2 = clamp(Math.max(x2 + dx, x + MIN_SIZE));
  if (handle.includes("n")) y = clamp(Math.min(y + dy, y2 - MIN_SIZE));
  else y2 = clamp(Math.max(y2 + dy, y + MIN_SIZE));
  return { x, y, w: x2 - x, h: y2 - y };
}

/** A change with its undo step. */
function change(state: EditorState, links: PdfLink[], selected: number | null = state.selected): EditorState {
  return {
    ...state,
    links,
    selected,
    history: [...state.history, state.links].slice(-HISTORY_MAX),
    dirty: true,
  };
}

/** Default target of a new hotspot of each kind (what the properties panel starts from). */
export const EMPTY_TARGET: Record<LinkKind, LinkTarget> = {
  pageLink: { page: 1 },
  link: { url: "" },
  video: { youtubeId: "" },
  iframe: { url: "" },
  text: { text: "" },
  addProduct: {},
  addProductDetails: {},
};

/** Adds a hotspot (drawn or suggested) and selects it; a too-small one is ignored. */
export function addLink(
  state: EditorState,
  rect: Rect,
  kind: LinkKind = "link",
  target?: LinkTarget,
): EditorState {
  if (rect.w < MIN_SIZE || rect.h < MIN_SIZE) return state;
  const link: PdfLink = { ...rect, kind, target: target ?? { ...EMPTY_TARGET[kind] }, button: null };
  return change(state, [...state.links, link], state.links.length);
}

/** Changes one hotspot (its place, kind, target or button). */
export function updateLink(state: EditorState, index: number, patch: Partial<PdfLink>): EditorState {
  const current = state.links[index];
  if (!current) return state;
  const next = { ...current, ...patch };
  // A new kind starts from its own empty target unless one is given.
  if (patch.kind && patch.kind !== current.kind && !patch.target)
    next.target = { ...EMPTY_TARGET[patch.kind] };
  return change(
    state,
    state.links.map((l, i) => (i === index ? next : l)),
  );
}

export function removeLink(state: EditorState, index: number): EditorState {
  if (!state.links[index]) return state;
  return change(
    state,
    state.links.filter((_, i) => i !== index),
    null,
  );
}

export const select = (state: EditorState, index: number | null): EditorState => ({
  ...state,
  selected: index,
});

/** Undoes the last change. */
export function undo(state: EditorState): EditorState {
  const previous = state.history.at(-1);
  if (!previous) return state;
  return {
    ...state,
    links: previous,
    history: state.history.slice(0, -1),
    selected: state.selected !== null && state.selected < previous.length ? state.selected : null,
    dirty: state.history.length > 1 || previous !== state.links,
  };
}

/** After a save: the server's answer is the new base, the history stays for undo. */
export const saved = (state: EditorState, links: PdfLink[], revision: number): EditorState => ({
  ...state,
  links,
  revision,
  dirty: false,
});

/** Hotspots copied to another page's links: new ids, same places and actions. */
export function copiedLinks(links: PdfLink[]): PdfLink[] {
  return links.map(({ id: _id, ...rest }) => ({ ...rest, target: { ...rest.target } }));
}

/**
 * A YouTube video id from what a person pastes: a watch/short/embed URL or the id itself.
 *
 * @example
 * youtubeIdOf("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1"); // "dQw4w9WgXcQ"
 * youtubeIdOf("https://youtu.be/dQw4w9WgXcQ"); // "dQw4w9WgXcQ"
 */
export function youtubeIdOf(input: string): string {
  const text = input.trim();
  if (/^[A-Za-z0-9_-]{6,20}$/.test(text)) return text;
  try {
    const url = new URL(text);
    if (url.hostname.endsWith("youtu.be")) return url.pathname.slice(1).split("/")[0] ?? "";
    const v = url.searchParams.get("v");
    if (v) return v;
    const match = /\/(?:embed|shorts|v)\/([A-Za-z0-9_-]{6,20})/.exec(url.pathname);
    return match?.[1] ?? "";
  } catch {
    return "";
  }
}

const needsUrl = (t: LinkTarget) =>
  /^https?:\/\/.+/.test(t.url ?? "") ? null : "Enter a URL starting with http:// or https://";
const needsProduct = (t: LinkTarget) => (t.productId ? null : "Choose a product");

/** Per kind: what a hotspot's target still lacks, or null when it is complete. */
const TARGET_CHECKS: Record<LinkKind, (t: LinkTarget) => string | null> = {
  pageLink: (t) => (t.page ? null : "Choose the page to go to"),
  link: needsUrl,
  video: (t) => (t.youtubeId ? null : "Paste a YouTube link"),
  iframe: needsUrl,
  text: (t) => (t.text?.trim() ? null : "Write the text to show"),
  addProduct: needsProduct,
  addProductDetails: needsProduct,
};

/** What a hotspot still needs before it can be saved, or null when it is complete. */
export const missingTarget = (link: PdfLink): string | null => TARGET_CHECKS[link.kind](link.target);
