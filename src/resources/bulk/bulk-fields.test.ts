import { describe, expect, it } from "vitest";
import { resourceByName } from "../../../resources";
import type { ResourceDefinition } from "../../../resources/contract";
import { bulkFieldsOf, oneFieldDef } from "./bulk-fields";

const products = resourceByName("products") as ResourceDefinition;

describe("bulk edit fields", () => {
  it("offers writable fields, not read-only ones nor a key unique on its own", () => {
    const offered = bulkFieldsOf(products);
    expect(offered).toEqual(expect.arrayContaining(["name", "status", "price", "category_id"]));
    expect(offered).not.toContain("sku_code");
    expect(offered).not.toContain("id");
    expect(offered).not.toContain("updated_at");
  });

  it("narrows the resource to one field, required only when the schema requires it", () => {
    const price = oneFieldDef(products, "price");
    expect(Object.keys(price.schema.properties)).toEqual(["price"]);
    expect(price.schema.required).toEqual(["price"]);
    expect(oneFieldDef(products, "status").schema.required).toEqual([]);
    expect(price.uiSchema?.["ui:order"]).toBeUndefined();
  });
});
