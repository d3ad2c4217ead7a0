import { describe, expect, it } from "vitest";
import { totalLabel } from "./total-label";

describe("totalLabel", () => {
  it("says an exact total as it is", () => {
    expect(totalLabel(1, true, "product", "products")).toBe("1 product");
    expect(totalLabel(12345, true, "product", "products")).toBe("12,345 products");
  });
  it("rounds an estimate and says so", () => {
    expect(totalLabel(33193, false, "product", "products")).toBe("about 33,200 products");
  });
});
