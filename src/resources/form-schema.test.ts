import { describe, expect, it } from "vitest";
import { categories } from "../../resources/categories";
import type { ResourceDefinition } from "../../resources/contract";
import { RESOURCES, resourceByName } from "../../resources/index";
import { products } from "../../resources/products";
import { subCategories } from "../../resources/sub-categories";
import { cmsDomainSchema } from "../../schemas/cms-domains";
import type { EntitySchema } from "../../schemas/contract";
import { formSchema } from "../../schemas/form-records";
import { specimens } from "../../tests/fixtures/every-field-type";
import {
  clearStaleDependents,
  DAY_WIDGET,
  defaultsOf,
  deriveUiSchema,
  formSchemaOf,
  INSTANT_WIDGET,
  keyFieldsToFill,
  MEDIA_WIDGET,
  nullWhenBlank,
  RELATION_WIDGET,
  relationDependencies,
  TIME_WIDGET,
  toCreateBody,
  toFormData,
  toUpdateBody,
  withKeysFromNames,
} from "./form-schema";

describe("formSchemaOf", () => {
  it("keeps the writable fields and their required ones, for every resource", () => {
    for (const def of RESOURCES) {
      const schema = formSchemaOf(def.schema);
      const fields = Object.keys(schema.properties ?? {});
      expect(fields).not.toContain("id");
      expect(fields).not.toContain("created_at");
      expect(fields.every((f) => !def.schema.properties[f].readOnly)).toBe(true);
      expect(schema.required).toEqual(def.schema.required);
      expect(schema.additionalProperties).toBe(false);
    }
  });
});

describe("deriveUiSchema", () => {
  const ui = deriveUiSchema(products, resourceByName);

  it("turns the x- hints into widgets", () => {
    expect(ui.description).toEqual({ "ui:widget": "textarea", "ui:options": { rows: 4 } });
    expect(ui.status).toEqual({ "ui:enumNames": ["Draft", "Active", "Archived"] });
    expect(ui.images).toEqual({ "ui:widget": MEDIA_WIDGET });
    expect(ui.category_id).toEqual({
      "ui:widget": RELATION_WIDGET,
      "ui:options": { resource: "categories", labelField: "name" },
    });
  });

  it("filters the sub-category select by the chosen category", () => {
    expect(ui.sub_category_id).toEqual({
      "ui:widget": RELATION_WIDGET,
      "ui:options": {
        resource: "sub-categories",
        labelField: "name",
        dependsOn: { field: "category_id", filterField: "category_id" },
      },
    });
  });

  it("keeps the resource's own uiSchema, which wins over derived hints, and hides rjsf's submit", () => {
    expect(ui["ui:order"]).toEqual(products.uiSchema?.["ui:order"]);
    expect(ui["ui:submitButtonOptions"]).toEqual({ norender: true });
    const custom: ResourceDefinition = {
      ...categories,
      uiSchema: { description: { "ui:options": { rows: 8 } }, name: { "ui:autofocus": true } },
    };
    const own = deriveUiSchema(custom, resourceByName);
    expect(own.description).toEqual({ "ui:widget": "textarea", "ui:options": { rows: 8 } });
    expect(own.name).toEqual({ "ui:autofocus": true });
  });

  it("has no dependency where the related resource points nowhere the form does", () => {
    expect(relationDependencies(subCategories, resourceByName)).toEqual({});
    expect(relationDependencies(products, resourceByName)).toEqual({
      sub_category_id: { field: "category_id", filterField: "category_id" },
    });
  });
});

describe("records, form data and bodies", () => {
  const record = {
    id: "p1",
    created_at: "2024-01-01T00:00:00.000Z",
    updated_at: "2024-01-01T00:00:00.000Z",
    created_by: null,
    updated_by: null,
    sku_code: "SKU-1",
    name: "Shirt",
    description: null,
    price: 12.5,
    currency: "INR",
    category_id: "c1",
    sub_category_id: null,
    status: "draft",
    images: ["https://example.com/a.png"],
  };

  it("edits the writable fields that have values", () => {
    expect(toFormData(record, products.schema)).toEqual({
      sku_code: "SKU-1",
      name: "Shirt",
      price: 12.5,
      currency: "INR",
      category_id: "c1",
      status: "draft",
      images: ["https://example.com/a.png"],
    });
  });

  it("starts a new record from the schema's defaults", () => {
    expect(defaultsOf(products.schema)).toEqual({ currency: "INR", status: "draft" });
    expect(defaultsOf(categories.schema)).toEqual({});
  });

  it("creates with the fields that have values", () => {
    expect(toCreateBody({ name: "Shirt", description: undefined, id: "x" }, products.schema)).toEqual({
      name: "Shirt",
    });
  });

  it("updates only what changed, a cleared field as null", () => {
    const data = {
      ...toFormData(record, products.schema),
      price: 13,
      images: undefined,
      description: "Soft",
    };
    expect(toUpdateBody(data, record, products.schema)).toEqual({
      price: 13,
      images: null,
      description: "Soft",
    });
    expect(toUpdateBody(toFormData(record, products.schema), record, products.schema)).toEqual({});
  });

  it("clears the sub-category when the category changes", () => {
    const deps = relationDependencies(products, resourceByName);
    const before = { category_id: "c1", sub_category_id: "s1" };
    expect(clearStaleDependents(before, { ...before, category_id: "c2" }, deps)).toEqual({
      category_id: "c2",
      sub_category_id: undefined,
    });
    expect(clearStaleDependents(before, { ...before, name: "x" }, deps)).toEqual({ ...before, name: "x" });
  });
});

describe("nullable fields and string formats", () => {
  const schema = formSchemaOf(specimens.schema);
  const properties = schema.properties as Record<string, { type: unknown; enum?: unknown[] }>;

  it("gives each form field one type (rjsf draws a number box only for a plain number)", () => {
    expect(properties.note.type).toBe("string");
    expect(properties.weight.type).toBe("integer");
    expect(properties.grade).toMatchObject({ type: "string", enum: ["a", "b"] });
  });

  it("does not require a nullable field: left blank, it is sent as null", () => {
    expect(schema.required).toEqual(["title"]);
    expect(nullWhenBlank(specimens.schema)).toEqual(["note", "weight"]);
    expect(toCreateBody({ title: "T" }, specimens.schema)).toEqual({ title: "T", note: null, weight: null });
    expect(toCreateBody({ title: "T", note: "n", weight: 3 }, specimens.schema)).toEqual({
      title: "T",
      note: "n",
      weight: 3,
    });
  });

  it("clears a nullable field on edit with null", () => {
    const record = { id: "s1", title: "T", note: "n", grade: "a", starts_at: "2024-03-05T14:30:00.000Z" };
    const data = toFormData(record, specimens.schema);
    expect(
      toUpdateBody({ ...data, grade: undefined, starts_at: undefined }, record, specimens.schema),
    ).toEqual({
      grade: null,
      starts_at: null,
    });
  });

  it("picks a widget by format: day, date-time and time pickers, email and web address inputs", () => {
    const ui = deriveUiSchema(specimens, resourceByName);
    expect(ui.born_on).toEqual({ "ui:widget": DAY_WIDGET });
    expect(ui.starts_at).toEqual({ "ui:widget": INSTANT_WIDGET });
    expect(ui.opens_at).toEqual({ "ui:widget": TIME_WIDGET });
    expect(ui.contact).toMatchObject({ "ui:widget": "email" });
    expect(ui.homepage).toMatchObject({ "ui:widget": "uri" });
    expect(ui.grade).toEqual({ "ui:enumNames": ["Grade A", "Grade B"] });
    // A nullable yes/no has three states: a select that may stay blank, not a checkbox.
    expect(ui.sealed).toEqual({ "ui:widget": "select" });
    expect(ui.tracking_id).toBeUndefined();
  });
});

describe("x-options fields in forms", () => {
  it("are selects of their list's options, several on a list field", () => {
    const clients = resourceByName("clients") as ResourceDefinition;
    const ui = deriveUiSchema(clients, resourceByName);
    expect(ui.source).toEqual({ "ui:widget": "options", "ui:options": { list: "source" } });
    expect(ui.tags).toEqual({ "ui:widget": "options", "ui:options": { list: "tag", multiple: true } });
    // A user is a relation too: owners are picked from the people endpoint (relation-target.ts).
    expect(ui.owner_id).toMatchObject({ "ui:widget": "relation", "ui:options": { resource: "users" } });
  });
});

describe("keys from names (x-keyFrom)", () => {
  it("fills a new domain's key and a new form's slug from the name until the person edits it", () => {
    for (const [schema, key] of [
      [cmsDomainSchema, "key"],
      [formSchema, "slug"],
    ] as Array<[EntitySchema, string]>) {
      const keys = keyFieldsToFill(schema, {});
      expect(keys).toEqual([key]);
      const named = withKeysFromNames(schema, keys, {}, { name: "Spring Shop" });
      expect(named[key]).toBe("spring-shop");
      const own = withKeysFromNames(schema, keys, named, { ...named, [key]: "mine" });
      expect(withKeysFromNames(schema, keys, own, { ...own, name: "Autumn" })[key]).toBe("mine");
      // Never past the key's own limit.
      const long = withKeysFromNames(schema, keys, {}, { name: "Word ".repeat(40) });
      expect(String(long[key]).length).toBeLessThanOrEqual(schema.properties[key].maxLength ?? 0);
    }
    // A record with its key keeps it.
    expect(keyFieldsToFill(cmsDomainSchema, { key: "shop" })).toEqual([]);
  });
});
