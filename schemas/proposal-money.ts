/**
 * A proposal's money (issue 18; spec §9: discount options Product discount (1), Total discount
 * (2), No discount (3); default currency INR). Pure, used by the server (stored totals, the
 * cart) and the browser (the totals as a proposal is built), so both show the same paisa.
 *
 * Built on the money module (schemas/money.ts): integer minor units from the first step, and
 * its one rounding rule, round half up, applied once per line (its discount), then once on the
 * total (a total discount); totals are sums of rounded lines, so they never drift from what the
 * lines show. `subtotalMinor` is after the lines' own discounts; the list-price subtotal (what
 * a proposal record's `subtotal` holds) is listPriceMinor.
 *
 * A total discount handed to a cart (which knows only line prices) is spread over the lines by
 * their value, the paise left by the division going one each to the largest remainders
 * (spreadDiscount): the lines then add up to the proposal's total exactly.
 */
import { type Currency, MAX_MINOR, MINOR_DIGITS, percentOfMinor, sumMinor, toMinor } from "./money";

export const DISCOUNT_OPTIONS = { product: 1, total: 2, none: 3 } as const;
export type DiscountOption = (typeof DISCOUNT_OPTIONS)[keyof typeof DISCOUNT_OPTIONS];
export const DISCOUNT_OPTION_LABELS: Readonly<Record<DiscountOption, string>> = {
  1: "Product discount",
  2: "Total discount",
  3: "No discount",
};

export const DISCOUNT_KINDS = ["percent", "amount"] as const;
export type DiscountKind = (typeof DISCOUNT_KINDS)[number];

/** A discount as entered: a percentage (up to 100) or an amount in major units (₹12.50). */
export interface Discount {
  kind: DiscountKind;
  value: number;
}

export interface LineInput {
  /** The product's list price in major units, as stored (12.34). */
  unitPrice: number;
  quantity: number;
  /** Option 1 only: this line's discount (a percentage of the line, or an amount off it). */
  discount?: Discount | null;
}

export interface ProposalInput {
  currency: Currency;
  option: DiscountOption;
  lines: readonly LineInput[];
  /** Option 2 only: off the subtotal. */
  totalDiscount?: Discount | null;
}

export interface LineTotals {
  unitMinor: number;
  quantity: number;
  /** unit × quantity. */
  grossMinor: number;
  /** This line's own discount (option 1), rounded half up. */
  discountMinor: number;
  /** gross − discount. */
  netMinor: number;
}

export interface ProposalTotals {
  currency: Currency;
  option: DiscountOption;
  lines: LineTotals[];
  /** Sum of the lines' net amounts. */
  subtotalMinor: number;
  /** Option 2's discount off the subtotal, rounded half up (0 otherwise). */
  totalDiscountMinor: number;
  /** Every discount: the lines' and the total's. */
  discountMinor: number;
  totalMinor: number;
}

/** A problem with the input, on the field it is about (`lines.2.quantity`, `totalDiscount.value`). */
export interface MoneyProblem {
  field: string;
  message: string;
}

export type Computed = { ok: true; totals: ProposalTotals } | { ok: false; problems: MoneyProblem[] };

/** A discount of `base` minor units, rounded half up; or a problem on `field`. */
function discountOf(
  discount: Discount,
  base: number,
  currency: Currency,
  field: string,
  what: string,
): number | MoneyProblem {
  if (discount.kind === "percent") {
    const minor = discount.value >= 0 && discount.value <= 100 ? percentOfMinor(base, discount.value) : null;
    return minor ?? { field, message: "must be a percentage from 0 to 100" };
  }
  const amount = toMinor(discount.value, currency);
  if (amount === null || amount < 0)
    return {
      field,
      message: `must be an amount of at least 0 with at most ${MINOR_DIGITS[currency]} decimals`,
    };
  if (amount > base) return { field, message: `must not be more than ${what}` };
  return amount;
}

/**
 * A proposal's totals from its lines and discount option, or the problems of its input (each
 * on its field). Option 1 uses each line's discount and refuses a total discount; option 2 the
 * total discount and refuses line discounts; option 3 refuses both: list prices, explicitly.
 */
export function computeProposal(input: ProposalInput): Computed {
  const problems: MoneyProblem[] = [];
  const { currency, option } = input;
  if (!(currency in MINOR_DIGITS)) problems.push({ field: "currency", message: "must be a known currency" });
  if (![1, 2, 3].includes(option)) problems.push({ field: "option", message: "must be 1, 2 or 3" });
  if (problems.length) return { ok: false, problems };
  const lines: LineTotals[] = [];
  input.lines.forEach((line, i) => {
    const at = `lines.${i}`;
    const unitMinor = toMinor(line.unitPrice, currency);
    if (unitMinor === null || unitMinor < 0) {
      problems.push({ field: `${at}.unitPrice`, message: "must be a price of at least 0" });
      return;
    }
    if (!Number.isInteger(line.quantity) || line.quantity < 1 || line.quantity > 1_000_000) {
      problems.push({ field: `${at}.quantity`, message: "must be a whole number from 1 to 1,000,000" });
      return;
    }
    const grossMinor = unitMinor * line.quantity;
    if (grossMinor > MAX_MINOR) {
      problems.push({ field: `${at}.quantity`, message: "makes the line too large to price" });
      return;
    }
    let discountMinor = 0;
    if (line.discount) {
      if (option !== DISCOUNT_OPTIONS.product) {
        problems.push({ field: `${at}.discount`, message: "is only for the Product discount option" });
        return;
      }
      const d = discountOf(line.discount, grossMinor, currency, `${at}.discount.value`, "the line's price");
      if (typeof d !== "number") {
        problems.push(d);
        return;
      }
      discountMinor = d;
    }
    lines.push({
      unitMinor,
      quantity: line.quantity,
      grossMinor,
      discountMinor,
      netMinor: grossMinor - discountMinor,
    });
  });
  if (option !== DISCOUNT_OPTIONS.total && input.totalDiscount)
    problems.push({ field: "totalDiscount", message: "is only for the Total discount option" });
  if (problems.length) return { ok: false, problems };
  const subtotalMinor = sumMinor(lines.map((l) => l.netMinor));
  let totalDiscountMinor = 0;
  if (option === DISCOUNT_OPTIONS.total && input.totalDiscount) {
    const d = discountOf(input.totalDiscount, subtotalMinor, currency, "totalDiscount.value", "the subtotal");
    if (typeof d !== "number") return { ok: false, problems: [d] };
    totalDiscountMinor = d;
  }
  const lineDiscounts = sumMinor(lines.map((l) => l.discountMinor));
  return {
    ok: true,
    totals: {
      currency,
      option,
      lines,
      subtotalMinor,
      totalDiscountMinor,
      discountMinor: lineDiscounts + totalDiscountMinor,
      totalMinor: subtotalMinor - totalDiscountMinor,
    },
  };
}

/**
 * A discount of `amountMinor` spread over lines worth `values` (minor units): each line's share
 * is its value's part of the amount, rounded down; the paise left go one each to the lines with
 * the largest remainders (the first of equal ones). The shares add up to the amount exactly, and
 * no line gets more than its value.
 *
 * @example
 * spreadDiscount(100, [1000, 1000, 1000]); // [34, 33, 33]
 */
export function spreadDiscount(amountMinor: number, values: readonly number[]): number[] {
  const total = values.reduce((sum, v) => sum + v, 0);
  if (amountMinor <= 0 || total <= 0) return values.map(() => 0);
  const amount = BigInt(Math.min(amountMinor, total));
  const whole = BigInt(total);
  const shares = values.map((v) => (amount * BigInt(v)) / whole);
  const remainders = values.map((v, i) => ({ i, r: (amount * BigInt(v)) % whole }));
  let left = amount - shares.reduce((sum, s) => sum + s, 0n);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left <= 0n) break;
    shares[i] += 1n;
    left -= 1n;
  }
  return shares.map(Number);
}

/**
 * The proposal at list price: the sum of its lines' gross amounts, before any discount (what a
 * proposal record's `subtotal` and the PDF's "Subtotal" say). `subtotalMinor` differs from it
 * by the lines' own discounts.
 */
export const listPriceMinor = (totals: Pick<ProposalTotals, "lines">): number =>
  sumMinor(totals.lines.map((l) => l.grossMinor));
