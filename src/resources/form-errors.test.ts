import { describe, expect, it } from "vitest";
import { resourceByName } from "../../resources/index";
import { products } from "../../resources/products";
import { liftedArrayFields, liftItemErrors, toErrorSchema, withoutFieldErrors } from "./form-errors";
import { deriveUiSchema } from "./form-schema";

describe("server errors on the fields", () => {
  it("nests dotted paths and keeps every message", () => {
    const errors = toErrorSchema({
      sku_code: "SKU code is already in use",
      "images.1": ["Image 2 must be a full web address"],
    });
    expect(errors).toEqual({
      sku_code: { __errors: ["SKU code is already in use"] },
      images: { 1: { __errors: ["Image 2 must be a full web address"] } },
    });
    expect(withoutFieldErrors(errors, ["sku_code"])).toEqual({ images: errors.images });
    expect(toErrorSchema(undefined)).toEqual({});
    expect(toErrorSchema({ name: { key: "x", message: "Name is required" }, flag: true })).toEqual({
      name: { __errors: ["Name is required"] },
    });
  });
});

describe("item errors of a list drawn by one widget", () => {
  const lifted = liftedArrayFields(products.schema, deriveUiSchema(products, resourceByName));

  it("are lifted onto the field, their message naming the item", () => {
    expect(lifted).toEqual(["images"]);
    const [moved, kept] = liftItemErrors(
      [
        {
          property: ".images.1",
          message: "Image 2 must be a full web address",
          stack: "",
          name: "format",
          params: {},
        },
        { property: ".name", message: "Name is required", stack: "", name: "required", params: {} },
      ],
      lifted,
    );
    expect(moved).toMatchObject({ property: ".images", message: "Image 2 must be a full web address" });
    expect(kept).toMatchObject({ property: ".name", message: "Name is required" });
  });

  it("are lifted in the server's answer too", () => {
    expect(
      toErrorSchema(
        { "images.0": "Image 1 must be a full web address", sku_code: "SKU code is already in use" },
        lifted,
      ),
    ).toEqual({
      images: { __errors: ["Image 1 must be a full web address"] },
      sku_code: { __errors: ["SKU code is already in use"] },
    });
  });
});
