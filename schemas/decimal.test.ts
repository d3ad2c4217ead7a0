import { describe, expect, it } from "vitest";
import { decimalPlacesOf, isMultipleOf } from "./decimal";
import { productSchema } from "./products";
import { createAjv } from "./validator-config";

describe("isMultipleOf", () => {
  it("accepts every cent value from 0 to 10,000 as a multiple of 0.01", () => {
    const refused: number[] = [];
    for (let cents = 0; cents <= 1_000_000; cents++) {
      // What a person types and JSON carries: the two-decimal text, parsed.
      const price = Number((cents / 100).toFixed(2));
      if (!isMultipleOf(price, 0.01)) refused.push(price);
    }
    expect(refused).toEqual([]);
  }, 60_000);

  it("refuses values with more decimals than the step allows", () => {
    for (const value of [0.295, 1.001, 4.351, 0.0001, 1e-7, 0.1 + 0.2]) {
      expect(isMultipleOf(value, 0.01), String(value)).toBe(false);
    }
  });

  it("handles steps that are not powers of ten, whole steps and exponents", () => {
    expect(isMultipleOf(7.5, 2.5)).toBe(true);
    expect(isMultipleOf(7.6, 2.5)).toBe(false);
    expect(isMultipleOf(-0.75, 0.25)).toBe(true);
    expect(isMultipleOf(1e21, 5)).toBe(true);
    expect(isMultipleOf(1.5e-7, 5e-8)).toBe(true);
    expect(isMultipleOf(12, 3)).toBe(true);
    expect(isMultipleOf(13, 3)).toBe(false);
    expect(isMultipleOf(999999999.99, 0.01)).toBe(true);
  });

  it("refuses non-finite numbers and steps that are not positive", () => {
    expect(isMultipleOf(Number.NaN, 0.01)).toBe(false);
    expect(isMultipleOf(Number.POSITIVE_INFINITY, 0.01)).toBe(false);
    expect(isMultipleOf(1, 0)).toBe(false);
    expect(isMultipleOf(1, -1)).toBe(false);
  });

  it("names the decimal places of a power-of-ten step", () => {
    expect(decimalPlacesOf(0.01)).toBe(2);
    expect(decimalPlacesOf(0.1)).toBe(1);
    expect(decimalPlacesOf(0.25)).toBeNull();
    expect(decimalPlacesOf(1)).toBeNull();
  });
});

describe("the shared Ajv's multipleOf", () => {
  const ajv = createAjv({ coerce: false });
  const validatePrice = ajv.compile({
    type: "object",
    properties: { price: productSchema.properties.price },
  });

  it("accepts every cent value from 0 to 10,000 for the product price", () => {
    const refused: number[] = [];
    for (let cents = 0; cents <= 1_000_000; cents++) {
      const price = Number((cents / 100).toFixed(2));
      if (!validatePrice({ price })) refused.push(price);
    }
    expect(refused).toEqual([]);
  }, 60_000);

  it("refuses a third decimal with the keyword, path and step of a multipleOf error", () => {
    expect(validatePrice({ price: 4.355 })).toBe(false);
    expect(validatePrice.errors).toEqual([
      expect.objectContaining({
        keyword: "multipleOf",
        instancePath: "/price",
        params: { multipleOf: 0.01 },
      }),
    ]);
  });

  it("still validates type before the step", () => {
    expect(validatePrice({ price: "4.35" })).toBe(false);
    expect(validatePrice.errors?.map((e) => e.keyword)).toEqual(["type"]);
  });
});
