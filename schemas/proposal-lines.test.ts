import { describe, expect, it } from "vitest";
import { formatMinor } from "./money";
import { type ProposalLine, problemInWords, proposalTotals } from "./proposal-lines";

const line = (
  unit_price: number,
  quantity: number,
  discount?: ["percent" | "amount", number],
): ProposalLine => ({
  product_id: null,
  sku: "SKU-1",
  name: "Lamp",
  unit_price,
  quantity,
  discount_kind: discount?.[0] ?? null,
  discount_value: discount?.[1] ?? null,
});

describe("proposalTotals", () => {
  it("uses line discounts only with Product discount, the total discount only with Total discount", () => {
    const lines = [line(10, 3, ["percent", 10])];
    const product = proposalTotals(
      { currency: "INR", discount_option: 1, total_discount_kind: "percent", total_discount_value: 50 },
      lines,
    );
    expect(product.ok && product.totals.totalMinor).toBe(2700);
    const total = proposalTotals(
      { currency: "INR", discount_option: 2, total_discount_kind: "percent", total_discount_value: 50 },
      lines,
    );
    expect(total.ok && total.totals.totalMinor).toBe(1500);
    const none = proposalTotals(
      { currency: "INR", discount_option: 3, total_discount_kind: "percent", total_discount_value: 50 },
      lines,
    );
    expect(none.ok && none.totals.totalMinor).toBe(3000);
  });

  it("lets a new proposal name a total discount amount before any line, and puts problems on the record's fields", () => {
    const money = {
      currency: "INR",
      discount_option: 2,
      total_discount_kind: "amount",
      total_discount_value: 5,
    } as const;
    expect(proposalTotals(money, []).ok).toBe(true);
    const over = proposalTotals(money, [line(1, 1)]);
    expect(over).toEqual({
      ok: false,
      problems: [{ field: "total_discount_value", message: "must not be more than the subtotal" }],
    });
  });
});

describe("problemInWords", () => {
  it("names the line and the part, or the total discount", () => {
    expect(
      problemInWords({ field: "lines.1.quantity", message: "must be a whole number from 1 to 1,000,000" }),
    ).toEqual({
      field: "lines.1.quantity",
      message: "Line 2's quantity must be a whole number from 1 to 1,000,000",
    });
    expect(
      problemInWords({ field: "lines.0.discount.value", message: "must not be more than the line's price" })
        .message,
    ).toBe("Line 1's discount must not be more than the line's price");
    expect(
      problemInWords({ field: "total_discount_value", message: "must not be more than the subtotal" })
        .message,
    ).toBe("The total discount must not be more than the subtotal");
    const words = "Lamp (L-1) is priced in USD, and this proposal is in INR: a proposal has one currency";
    expect(problemInWords({ field: "lines.0.product_id", message: words }).message).toBe(words);
  });
});

describe("formatMinor", () => {
  it("writes minor units with the currency's decimals and thousands", () => {
    expect(formatMinor(123456, "INR")).toBe("INR 1,234.56");
    expect(formatMinor(5, "INR")).toBe("INR 0.05");
    expect(formatMinor(0, "USD")).toBe("USD 0.00");
    expect(formatMinor(1200, "JPY")).toBe("JPY 1,200");
    expect(formatMinor(100000000, "INR")).toBe("INR 1,000,000.00");
  });
});
