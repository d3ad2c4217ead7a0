/**
 * Business constants and option lists of spec §9. Values and spellings are the spec's
 * (including "Forth"); option lists are `{ value, label }` so they feed antd Selects as is.
 */

export interface Option<V extends string | number = string> {
  value: V;
  label: string;
}

/** Currency used when none is stored: the money module's (schemas/money.ts). */
export { DEFAULT_CURRENCY } from "../../schemas/money";

/** Product list paging defaults (page is 0-based here, as in the products slice). */
export const DEFAULT_PAGE = 0;
export const DEFAULT_PAGE_SIZE = 10;

/** Toasts close after 2 s; the "back online" toast also lasts 2 s. */
export const TOAST_AUTO_CLOSE_MS = 2000;
export const ONLINE_TOAST_MS = 2000;

/** An external script that has not loaded after 2 minutes is given up on. */
export const SCRIPT_LOAD_TIMEOUT_MS = 120_000;

export const OFFLINE_MESSAGE = "You are offline";
export const ONLINE_MESSAGE = "You are online";
export const UNABLE_TO_REFRESH = "Unable to refresh token";
export const COULD_NOT_DELETE_PDF = "Could not delete PDF";

/** The configured commerce platform. */
export const COMMERCE_PLATFORM_ID = 13;

export const DISCOUNT_OPTIONS: readonly Option<number>[] = [
  { value: 1, label: "Product discount" },
  { value: 2, label: "Total discount" },
  { value: 3, label: "No discount" },
];

export const BUTTON_ICONS: readonly Option[] = [
  { value: "external-link", label: "External Link" },
  { value: "play", label: "Play" },
  { value: "add-1", label: "Add-1" },
  { value: "add-2", label: "Add-2" },
  { value: "add-3", label: "Add-3" },
];

export const BUTTON_SIZES: readonly Option<"sm" | "md" | "lg">[] = [
  { value: "sm", label: "sm" },
  { value: "md", label: "md" },
  { value: "lg", label: "lg" },
];

export const BUTTON_COLOURS: readonly Option[] = [
  { value: "primary", label: "Primary" },
  { value: "secondary", label: "Secondary" },
  { value: "tertiary", label: "Tertiary" },
  { value: "forth", label: "Forth" },
];

/** A link action kind; `aliases` are other values that mean the same kind. */
export interface LinkKind extends Option {
  aliases?: readonly string[];
}

/**
 * Link action kinds. The spec names the product kind both `addProductDetails` and
 * `addProduct`; the first is canonical, the second an alias read by {@link linkKindOf}.
 */
export const LINK_KINDS: readonly LinkKind[] = [
  { value: "pageLink", label: "Page Link" },
  { value: "link", label: "Link" },
  { value: "video", label: "YouTube" },
  { value: "iframe", label: "Iframe" },
  { value: "text", label: "Custom Text" },
  { value: "addProductDetails", label: "Add Product", aliases: ["addProduct"] },
];

/**
 * Finds a link kind by its value or an alias.
 *
 * @example
 * linkKindOf("addProduct")?.label; // "Add Product"
 */
export function linkKindOf(value: string): LinkKind | undefined {
  return LINK_KINDS.find((kind) => kind.value === value || kind.aliases?.includes(value));
}
