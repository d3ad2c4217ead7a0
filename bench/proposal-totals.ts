/**
 * Proposal totals bench (issue 18): 10,000 random proposals — currencies with 2 and 0 minor
 * digits, 1 to 8 lines, the three discount options, percentages and amounts, half paise
 * everywhere — priced by computeProposal (schemas/proposal-money.ts) and, independently, by the
 * decimal arithmetic written below (strings read digit by digit into BigInt; it shares no code
 * with proposal-money). Prints the mismatches beside their floor (0), the refusals both agree
 * on, the carts' sums (schemas/proposal-cart.ts, floor: every one equal to its total), and
 * proposals per second. Prints figures only; nothing is asserted.
 *
 *   npm run bench:proposals [-- --count 10000 --seed 18]
 */
import { performance } from "node:perf_hooks";
import { cartItemsOf } from "../schemas/proposal-cart";
import { type Computed, computeProposal, type ProposalInput } from "../schemas/proposal-money";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const COUNT = arg("count", 10_000);
let seed = arg("seed", 18) >>> 0;

/** mulberry32: the same proposals on every run of a seed. */
function random(): number {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (n: number) => Math.floor(random() * n);

// --- the independent reckoning: decimal strings, BigInt, nothing from proposal-money ---

/** "12.34" → { n: 1234n, scale: 2 }. */
function parseDecimal(text: string): { n: bigint; scale: number } {
  const [whole, fraction = ""] = text.split(".");
  return { n: BigInt(whole + fraction), scale: fraction.length };
}

/** An amount written in major units as minor units of a currency with `digits` decimals, or null if it has more. */
function minorOf(text: string, digits: number): bigint | null {
  const { n, scale } = parseDecimal(text);
  if (scale > digits) return null;
  return n * 10n ** BigInt(digits - scale);
}

/** num / den rounded to the nearest whole, halves away from zero (all values here are ≥ 0). */
function halfUp(num: bigint, den: bigint): bigint {
  const q = num / den;
  return (num % den) * 2n >= den ? q + 1n : q;
}

interface Case {
  currency: "INR" | "USD" | "JPY";
  digits: number;
  option: 1 | 2 | 3;
  lines: {
    price: string;
    quantity: number;
    discount: { kind: "percent" | "amount"; value: string } | null;
  }[];
  total: { kind: "percent" | "amount"; value: string } | null;
}

/** The total in minor units, or "refused" when a discount exceeds what it applies to. */
function reckon(c: Case): bigint | "refused" {
  let subtotal = 0n;
  for (const line of c.lines) {
    const gross = (minorOf(line.price, c.digits) as bigint) * BigInt(line.quantity);
    let off = 0n;
    if (line.discount) {
      const d = discountOf(line.discount, gross, c.digits);
      if (d === "refused") return d;
      off = d;
    }
    subtotal += gross - off;
  }
  if (!c.total) return subtotal;
  const d = discountOf(c.total, subtotal, c.digits);
  return d === "refused" ? d : subtotal - d;
}

function discountOf(d: { kind: string; value: string }, base: bigint, digits: number): bigint | "refused" {
  if (d.kind === "percent") {
    const { n, scale } = parseDecimal(d.value);
    return halfUp(base * n, 100n * 10n ** BigInt(scale));
  }
  const amount = minorOf(d.value, digits) as bigint;
  return amount > base ? "refused" : amount;
}

// --- random proposals, written as a person (or JSON) would write them ---

/** A decimal string with at most `digits` decimals, biased to values that round on a half. */
function money(digits: number, max: number): string {
  const minor = int(max * 10 ** digits);
  if (!digits) return String(minor);
  const s = String(minor).padStart(digits + 1, "0");
  return `${s.slice(0, -digits)}.${s.slice(-digits)}`.replace(/\.?0+$/, "") || "0";
}
function percent(): string {
  const pick = int(6);
  if (pick === 0) return "100";
  if (pick === 1) return "0";
  if (pick === 2) return "12.5";
  if (pick === 3) return "5";
  return money(2, 100);
}
function discount(digits: number, base: number): Case["total"] {
  return int(2)
    ? { kind: "percent", value: percent() }
    : { kind: "amount", value: money(digits, Math.max(base * (int(5) === 0 ? 1.2 : 0.9), 0.01)) };
}

function makeCase(): Case {
  const currency = (["INR", "USD", "JPY"] as const)[int(3)];
  const digits = currency === "JPY" ? 0 : 2;
  const option = (1 + int(3)) as 1 | 2 | 3;
  const lines = Array.from({ length: 1 + int(8) }, () => {
    const price = money(digits, int(4) === 0 ? 1 : 5000);
    const quantity = 1 + int(int(3) === 0 ? 500 : 9);
    return {
      price,
      quantity,
      discount: option === 1 && int(3) ? discount(digits, Number(price) * quantity) : null,
    };
  });
  const gross = lines.reduce((s, l) => s + Number(l.price) * l.quantity, 0);
  return { currency, digits, option, lines, total: option === 2 && int(4) ? discount(digits, gross) : null };
}

const inputOf = (c: Case): ProposalInput => ({
  currency: c.currency,
  option: c.option,
  lines: c.lines.map((l) => ({
    unitPrice: Number(l.price),
    quantity: l.quantity,
    discount: l.discount && { kind: l.discount.kind, value: Number(l.discount.value) },
  })),
  totalDiscount: c.total && { kind: c.total.kind, value: Number(c.total.value) },
});

const cases = Array.from({ length: COUNT }, makeCase);
const inputs = cases.map(inputOf);

const started = performance.now();
const results: Computed[] = inputs.map((input) => computeProposal(input));
const seconds = (performance.now() - started) / 1000;

let mismatches = 0;
let refusedBoth = 0;
let cartMismatches = 0;
const shown: string[] = [];
for (const [i, c] of cases.entries()) {
  const expected = reckon(c);
  const got = results[i];
  const same = got.ok
    ? expected !== "refused" && BigInt(got.totals.totalMinor) === expected
    : expected === "refused";
  if (!same) {
    mismatches++;
    if (shown.length < 5)
      shown.push(
        `  #${i}: computeProposal ${got.ok ? got.totals.totalMinor : "refused"}, decimal ${expected}: ${JSON.stringify(c)}`,
      );
  } else if (!got.ok) refusedBoth++;
  if (got.ok) {
    const sum = cartItemsOf(got.totals).reduce((s, item) => s + item.quantity * item.unitMinor, 0);
    if (sum !== got.totals.totalMinor) cartMismatches++;
  }
}

console.log(`Proposal totals: ${COUNT.toLocaleString("en")} random proposals (seed ${arg("seed", 18)})`);
console.log(`  mismatches with the independent decimal reckoning: ${mismatches} (floor: 0)`);
for (const line of shown) console.log(line);
console.log(`  refused by both (a discount above its amount):    ${refusedBoth}`);
console.log(`  carts not adding up to their proposal's total:     ${cartMismatches} (floor: 0)`);
console.log(
  `  computeProposal: ${Math.round(COUNT / seconds).toLocaleString("en")} proposals/s (${(seconds * 1000).toFixed(1)} ms)`,
);
