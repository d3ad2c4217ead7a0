import { describe, expect, it } from "vitest";
import { toMinor } from "./money";
import { computeProposal, type ProposalInput, spreadDiscount } from "./proposal-money";

const totals = (input: ProposalInput) => {
  const result = computeProposal(input);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.totals;
};
const problems = (input: ProposalInput) => {
  const result = computeProposal(input);
  return result.ok ? [] : result.problems;
};

describe("toMinor", () => {
  it("reads a price as the decimal it is written as", () => {
    expect(toMinor(0.29, "INR")).toBe(29);
    expect(toMinor(1.13, "INR")).toBe(113);
    expect(toMinor(4.35, "USD")).toBe(435);
    expect(toMinor(1e-2, "INR")).toBe(1);
    expect(toMinor(1200, "JPY")).toBe(1200);
  });

  it("refuses more decimals than the currency has, and what is not a number", () => {
    expect(toMinor(1.005, "INR")).toBeNull();
    expect(toMinor(12.5, "JPY")).toBeNull();
    expect(toMinor(Number.NaN, "INR")).toBeNull();
    expect(toMinor(Number.POSITIVE_INFINITY, "INR")).toBeNull();
  });
});

describe("computeProposal", () => {
  it("option 3: list prices, line by line, in paise", () => {
    const t = totals({
      currency: "INR",
      option: 3,
      lines: [
        { unitPrice: 0.29, quantity: 3 },
        { unitPrice: 1999.99, quantity: 2 },
      ],
    });
    expect(t.lines.map((l) => l.netMinor)).toEqual([87, 399998]);
    expect(t).toMatchObject({ subtotalMinor: 400085, discountMinor: 0, totalMinor: 400085 });
  });

  it("option 1: each line's discount rounded half up on its own (a half paisa goes up)", () => {
    const t = totals({
      currency: "INR",
      option: 1,
      lines: [
        // 10 % of ₹10.05 is 100.5 paise: 101.
        { unitPrice: 10.05, quantity: 1, discount: { kind: "percent", value: 10 } },
        // 12.5 % of ₹0.04 is 0.5 paise: 1.
        { unitPrice: 0.04, quantity: 1, discount: { kind: "percent", value: 12.5 } },
        // 0.5 % of ₹1.01 is 0.505 paise: 1.
        { unitPrice: 1.01, quantity: 1, discount: { kind: "percent", value: 0.5 } },
        // An amount off the line, not off each unit.
        { unitPrice: 5, quantity: 4, discount: { kind: "amount", value: 2.5 } },
        // 100 %: free.
        { unitPrice: 99.99, quantity: 7, discount: { kind: "percent", value: 100 } },
      ],
    });
    expect(t.lines.map((l) => l.discountMinor)).toEqual([101, 1, 1, 250, 69993]);
    expect(t.lines.map((l) => l.netMinor)).toEqual([904, 3, 100, 1750, 0]);
    expect(t.subtotalMinor).toBe(904 + 3 + 100 + 1750);
    expect(t.totalMinor).toBe(t.subtotalMinor);
    expect(t.discountMinor).toBe(101 + 1 + 1 + 250 + 69993);
  });

  it("option 2: the total's discount rounded half up once, after the lines", () => {
    const t = totals({
      currency: "INR",
      option: 2,
      lines: [
        { unitPrice: 0.01, quantity: 1 },
        { unitPrice: 0.02, quantity: 1 },
      ],
      // 50 % of 3 paise is 1.5: 2 (per line it would have been 1 + 1, also 2; 1/3 each would not).
      totalDiscount: { kind: "percent", value: 50 },
    });
    expect(t).toMatchObject({ subtotalMinor: 3, totalDiscountMinor: 2, totalMinor: 1 });
    const whole = totals({
      currency: "INR",
      option: 2,
      lines: [{ unitPrice: 12.34, quantity: 3 }],
      totalDiscount: { kind: "percent", value: 100 },
    });
    expect(whole.totalMinor).toBe(0);
    const amount = totals({
      currency: "USD",
      option: 2,
      lines: [{ unitPrice: 10, quantity: 1 }],
      totalDiscount: { kind: "amount", value: 10 },
    });
    expect(amount.totalMinor).toBe(0);
  });

  it("yen have no minor unit: a half yen rounds up", () => {
    const t = totals({
      currency: "JPY",
      option: 1,
      lines: [{ unitPrice: 1005, quantity: 3, discount: { kind: "percent", value: 10 } }],
    });
    expect(t.lines[0]).toMatchObject({ grossMinor: 3015, discountMinor: 302, netMinor: 2713 });
  });

  it("refuses, per field, what cannot be priced", () => {
    expect(problems({ currency: "INR", option: 3, lines: [{ unitPrice: 10, quantity: 0 }] })).toEqual([
      { field: "lines.0.quantity", message: "must be a whole number from 1 to 1,000,000" },
    ]);
    expect(
      problems({
        currency: "INR",
        option: 3,
        lines: [
          { unitPrice: 1.005, quantity: 1 },
          { unitPrice: 2, quantity: 1.5 },
          { unitPrice: 2, quantity: 1, discount: { kind: "percent", value: 5 } },
        ],
        totalDiscount: { kind: "amount", value: 1 },
      }),
    ).toEqual([
      { field: "lines.0.unitPrice", message: "must be a price of at least 0" },
      { field: "lines.1.quantity", message: "must be a whole number from 1 to 1,000,000" },
      { field: "lines.2.discount", message: "is only for the Product discount option" },
      { field: "totalDiscount", message: "is only for the Total discount option" },
    ]);
    expect(
      problems({
        currency: "INR",
        option: 1,
        lines: [
          { unitPrice: 2, quantity: 1, discount: { kind: "amount", value: 2.01 } },
          { unitPrice: 2, quantity: 1, discount: { kind: "percent", value: 100.5 } },
          { unitPrice: 2, quantity: 1, discount: { kind: "percent", value: -1 } },
        ],
      }).map((p) => p.field),
    ).toEqual(["lines.0.discount.value", "lines.1.discount.value", "lines.2.discount.value"]);
    expect(
      problems({
        currency: "INR",
        option: 2,
        lines: [{ unitPrice: 2, quantity: 1 }],
        totalDiscount: { kind: "amount", value: 3 },
      }),
    ).toEqual([{ field: "totalDiscount.value", message: "must not be more than the subtotal" }]);
  });
});

describe("spreadDiscount", () => {
  it("gives each line its part, the paise left to the largest remainders, adding up exactly", () => {
    expect(spreadDiscount(100, [1000, 1000, 1000])).toEqual([34, 33, 33]);
    expect(spreadDiscount(10, [1, 2, 7])).toEqual([1, 2, 7]);
    expect(spreadDiscount(5, [333, 333, 334])).toEqual([2, 1, 2]);
    expect(spreadDiscount(0, [5, 5])).toEqual([0, 0]);
    expect(spreadDiscount(7, [0, 0])).toEqual([0, 0]);
  });

  it("never gives a line more than its value, and always adds up (random cases)", () => {
    let seed = 42;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 2000; round++) {
      const values = Array.from({ length: 1 + next(8) }, () => next(100_000));
      const total = values.reduce((s, v) => s + v, 0);
      const amount = next(total + 1);
      const shares = spreadDiscount(amount, values);
      expect(shares.reduce((s, v) => s + v, 0)).toBe(total ? amount : 0);
      for (const [i, share] of shares.entries()) expect(share).toBeLessThanOrEqual(values[i]);
    }
  });
});
