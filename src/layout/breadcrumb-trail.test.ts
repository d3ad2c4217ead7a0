import { describe, expect, it } from "vitest";
import { withoutRepeats } from "./breadcrumb-trail";

describe("breadcrumb trail", () => {
  it("shows a module and its namesake entity as one level, linking the list", () => {
    expect(
      withoutRepeats([
        { label: "Products" },
        { label: "Products", href: "/products/products" },
        { label: "Show" },
      ]),
    ).toEqual([{ label: "Products", href: "/products/products" }, { label: "Show" }]);
  });

  it("keeps the first level's link when only it has one, and distinct levels as they are", () => {
    expect(withoutRepeats([{ label: "PDF library", href: "/pdf" }, { label: "pdf library" }])).toEqual([
      { label: "pdf library", href: "/pdf" },
    ]);
    const trail = [{ label: "Products" }, { label: "Categories", href: "/products/categories" }];
    expect(withoutRepeats(trail)).toEqual(trail);
  });
});
