/**
 * Amounts on the board, in the reader's locale (the browser's language): a card's value whole
 * when it has no paise or cents, a column's totals compact ("₹12L" in India, "₹1.2M" in the
 * US). Formatters are made once per currency: a board redraws its cards as it scrolls.
 */
import { DEFAULT_CURRENCY } from "../../lib/constants";

type Style = "full" | "whole" | "compact";

const formatters = new Map<string, Intl.NumberFormat>();

function formatterOf(currency: string, style: Style, locale?: string): Intl.NumberFormat {
  const key = `${locale ?? ""}|${currency}|${style}`;
  let found = formatters.get(key);
  if (!found) {
    const options: Intl.NumberFormatOptions = { style: "currency", currency };
    if (style === "whole") options.maximumFractionDigits = 0;
    if (style === "compact") Object.assign(options, { notation: "compact", maximumFractionDigits: 1 });
    try {
      found = new Intl.NumberFormat(locale, options);
    } catch {
      // A code Intl does not know: the number, then the code.
      const { style: _, currency: __, ...rest } = options;
      const plain = new Intl.NumberFormat(locale, rest);
      found = { format: (n: number) => `${plain.format(n)} ${currency}` } as Intl.NumberFormat;
    }
    formatters.set(key, found);
  }
  return found;
}

/**
 * An amount in its currency: without decimals when it is whole, compact for headers.
 *
 * @example
 * formatAmount(125000, "INR", "full", "en-IN"); // "₹1,25,000"
 * formatAmount(1250.5, "INR", "full", "en-IN"); // "₹1,250.50"
 * formatAmount(1250000, "INR", "compact", "en-IN"); // "₹12.5L"
 */
export function formatAmount(
  amount: number,
  currency: string = DEFAULT_CURRENCY,
  style: "full" | "compact" = "full",
  locale?: string,
): string {
  const code = currency || DEFAULT_CURRENCY;
  if (style === "compact") return formatterOf(code, "compact", locale).format(amount);
  return formatterOf(code, Number.isInteger(amount) ? "whole" : "full", locale).format(amount);
}
