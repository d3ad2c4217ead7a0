import { describe, expect, it } from "vitest";
import { formatAmount } from "./board-money";

describe("board amounts", () => {
  it("writes whole amounts without decimals and others with, in the reader's locale", () => {
    expect(formatAmount(125000, "INR", "full", "en-IN")).toBe("₹1,25,000");
    expect(formatAmount(1250.5, "INR", "full", "en-IN")).toBe("₹1,250.50");
    expect(formatAmount(1250.5, "USD", "full", "en-US")).toBe("$1,250.50");
    expect(formatAmount(1000, "EUR", "full", "de-DE")).toBe("1.000\u00a0€");
  });

  it("writes totals compact, lakhs in India", () => {
    expect(formatAmount(1250000, "INR", "compact", "en-IN")).toBe("₹12.5L");
    expect(formatAmount(1250000, "USD", "compact", "en-US")).toBe("$1.3M");
  });

  it("falls back to INR, and to the code after the number for a code Intl does not know", () => {
    expect(formatAmount(10, "", "full", "en-IN")).toBe("₹10");
    expect(formatAmount(10, "XX1", "full", "en-US")).toBe("10 XX1");
  });
});
