/**
 * Decimal-safe `multipleOf`. JSON Schema's `multipleOf` divides binary floating-point numbers,
 * so 0.29 / 0.01 = 28.999999999999996 and valid prices such as 0.29, 1.13 or 4.35 were refused
 * (about 11 % of two-decimal prices). Here both numbers are read as the decimals they are
 * written as (their shortest round-trip text, which is what a person typed and what JSON
 * carried) and compared as whole numbers, by the money module's reading of a decimal
 * (schemas/money.ts). Pure: used by the server and the SPA's forms alike.
 */
import { decimalOf } from "./money";

/** A finite number as an exact decimal: `digits × 10^exponent` (0.29 → 29 × 10^-2). */
function toDecimal(value: number): { digits: bigint; exponent: number } {
  const d = decimalOf(value);
  return d ? { digits: d.digits, exponent: -d.scale } : { digits: 0n, exponent: 0 };
}

/**
 * Whether `value` is a whole multiple of `step`, decided on their decimal forms, with no
 * floating-point rounding.
 *
 * @example
 * isMultipleOf(0.29, 0.01); // true (plain division says false)
 * isMultipleOf(0.295, 0.01); // false
 * isMultipleOf(7.5, 2.5); // true
 */
export function isMultipleOf(value: number, step: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(step) || step <= 0) return false;
  // Fast path for the common steps (0.01, 0.1…): count the decimals the value is written with.
  const places = step < 1 ? placesOfStep(step) : null;
  if (places !== null) {
    const text = String(value);
    if (!text.includes("e")) return (text.split(".")[1]?.length ?? 0) <= places;
  }
  const v = toDecimal(value);
  const s = toDecimal(step);
  const exponent = Math.min(v.exponent, s.exponent);
  const scaledValue = v.digits * 10n ** BigInt(v.exponent - exponent);
  const scaledStep = s.digits * 10n ** BigInt(s.exponent - exponent);
  return scaledValue % scaledStep === 0n;
}

/** Steps come from schemas, so there are few: each worked out once (validation runs per request). */
const stepPlaces = new Map<number, number | null>();

function placesOfStep(step: number): number | null {
  let places = stepPlaces.get(step);
  if (places === undefined) {
    places = decimalPlacesOf(step);
    if (stepPlaces.size < 1000) stepPlaces.set(step, places);
  }
  return places;
}

/**
 * How many decimal places a step allows, when it is a power of ten (0.01 → 2); else null.
 *
 * @example
 * decimalPlacesOf(0.01); // 2
 * decimalPlacesOf(0.25); // null
 */
export function decimalPlacesOf(step: number): number | null {
  const { digits, exponent } = toDecimal(step);
  return digits === 1n && exponent < 0 ? -exponent : null;
}
