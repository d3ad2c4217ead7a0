import { describe, expect, it } from "vitest";
import { categories } from "../../resources/categories";
import { clients, opportunities } from "../../resources/crm";
import { RESOURCES } from "../../resources/index";
import { pdfs } from "../../resources/pdfs";
import { products } from "../../resources/products";
import { subCategories } from "../../resources/sub-categories";
import { withCustomFields } from "../../schemas/custom-fields";
import {
  arrangeColumns,
  defaultSorters,
  detailFields,
  filterControls,
  listColumns,
  searchPlaceholder,
  titleWidth,
} from "./columns";
import { fieldKind } from "./fields";
import { formSchemaOf } from "./form-schema";
import { moduleGroupId, recordPath, resourceRoutes } from "./routes";

describe("listColumns", () => {
  it("puts the label column first, then follows x-list with the fields' titles, kinds, widths and sorters", () => {
    const columns = listColumns(products);
    expect(columns.map((c) => c.title)).toEqual([
      "Name",
      "SKU code",
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
    expect(byField.name).toMatchObject({ isLabel: true, flexible: true, width: 300 });
    expect(listColumns(categories).find((c) => c.field === "description")).toMatchObject({
      kind: "multiline",
      sortable: false,
      flexible: true,
    });
  });

  it("has a column for every x-list field of every resource, never narrower than its title", () => {
    for (const def of RESOURCES) {
      const columns = listColumns(def);
      expect(columns.map((c) => c.field).sort()).toEqual([...def.schema["x-list"]].sort());
      expect(columns[0].isLabel || !def.schema["x-list"].includes(def.schema["x-label"])).toBe(true);
      for (const field of def.schema["x-list"]) expect(field in def.schema.properties).toBe(true);
      for (const c of columns)
        expect(c.width, `${def.name}.${c.field}`).toBeGreaterThanOrEqual(titleWidth(c.title, c.sortable));
    }
  });

  it("sizes columns by kind: amounts, dates and tags whole, overrides never below the title", () => {
    const byField = Object.fromEntries(listColumns(products).map((c) => [c.field, c]));
    // "Currency" with its sort arrows needs more than the resource's 100 px.
    expect(byField.currency.width).toBe(titleWidth("Currency", true));
    expect(byField.currency.width).toBeGreaterThan(100);
    expect(byField.category_id).toMatchObject({ kind: "relation", width: 180, flexible: false });
    // An enum is as wide as its longest label as a tag.
    const status = listColumns(pdfs).find((c) => c.field === "pdfstatus");
    expect(status?.width).toBeGreaterThanOrEqual(110);
  });
});

describe("arrangeColumns", () => {
  const columns = listColumns(products);
  const fields = (preference: Parameters<typeof arrangeColumns>[1]) =>
    arrangeColumns(columns, preference).map((c) => c.field);

  it("shows every column in the default order without a preference", () => {
    expect(fields(null)).toEqual(columns.map((c) => c.field));
  });

  it("hides the chosen columns, never the label column", () => {
    expect(fields({ hidden: ["currency", "status", "name"] })).toEqual([
      "name",
      "sku_code",
      "price",
      "category_id",
      "sub_category_id",
      "updated_at",
    ]);
  });

  it("follows the saved order, keeps the label first and puts columns added since last", () => {
    expect(fields({ hidden: [], order: ["status", "name", "price", "gone_field"] })).toEqual([
      "name",
      "status",
      "price",
      "sku_code",
      "currency",
      "category_id",
      "sub_category_id",
      "updated_at",
    ]);
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
      "stock_level:number-range",
      "parent_id:relation",
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
    const many = ["name", "email", "message", "phone", "notes", "city"];
    const wide = {
      ...categories,
      schema: {
        ...categories.schema,
        "x-searchable": many,
        properties: Object.fromEntries(many.map((f) => [f, { type: "string" as const }])),
      },
    };
    expect(searchPlaceholder(wide)).toBe("Search by name, email, message or 3 other fields");
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

describe("internal fields (x-internal)", () => {
  it("shows an opportunity's ordering key on no screen: show page, columns, filters or form", () => {
    expect(opportunities.schema.properties.position["x-internal"]).toBe(true);
    expect(detailFields(opportunities)).not.toContain("position");
    // Even a list that names it (a slip) leaves it out.
    const named = {
      ...opportunities,
      schema: {
        ...opportunities.schema,
        "x-list": [...opportunities.schema["x-list"], "position"],
        "x-filterable": [...opportunities.schema["x-filterable"], "position"],
      },
    };
    expect(listColumns(named).map((c) => c.field)).not.toContain("position");
    expect(filterControls(named).map((c) => c.field)).not.toContain("position");
    expect(Object.keys(formSchemaOf(opportunities.schema).properties ?? {})).not.toContain("position");
  });

  it("is read-only wherever it is used, so no form offers it", () => {
    for (const def of RESOURCES)
      for (const [name, field] of Object.entries(def.schema.properties))
        if (field["x-internal"]) expect(field.readOnly, `${def.name}.${name}`).toBe(true);
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

describe("a client's list with its custom fields", () => {
  const def = {
    ...clients,
    schema: withCustomFields(clients.schema, [
      {
        id: "1",
        entity: "clients",
        key: "tier",
        label: "Tier",
        type: "enum",
        list: "company_tier",
        required: false,
        position: 1,
        description: null,
      },
      {
        id: "2",
        entity: "clients",
        key: "industry_size",
        label: "Industry size",
        type: "number",
        list: null,
        required: false,
        position: 2,
        description: null,
      },
    ]),
  };

  it("shows them as columns and filters: options by their list, numbers by a range", () => {
    expect(
      listColumns(def)
        .map((c) => c.field)
        .slice(-2),
    ).toEqual(["tier", "industry_size"]);
    const controls = filterControls(def);
    expect(controls).toEqual(
      expect.arrayContaining([
        { kind: "options", field: "source", title: "Source", list: "source" },
        { kind: "options", field: "tier", title: "Tier", list: "company_tier" },
        { kind: "number-range", field: "industry_size", title: "Industry size" },
        {
          kind: "relation",
          field: "owner_id",
          title: "Owner",
          resource: "users",
          labelField: "name",
          onDelete: "set null",
        },
      ]),
    );
  });
});
