import { describe, expect, it } from "vitest";
import { categories } from "../../resources/categories";
import { RESOURCES } from "../../resources/index";
import { products } from "../../resources/products";
import { subCategories } from "../../resources/sub-categories";
import { defaultSorters, detailFields, filterControls, listColumns, searchPlaceholder } from "./columns";
import { fieldKind } from "./fields";
import { moduleGroupId, recordPath, resourceRoutes } from "./routes";

describe("listColumns", () => {
  it("follows x-list with the fields' titles, kinds, widths and sorters", () => {
    const columns = listColumns(products);
    expect(columns.map((c) => c.title)).toEqual([
      "SKU code",
      "Name",
      "Price",
      "Currency",
      "Category",
      "Sub-category",
      "Status",
      "Updated",
    ]);
    const byField = Object.fromEntries(columns.map((c) => [c.field, c]));
    expect(byField.price).toMatchObject({ kind: "money", width: 120, align: "right", sortable: true });
    expect(byField.category_id).toMatchObject({ kind: "relation", sortable: true });
    expect(byField.status).toMatchObject({ kind: "enum", width: 110 });
    expect(byField.updated_at).toMatchObject({ kind: "datetime", width: 160 });
    expect(byField.name.isLabel).toBe(true);
    expect(listColumns(categories).find((c) => c.field === "description")).toMatchObject({
      kind: "multiline",
      sortable: false,
    });
  });

  it("has a column for every x-list field of every resource", () => {
    for (const def of RESOURCES) {
      expect(listColumns(def).map((c) => c.field)).toEqual(def.schema["x-list"]);
      for (const field of def.schema["x-list"]) expect(field in def.schema.properties).toBe(true);
    }
  });
});

describe("field kinds", () => {
  it("reads numbers as money only where there is a currency", () => {
    expect(fieldKind(products.schema, "price")).toBe("money");
    expect(fieldKind(categories.schema, "products_cat_id")).toBe("integer");
    expect(fieldKind(products.schema, "images")).toBe("media");
    expect(fieldKind(products.schema, "id")).toBe("id");
  });
});

describe("filters", () => {
  it("chooses a control by field kind; text fields go to the search box", () => {
    expect(filterControls(products).map((c) => `${c.field}:${c.kind}`)).toEqual([
      "price:number-range",
      "currency:select",
      "category_id:relation",
      "sub_category_id:relation",
      "status:select",
      "created_at:date-range",
      "updated_at:date-range",
    ]);
    expect(filterControls(products).find((c) => c.field === "updated_at")).toMatchObject({
      granularity: "instant",
    });
    expect(filterControls(subCategories).find((c) => c.field === "category_id")).toEqual({
      kind: "relation",
      field: "category_id",
      title: "Category",
      resource: "categories",
      labelField: "name",
    });
  });

  it("names what the search box searches", () => {
    expect(searchPlaceholder(products)).toBe("Search by SKU code, name or description");
    expect(searchPlaceholder(categories)).toBe("Search by name or description");
  });

  it("starts from the schema's default sort", () => {
    expect(defaultSorters(products)).toEqual([{ field: "updated_at", order: "desc" }]);
    expect(defaultSorters(categories)).toEqual([{ field: "name", order: "asc" }]);
  });
});

describe("show page fields", () => {
  it("lists the form's order, the other fields, then the audit fields", () => {
    expect(detailFields(subCategories)).toEqual([
      "category_id",
      "name",
      "description",
      "created_at",
      "created_by",
      "updated_at",
      "updated_by",
      "id",
    ]);
  });
});

describe("routes", () => {
  it("puts a resource under its module", () => {
    expect(resourceRoutes(subCategories)).toEqual({
      list: "/products/sub-categories",
      create: "/products/sub-categories/create",
      edit: "/products/sub-categories/edit/:id",
      show: "/products/sub-categories/show/:id",
    });
    expect(resourceRoutes({ name: "clients" }).list).toBe("/clients");
    expect(recordPath(products, "show", "a b")).toBe("/products/products/show/a%20b");
    expect(moduleGroupId("products")).toBe("module:products");
  });
});
