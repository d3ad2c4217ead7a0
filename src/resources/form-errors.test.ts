import { describe, expect, it } from "vitest";
import { resourceByName } from "../../resources/index";
import { products } from "../../resources/products";
import { liftedArrayFields, liftItemErrors, toErrorSchema, withoutFieldErrors } from "./form-errors";
import { deriveUiSchema } from "./form-schema";

describe("server errors on the fields", () => {
  it("nests dotted paths and keeps every message", () => {
    const errors = toErrorSchema({ sku_code: "already exists", "images.1": ["must be a valid uri"] });
    expect(errors).toEqual({
      sku_code: { __errors: ["already exists"] },
      images: { 1: { __errors: ["must be a valid uri"] } },
    });
    expect(withoutFieldErrors(errors, ["sku_code"])).toEqual({ images: errors.images });
    expect(toErrorSchema(undefined)).toEqual({});
    expect(toErrorSchema({ name: { key: "x", message: "is required" }, flag: true })).toEqual({
      name: { __errors: ["is required"] },
    });
  });
});

describe("item errors of a list drawn by one widget", () => {
  const lifted = liftedArrayFields(products.schema, deriveUiSchema(products, resourceByName));

  it("are lifted onto the field, naming the item", () => {
    expect(lifted).toEqual(["images"]);
    const [moved, kept] = liftItemErrors(
      [
        { property: ".images.1", message: "must be a valid uri", stack: "", name: "format", params: {} },
        { property: ".name", message: "is required", stack: "", name: "required", params: {} },
      ],
      lifted,
    );
    expect(moved).toMatchObject({ property: ".images", message: "URL 2 must be a valid uri" });
    expect(kept).toMatchObject({ property: ".name", message: "is required" });
  });

  it("are lifted in the server's answer too", () => {
    expect(
      toErrorSchema({ "images.0": "must be a valid uri", sku_code: "is already in use" }, lifted),
    ).toEqual({
      images: { __errors: ["URL 1 must be a valid uri"] },
      sku_code: { __errors: ["is already in use"] },
    });
  });
});
