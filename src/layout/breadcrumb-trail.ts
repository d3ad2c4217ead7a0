/**
 * The breadcrumb's trail without doubled levels: Refine walks resource parents, so a module
 * and its namesake entity ("Products" › "Products") would each give a crumb. Pure.
 */

export interface Crumb {
  label: string;
  href?: string;
}

/**
 * Drops a crumb whose label repeats the one before it, keeping the link of the deeper one
 * (the page that lists the records), or the first's when only it has one.
 *
 * @example
 * withoutRepeats([{ label: "Products" }, { label: "Products", href: "/products/products" }, { label: "Show" }]);
 * // [{ label: "Products", href: "/products/products" }, { label: "Show" }]
 */
export function withoutRepeats<T extends Crumb>(trail: readonly T[]): T[] {
  const out: T[] = [];
  for (const crumb of trail) {
    const last = out.at(-1);
    if (last && last.label.trim().toLowerCase() === crumb.label.trim().toLowerCase()) {
      out[out.length - 1] = crumb.href ? crumb : { ...crumb, href: last.href };
    } else out.push(crumb);
  }
  return out;
}
