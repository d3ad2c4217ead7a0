/** CMS navigations (issue 14): per domain, named trees of links to entries, URLs and groups. */
import type { FieldError } from "./error-messages";

export type NavItemKind = "entry" | "url" | "group";

export interface NavItem {
  id: string;
  /** In the domain's default locale. */
  label: string;
  /** In the domain's other locales, by tag (missing ones follow the fallback chain). */
  labels?: Record<string, string>;
  kind: NavItemKind;
  /** entry: the entry's type (API name) and id. */
  type?: string;
  entryId?: string;
  /** url: where it goes. */
  url?: string;
  hidden?: boolean;
  children: NavItem[];
}

export const MAX_NAV_ITEMS = 500;

/** Problems with a tree: depth over `maxDepth`, items without what their kind needs. */
export function checkNavigation(items: readonly NavItem[], maxDepth: number): FieldError[] {
  const errors: FieldError[] = [];
  let count = 0;
  const walk = (list: readonly NavItem[], depth: number, path: string) => {
    list.forEach((item, i) => {
      count++;
      const at = `${path}${i}`;
      if (depth > maxDepth)
        errors.push({
          field: at,
          message: `${item.label || "An item"} is nested deeper than ${maxDepth} levels`,
        });
      if (!item.label?.trim()) errors.push({ field: `${at}.label`, message: "Each item needs a label" });
      if (item.kind === "url" && !/^(https?:\/\/|\/|#|mailto:)/.test(item.url ?? ""))
        errors.push({
          field: `${at}.url`,
          message: `${item.label || "A link"}: the URL must start with http://, https://, / or #`,
        });
      if (item.kind === "entry" && (!item.type || !item.entryId))
        errors.push({
          field: `${at}.entryId`,
          message: `${item.label || "A link"}: choose the entry it links to`,
        });
      walk(item.children ?? [], depth + 1, `${at}.children.`);
    });
  };
  walk(items, 1, "items.");
  if (count > MAX_NAV_ITEMS)
    errors.push({ field: "items", message: `A navigation may hold at most ${MAX_NAV_ITEMS} items` });
  return errors;
}
