import { describe, expect, it } from "vitest";
import { type Board, boardTotalOf } from "../../schemas/crm-board";
import {
  decimalOf,
  fixedText,
  formatMinor,
  formatMinorMoney,
  formatMoney,
  formatPercent,
  fromMinor,
  minorText,
  percentOfMinor,
  roundedMinor,
  roundHalfUp,
  sumMinor,
  toMinor,
} from "../../schemas/money";
import { computeProposal } from "../../schemas/proposal-money";
import { minorOf } from "../../server/modules/store/carts";
import { catalogueMoney } from "../../server/modules/store/store-items";
import { formatCell } from "../../server/resources/csv/cells";
import { boardTotals, moveCard, toBoardState, withCard } from "../../src/pages/crm/board-state";
import { lineTotal, totalsByCurrency } from "../../src/viewer/cart";

/** Every half-minor-unit tie from 0.00 to 10,000.00: t + ½ minor units, t = 0 … 999,999. */
const TIES = 1_000_000;

/** The tie t + ½ paise as the amount a store or a file writes: "12.345". */
const tieText = (t: number) => `${minorText(t, 2)}5`;

/** Runs `check` over every tie and answers the first few where it was wrong (none expected). */
function sweep(check: (t: number) => boolean): number[] {
  const wrong: number[] = [];
  for (let t = 0; t < TIES && wrong.length < 5; t++) if (!check(t)) wrong.push(t);
  return wrong;
}

describe("the one rounding rule: half up, on integers", () => {
  it("rounds halves up and the rest to the nearest", () => {
    expect(roundHalfUp(29n, 2n)).toBe(15n);
    expect(roundHalfUp(28n, 2n)).toBe(14n);
    expect(roundHalfUp(149n, 100n)).toBe(1n);
    expect(roundHalfUp(150n, 100n)).toBe(2n);
    expect(roundHalfUp(-29n, 2n)).toBe(-15n);
  });

  it("reads numbers and decimal text exactly", () => {
    expect(decimalOf(0.29)).toEqual({ digits: 29n, scale: 2 });
    expect(decimalOf("1.50")).toEqual({ digits: 150n, scale: 2 });
    expect(decimalOf(1.5e-7)).toEqual({ digits: 15n, scale: 8 });
    expect(decimalOf(1e21)).toEqual({ digits: 10n ** 21n, scale: 0 });
    expect(decimalOf("-0.5")).toEqual({ digits: -5n, scale: 1 });
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, "abc", "", ".", "1.2.3"])
      expect(decimalOf(bad)).toBeNull();
  });

  it("gives the issue's three board examples as half up says", () => {
    expect(percentOfMinor(29, 50)).toBe(15);
    expect(percentOfMinor(5, 10)).toBe(1);
    expect(percentOfMinor(10, 25)).toBe(3);
    expect(boardTotalOf("INR", 29, 50)).toEqual({ currency: "INR", value: 0.29, weighted: 0.15 });
    expect(boardTotalOf("INR", 5, 10).weighted).toBe(0.01);
    expect(boardTotalOf("INR", 10, 25).weighted).toBe(0.03);
  });

  it("keeps what a person entered exact, refusing a decimal too many", () => {
    expect(toMinor(0.29, "INR")).toBe(29);
    expect(toMinor("12.30", "INR")).toBe(1230);
    expect(toMinor(1.005, "INR")).toBeNull();
    expect(toMinor(12.5, "JPY")).toBeNull();
    expect(toMinor(1e16, "INR")).toBeNull();
    expect(fromMinor(1234, "INR")).toBe(12.34);
    expect(fromMinor(1234, "JPY")).toBe(1234);
    expect(sumMinor([1, 2, 3])).toBe(6);
  });
});

// A million ties per computation: a few seconds on a busy machine, so a generous deadline.
describe("every half-minor-unit tie from 0.00 to 10,000.00 goes up, in each computation", {
  timeout: 120_000,
}, () => {
  it("a store's amount in minor units (carts, checkout): minorOf", () => {
    expect(sweep((t) => minorOf(Number(tieText(t)), "INR") === t + 1)).toEqual([]);
    // As text too (SQL's numeric, a store's string), through the module's own reading.
    expect(sweep((t) => roundedMinor(tieText(t), "USD") === t + 1)).toEqual([]);
  });

  it("a store's price in the catalogue (store sync): catalogueMoney", () => {
    expect(sweep((t) => catalogueMoney(Number(tieText(t))) === fromMinor(t + 1, "INR"))).toEqual([]);
  });

  it("a weighted value (the board, server and screen): boardTotalOf", () => {
    // (2t + 1) hundredths at 50 % is t + ½.
    expect(sweep((t) => boardTotalOf("INR", 2 * t + 1, 50).weighted === fromMinor(t + 1, "INR"))).toEqual([]);
    // At 10 % the ties are the values ending in 5 hundredths: (10t + 5) × 10 % = t + ½.
    expect(sweep((t) => percentOfMinor(10 * t + 5, 10) === t + 1)).toEqual([]);
  });

  it("a column's figures after a card moves on the screen: withCard (moveCard, removeCard)", () => {
    const column = {
      stage: "b",
      label: "B",
      probability: 50,
      color: null,
      retired: false,
      count: 0,
      totals: [],
    };
    const card = {
      id: "c",
      title: "Deal",
      stage: "a",
      currency: "INR",
      client_id: "x",
      client_name: "X",
      client_company: null,
      owner_id: null,
      expected_close: null,
      position: 0,
    };
    const wrong = sweep((t) => {
      const value = fromMinor(2 * t + 1, "INR");
      const figures = withCard(column, { ...card, value }, 1).totals[0];
      return figures.weighted === fromMinor(t + 1, "INR") && figures.value === value;
    });
    expect(wrong).toEqual([]);
    // And through the move itself, at the example.
    const board: Board = {
      columns: [
        {
          ...column,
          stage: "a",
          probability: 10,
          count: 1,
          totals: [{ currency: "INR", value: 0.29, weighted: 0.03 }],
        },
        column,
      ],
      cards: [{ ...card, value: 0.29 }],
      owners: [],
      truncated: false,
    };
    const moved = moveCard(toBoardState(board), "c", "b", 0);
    expect(moved.columns[0].totals).toEqual([]);
    expect(moved.columns[1].totals).toEqual([{ currency: "INR", value: 0.29, weighted: 0.15 }]);
    expect(boardTotals(moved.columns).totals).toEqual([{ currency: "INR", value: 0.29, weighted: 0.15 }]);
  });

  it("a percentage discount (proposals, line and total): computeProposal", () => {
    const wrong = sweep((t) => {
      const unitPrice = fromMinor(2 * t + 1, "INR");
      // A line's discount on even ties, the total discount on odd ones (one proposal a tie).
      const computed =
        t % 2
          ? computeProposal({
              currency: "INR",
              option: 2,
              lines: [{ unitPrice, quantity: 1 }],
              totalDiscount: { kind: "percent", value: 50 },
            })
          : computeProposal({
              currency: "INR",
              option: 1,
              lines: [{ unitPrice, quantity: 1, discount: { kind: "percent", value: 50 } }],
            });
      return computed.ok && computed.totals.discountMinor === t + 1 && computed.totals.totalMinor === t;
    });
    expect(wrong).toEqual([]);
  });

  it("an amount written with two decimals (CSV export's money cells): formatCell", () => {
    const money = { type: "number", multipleOf: 0.01 } as const;
    expect(sweep((t) => formatCell(money, Number(tieText(t))) === minorText(t + 1, 2))).toEqual([]);
    expect(fixedText(1.005, 2)).toBe("1.01");
  });
});

describe("sums are exact", () => {
  it("adds a viewer's cart in hundredths", () => {
    const line = { productId: "p", name: "P", sku: "P", image: null, currency: "INR" };
    expect(lineTotal({ ...line, price: 0.29, quantity: 3 })).toBe(0.87);
    const cart = [
      { ...line, price: 0.1, quantity: 1 },
      { ...line, productId: "q", price: 0.2, quantity: 1 },
    ];
    expect(totalsByCurrency(cart)).toEqual([{ currency: "INR", total: 0.3 }]);
  });

  it("adds the board's columns without drift", () => {
    const column = (stage: string, value: number, weighted: number) => ({
      stage,
      label: stage,
      probability: 10,
      color: null,
      retired: false,
      count: 1,
      totals: [{ currency: "INR", value, weighted }],
    });
    const columns = Array.from({ length: 10 }, (_, i) => column(`s${i}`, 0.1, 0.01));
    expect(boardTotals(columns).totals).toEqual([{ currency: "INR", value: 1, weighted: 0.1 }]);
  });
});

describe("one formatter", () => {
  it("writes minor units as text with the code, for PDFs and mails", () => {
    expect(formatMinor(123456, "INR")).toBe("INR 1,234.56");
    expect(formatMinor(1200, "JPY")).toBe("JPY 1,200");
    expect(formatMinor(5, "INR")).toBe("INR 0.05");
    expect(formatMinor(-5, "INR")).toBe("INR -0.05");
  });

  it("formats for screens with Intl, India's grouping for INR", () => {
    expect(formatMoney(1234.5, "INR")).toBe("₹1,234.50");
    expect(formatMoney(125000, "INR")).toBe("₹1,25,000.00");
    expect(formatMoney(125000, "INR", { style: "short" })).toBe("₹1,25,000");
    expect(formatMoney(1250.5, "INR", { style: "short" })).toBe("₹1,250.50");
    expect(formatMoney(1250.5, "USD", { style: "short", locale: "en-US" })).toBe("$1,250.50");
    expect(formatMoney(1000, "EUR", { style: "short", locale: "de-DE" })).toBe("1.000\u00a0€");
    expect(formatMoney(99.98, "USD", { locale: "en-US" })).toBe("$99.98");
    expect(formatMinorMoney(123456, "INR")).toBe("₹1,234.56");
    expect(formatMinorMoney(1200, "JPY", { locale: "en-US" })).toBe("¥1,200");
  });

  it("formats from the exact decimal: a half is not lost to binary", () => {
    expect(formatMoney(1.005, "INR")).toBe("₹1.01");
    expect(formatMoney("2.675", "USD", { locale: "en-US" })).toBe("$2.68");
  });

  it("writes headers compact, lakhs in India", () => {
    expect(formatMoney(1250000, "INR", { style: "compact" })).toBe("₹12.5L");
    expect(formatMoney(1250000, "USD", { style: "compact", locale: "en-US" })).toBe("$1.3M");
  });

  it("falls back to INR, and to the code after the number for a code Intl does not know", () => {
    expect(formatMoney(10, "", { style: "short" })).toBe("₹10");
    expect(formatMoney(5, undefined)).toBe("₹5.00");
    expect(formatMoney(10, "XX1", { style: "short", locale: "en-US" })).toBe("10 XX1");
    expect(formatMoney(5, "NOT-A-CODE", { locale: "en-US" })).toBe("5.00 NOT-A-CODE");
  });
});

describe("one percentage formatter", () => {
  it("writes hundredths as a percentage, from the exact decimal, India's grouping", () => {
    expect(formatPercent(10)).toBe("10%");
    expect(formatPercent(12.5)).toBe("12.5%");
    expect(formatPercent("33.335")).toBe("33.34%");
    expect(formatPercent(0.29)).toBe("0.29%");
    expect(formatPercent(125000)).toBe("1,25,000%");
  });

  it("writes a rate between 0 and 1 as a percentage, to the decimals asked", () => {
    expect(formatPercent(0.125, { fraction: true, decimals: 1 })).toBe("12.5%");
    expect(formatPercent(1 / 3, { fraction: true, decimals: 1 })).toBe("33.3%");
    expect(formatPercent(0.07, { fraction: true })).toBe("7%");
  });
});
