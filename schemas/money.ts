/**
 * The product's one money module: every amount it computes (board and weighted totals,
 * opportunity values, proposals, carts, store sync, CSV cells, merge fields) is read, rounded,
 * summed and written here. Pure, used by the server and the browser alike, so both show the
 * same paisa. The suite's check (tests/unit/money-rounding.test.ts) fails on floating-point
 * rounding of money anywhere else.
 *
 * Money is integer minor units (paise, cents; yen have none). An amount is read from the
 * decimal it is written as (its shortest round-trip text: what a person typed, what JSON and
 * SQL carried), never multiplied as a binary float: 0.29 * 100 is 28.999999999999996.
 *
 * ONE ROUNDING RULE: round half up — a half goes to the larger amount (₹0.145 → ₹0.15; a
 * negative amount, which no total has, mirrors it: half away from zero). It is applied once,
 * where a fraction of a minor unit appears (a percentage of an amount, a store's price with
 * more decimals than its currency), on exact integers (BigInt), never on a float.
 */
import type { CURRENCIES } from "./products";

export type Currency = (typeof CURRENCIES)[number];

/** The currency an amount without one is in (spec: INR). */
export const DEFAULT_CURRENCY = "INR";

/** Digits after the decimal point of each currency's minor unit (ISO 4217). */
export const MINOR_DIGITS: Readonly<Record<Currency, number>> = {
  INR: 2,
  USD: 2,
  EUR: 2,
  GBP: 2,
  AED: 2,
  SGD: 2,
  AUD: 2,
  CAD: 2,
  JPY: 0,
};

/** Minor digits of any currency code: as MINOR_DIGITS lists it, 2 for one it does not list. */
export const minorDigitsOf = (currency: string): number =>
  (MINOR_DIGITS as Readonly<Record<string, number>>)[currency] ?? 2;

/**
 * Catalogue prices and opportunity values are kept to hundredths in every currency (their
 * schemas say `multipleOf: 0.01`, their columns `numeric(…, 2)`): figures made of them (a
 * viewer's cart, the board's totals) are counted in hundredths, whatever the currency.
 */
export const PRICE_PLACES = 2;

/** Largest amount handled, in minor units: far below 2^53, so sums of many stay exact. */
export const MAX_MINOR = 10 ** 15;

/** An exact decimal: `digits / 10^scale`. */
export interface Decimal {
  digits: bigint;
  scale: number;
}

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/** A decimal as written: its sign, its digits (no sign, no point) and the power of ten after them. */
interface Parts {
  negative: boolean;
  digits: string;
  shift: number;
}

function partsOf(value: number | string): Parts | null {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    // The common case, a number without an exponent, without the regular expression.
    const text = String(value);
    if (!text.includes("e")) {
      const negative = text.startsWith("-");
      const plain = negative ? text.slice(1) : text;
      const point = plain.indexOf(".");
      if (point < 0) return { negative, digits: plain, shift: 0 };
      return {
        negative,
        digits: plain.slice(0, point) + plain.slice(point + 1),
        shift: point + 1 - plain.length,
      };
    }
  }
  const match = DECIMAL_TEXT.exec(typeof value === "number" ? String(value) : value.trim());
  if (!match || (match[2] === "" && !match[3])) return null;
  const [, sign, whole, fraction = "", exp = "0"] = match;
  const shift = Number(exp) - fraction.length;
  if (Math.abs(shift) > 400) return null;
  return { negative: sign === "-", digits: `${whole}${fraction}` || "0", shift };
}

/**
 * A number as the exact decimal it is written as (12.34, 1e-7), or a decimal string as SQL
 * and stores send it ("12.340", "-0.5"); null for anything else (NaN, Infinity, "abc").
 *
 * @example
 * decimalOf(0.29); // { digits: 29n, scale: 2 }
 * decimalOf("1.50"); // { digits: 150n, scale: 2 }
 */
export function decimalOf(value: number | string): Decimal | null {
  const p = partsOf(value);
  if (!p) return null;
  const digits = p.negative ? -BigInt(p.digits) : BigInt(p.digits);
  return p.shift >= 0 ? { digits: digits * 10n ** BigInt(p.shift), scale: 0 } : { digits, scale: -p.shift };
}

/**
 * round(n / d), halves up (away from zero for a negative n), for d > 0: the one rounding rule.
 *
 * @example
 * roundHalfUp(29n, 2n); // 15n
 * roundHalfUp(-29n, 2n); // -15n
 */
export function roundHalfUp(n: bigint, d: bigint): bigint {
  if (n < 0n) return -roundHalfUp(-n, d);
  return (2n * n + d) / (2n * d);
}

/**
 * roundHalfUp on integers below 2^53 as numbers (n ≥ 0), null past them: `%` and `/` of such
 * integers are exact, and a sweep over a million amounts runs without a BigInt each.
 */
function roundHalfUpSafe(n: number, d: number): number | null {
  const q = 2 * n + d;
  const m = 2 * d;
  return Number.isSafeInteger(q) && Number.isSafeInteger(m) ? (q - (q % m)) / m : null;
}

/** A bigint of minor units as a number, or null past MAX_MINOR. */
const bounded = (minor: bigint): number | null =>
  minor > BigInt(MAX_MINOR) || minor < -BigInt(MAX_MINOR) ? null : Number(minor);

/** A decimal's count of 10^-places, rounded half up when it has more decimals; null past MAX_MINOR. */
function scaled(p: Parts, places: number): number | null {
  const up = p.shift + places;
  if (p.digits.length <= 15 && up >= -15 && up <= 15) {
    const n = Number(p.digits);
    const m = up >= 0 ? n * 10 ** up : roundHalfUpSafe(n, 10 ** -up);
    if (m !== null && Number.isSafeInteger(m)) return m > MAX_MINOR ? null : p.negative ? -m : m;
  }
  const digits = BigInt(p.digits);
  const m = up >= 0 ? digits * 10n ** BigInt(up) : roundHalfUp(digits, 10n ** BigInt(-up));
  return bounded(p.negative ? -m : m);
}

/**
 * An amount in major units as minor units, exactly; null when it has more decimals than the
 * currency has (₹1.005) or is not a number. For what a person entered: nothing is rounded.
 *
 * @example
 * toMinor(12.34, "INR"); // 1234
 * toMinor(0.29, "INR"); // 29
 * toMinor(12.5, "JPY"); // null
 */
export function toMinor(value: number | string, currency: string): number | null {
  const p = partsOf(value);
  const places = minorDigitsOf(currency);
  if (!p) return null;
  // Decimals past the currency's must all be zeros ("12.50" is ₹12.50; 1.005 is no amount).
  const extra = -p.shift - places;
  if (extra > 0 && !/^0*$/.test(p.digits.slice(-extra))) return null;
  return scaled(p, places);
}

/**
 * An amount at `places` decimals as an integer count of 10^-places (minor units when `places`
 * is the currency's digits), rounded half up when it has more; null when it is not a number or
 * is too large. For amounts others computed (a store's price "12.345").
 *
 * @example
 * minorAt(0.145, 2); // 15
 * minorAt("1.005", 2); // 101
 * minorAt(12.5, 0); // 13
 */
export function minorAt(value: number | string, places: number): number | null {
  const p = partsOf(value);
  return p ? scaled(p, places) : null;
}

/** A store's or another system's amount in `currency`'s minor units, rounded half up. */
export const roundedMinor = (value: number | string, currency: string): number | null =>
  minorAt(value, minorDigitsOf(currency));

/**
 * Minor units (at `places` decimals) as the decimal text of the major amount, exactly.
 *
 * @example
 * minorText(123456, 2); // "1234.56"
 * minorText(-5, 2); // "-0.05"
 * minorText(1200, 0); // "1200"
 */
export function minorText(minor: number, places: number): string {
  const sign = minor < 0 ? "-" : "";
  const text = String(Math.abs(Math.trunc(minor))).padStart(places + 1, "0");
  return places ? `${sign}${text.slice(0, -places)}.${text.slice(-places)}` : `${sign}${text}`;
}

/**
 * Minor units as the major amount they stand for, for a number field of the API, a column and
 * a store's API (1234 → 12.34): the number whose text is that decimal.
 */
export function fromMinor(minor: number, currency: string): number {
  return Number(minorText(minor, minorDigitsOf(currency)));
}

/** An integer count of 10^-places as the number it stands for (1234 at 2 places → 12.34). */
export const fromPlaces = (minor: number, places: number): number => Number(minorText(minor, places));

/** An amount rounded half up to `places` decimals, as a number (a store's 12.345 → 12.35). */
export function roundMajor(value: number | string, places: number): number | null {
  const minor = minorAt(value, places);
  return minor === null ? null : Number(minorText(minor, places));
}

/**
 * An amount's text with exactly `places` decimals, rounded half up (a CSV cell "49.90").
 *
 * @example
 * fixedText(1.005, 2); // "1.01" (1.005.toFixed(2) is "1.00")
 */
export function fixedText(value: number, places: number): string {
  const minor = minorAt(value, places);
  return minor === null ? String(value) : minorText(minor, places);
}

/**
 * `percent` % of `minor` minor units, rounded half up: a weighted value (a stage's win
 * probability) or a percentage discount. `percent` may have decimals (12.5); it is read as
 * the decimal it is written as. Null when it is not a number.
 *
 * @example
 * percentOfMinor(29, 50); // 15 (₹0.29 at 50 % is ₹0.145 → ₹0.15)
 * percentOfMinor(5, 10); // 1
 * percentOfMinor(10, 25); // 3
 */
export function percentOfMinor(minor: number, percent: number): number | null {
  const p = partsOf(percent);
  if (!p || !Number.isSafeInteger(minor)) return null;
  const scale = Math.max(0, -p.shift);
  if (p.digits.length <= 15 && scale <= 12) {
    const pct = Number(p.digits) * 10 ** Math.max(0, p.shift);
    const n = Math.abs(minor) * pct;
    const m = Number.isSafeInteger(n) ? roundHalfUpSafe(n, 100 * 10 ** scale) : null;
    if (m !== null) return m > MAX_MINOR ? null : minor < 0 !== p.negative && m !== 0 ? -m : m;
  }
  const d = decimalOf(percent) as Decimal;
  return bounded(roundHalfUp(BigInt(minor) * d.digits, 100n * 10n ** BigInt(d.scale)));
}

/**
 * The sum of minor amounts, exact: integers add exactly while the sum stays below 2^53; past
 * that it is added again as BigInt (not off by a unit, then as near as a number can say).
 */
export function sumMinor(amounts: readonly number[]): number {
  let sum = 0;
  for (const a of amounts) sum += a;
  if (Number.isSafeInteger(sum)) return sum;
  let big = 0n;
  for (const a of amounts) big += BigInt(a);
  return Number(big);
}

/**
 * Minor units written as a person reads them, with the currency's code (plain text: PDF fonts
 * and mails have no ₹ everywhere).
 *
 * @example
 * formatMinor(123456, "INR"); // "INR 1,234.56"
 * formatMinor(1200, "JPY"); // "JPY 1,200"
 */
export function formatMinor(minor: number, currency: string): string {
  const text = minorText(minor, minorDigitsOf(currency));
  const [whole, fraction] = text.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${currency} ${fraction === undefined ? grouped : `${grouped}.${fraction}`}`;
}

/**
 * How an amount is shown on a screen: "full" with the currency's decimals (₹1,299.00), "short"
 * without them when it has none (a board card's ₹1,25,000), "compact" for headers ("₹12.5L").
 */
export type MoneyStyle = "full" | "short" | "compact";

/** The locale amounts in `currency` are written in: India's grouping for INR, else the reader's. */
export const moneyLocaleOf = (currency: string): string | undefined =>
  currency === "INR" ? "en-IN" : undefined;

const formatters = new Map<string, { format: (n: `${number}`) => string }>();

function formatterOf(currency: string, style: "full" | "whole" | "compact", locale?: string) {
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
      if (style === "full") rest.minimumFractionDigits = minorDigitsOf(currency);
      const plain = new Intl.NumberFormat(locale, rest);
      found = { format: (n) => `${plain.format(n)} ${currency}` };
    }
    if (formatters.size < 500) formatters.set(key, found);
  }
  return found;
}

/**
 * An amount (major units, as the API's number fields carry it) in its currency, for a screen:
 * Intl's currency format in `locale` (default: moneyLocaleOf), formatted from its exact decimal
 * text. An unknown code is written after the number; no currency means DEFAULT_CURRENCY.
 *
 * @example
 * formatMoney(1250.5, "INR"); // "₹1,250.50"
 * formatMoney(125000, "INR"); // "₹1,25,000.00"
 * formatMoney(125000, "INR", { style: "short" }); // "₹1,25,000"
 * formatMoney(1250000, "INR", { style: "compact" }); // "₹12.5L"
 */
export function formatMoney(
  amount: number | string,
  currency?: string | null,
  options: { style?: MoneyStyle; locale?: string } = {},
): string {
  const code = currency || DEFAULT_CURRENCY;
  const d = decimalOf(amount);
  if (!d) return String(amount);
  const text = minorText(Number(d.digits), d.scale) as `${number}`;
  const locale = options.locale ?? moneyLocaleOf(code);
  const style = options.style ?? "full";
  if (style === "compact") return formatterOf(code, "compact", locale).format(text);
  const whole = style === "short" && d.digits % 10n ** BigInt(d.scale) === 0n;
  return formatterOf(code, whole ? "whole" : "full", locale).format(text);
}

/** Minor units in their currency, for a screen (formatMoney of the exact major amount). */
export function formatMinorMoney(
  minor: number,
  currency?: string | null,
  options: { style?: MoneyStyle; locale?: string } = {},
): string {
  const code = currency || DEFAULT_CURRENCY;
  return formatMoney(minorText(minor, minorDigitsOf(code)), code, options);
}

const percentFormatters = new Map<string, Intl.NumberFormat>();

/**
 * A percentage as a screen shows it, the one way the product writes one: Intl's percent format
 * in `en-IN` ("10%", "12.5%"), at most `decimals` decimals (default 2), from the exact decimal
 * text (12.5 stays 12.5, 0.29 is not 28.999…). `percent` is the number of hundredths (10 for
 * 10 %); a rate between 0 and 1 (a conversion rate) is given with `{ fraction: true }`.
 *
 * @example
 * formatPercent(10); // "10%"
 * formatPercent(12.5); // "12.5%"
 * formatPercent(0.125, { fraction: true, decimals: 1 }); // "12.5%"
 * formatPercent(1250); // "1,250%"
 */
export function formatPercent(
  percent: number | string,
  options: { fraction?: boolean; decimals?: number; locale?: string } = {},
): string {
  const d = decimalOf(percent);
  if (!d) return String(percent);
  const decimals = options.decimals ?? 2;
  const locale = options.locale ?? "en-IN";
  const key = `${locale}|${decimals}`;
  let format = percentFormatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: decimals });
    if (percentFormatters.size < 100) percentFormatters.set(key, format);
  }
  // Intl's percent style multiplies by 100: hand it the exact fraction (hundredths two places on).
  const text = minorText(Number(d.digits), d.scale + (options.fraction ? 0 : 2)) as `${number}`;
  return format.format(text);
}
