import { describe, expect, it } from "vitest";
import { cartItemsOf } from "./proposal-cart";
import { computeProposal, type ProposalInput } from "./proposal-money";

const totalsOf = (input: ProposalInput) => {
  const computed = computeProposal(input);
  if (!computed.ok) throw new Error(JSON.stringify(computed.problems));
  return computed.totals;
};
const sum = (items: { quantity: number; unitMinor: number }[]) =>
  items.reduce((s, i) => s + i.quantity * i.unitMinor, 0);

describe("cartItemsOf", () => {
  it("splits a line whose paise do not divide over its units", () => {
    const totals = totalsOf({
      currency: "INR",
      option: 1,
      lines: [{ unitPrice: 10, quantity: 3, discount: { kind: "amount", value: 1 } }],
    });
    expect(cartItemsOf(totals)).toEqual([
      { line: 0, quantity: 1, unitMinor: 966 },
      { line: 0, quantity: 2, unitMinor: 967 },
    ]);
  });

  it("spreads a total discount by value and adds up to the total exactly", () => {
    const totals = totalsOf({
      currency: "INR",
      option: 2,
      lines: [
        { unitPrice: 10, quantity: 1 },
        { unitPrice: 10, quantity: 1 },
        { unitPrice: 10, quantity: 1 },
      ],
      totalDiscount: { kind: "amount", value: 1 },
    });
    const items = cartItemsOf(totals);
    expect(items.map((i) => i.unitMinor)).toEqual([966, 967, 967]);
    expect(sum(items)).toBe(totals.totalMinor);
  });

  it("keeps list prices with no discount, and a 100 % discount gives free items", () => {
    const none = totalsOf({ currency: "JPY", option: 3, lines: [{ unitPrice: 1200, quantity: 2 }] });
    expect(cartItemsOf(none)).toEqual([{ line: 0, quantity: 2, unitMinor: 1200 }]);
    const free = totalsOf({
      currency: "INR",
      option: 2,
      lines: [{ unitPrice: 0.05, quantity: 7 }],
      totalDiscount: { kind: "percent", value: 100 },
    });
    expect(sum(cartItemsOf(free))).toBe(0);
  });

  it("adds up to the total on many random proposals", () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let k = 0; k < 500; k++) {
      const option = (1 + rand(3)) as 1 | 2 | 3;
      const lines = Array.from({ length: 1 + rand(6) }, () => ({
        unitPrice: rand(100000) / 100,
        quantity: 1 + rand(9),
        discount: option === 1 && rand(2) ? { kind: "percent" as const, value: rand(10001) / 100 } : null,
      }));
      const computed = computeProposal({
        currency: "INR",
        option,
        lines,
        totalDiscount: option === 2 ? { kind: "percent", value: rand(10001) / 100 } : null,
      });
      if (!computed.ok) continue;
      expect(sum(cartItemsOf(computed.totals))).toBe(computed.totals.totalMinor);
    }
  });
});
