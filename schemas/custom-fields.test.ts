import { describe, expect, it } from "vitest";
import { clientSchema } from "./crm-clients";
import { type CustomField, customFieldSchema, customKeyProblem, withCustomFields } from "./custom-fields";

const field = (over: Partial<CustomField>): CustomField => ({
  id: "f",
  entity: "clients",
  key: "industry_size",
  label: "Industry size",
  type: "number",
  list: null,
  required: false,
  position: 10,
  description: null,
  ...over,
});

describe("custom fields as schema fields", () => {
  it("makes each type a field of the engine's format", () => {
    expect(customFieldSchema(field({}))).toEqual({ type: ["number", "null"], title: "Industry size" });
    expect(customFieldSchema(field({ type: "enum", list: "tier", required: true }))).toEqual({
      type: "string",
      title: "Industry size",
      maxLength: 40,
      "x-options": "tier",
    });
    expect(customFieldSchema(field({ type: "date" }))).toMatchObject({ format: "date" });
    expect(customFieldSchema(field({ type: "url" }))).toMatchObject({ format: "uri" });
    expect(customFieldSchema(field({ type: "text", required: true }))).toMatchObject({
      type: "string",
      minLength: 1,
    });
  });

  it("merges an entity's fields after its own, listed, filterable and required as they say", () => {
    const schema = withCustomFields(clientSchema, [
      field({ key: "tier", label: "Tier", type: "enum", list: "tier", position: 20, required: true }),
      field({}),
      field({ entity: "opportunities", key: "po" }),
      field({ key: "email", label: "Shadow" }),
    ]);
    expect(Object.keys(schema.properties).slice(-2)).toEqual(["industry_size", "tier"]);
    expect(schema["x-customFields"]).toEqual(["industry_size", "tier"]);
    expect(schema["x-list"].slice(-2)).toEqual(["industry_size", "tier"]);
    expect(schema["x-filterable"]).toContain("tier");
    expect(schema.required).toEqual(["name", "tier"]);
    expect(schema.properties.email).toBe(clientSchema.properties.email);
    expect(withCustomFields(clientSchema, [])).toBe(clientSchema);
  });

  it("refuses keys that would clash or cannot be keys", () => {
    expect(customKeyProblem(clientSchema, "email")).toBe("Email is already a field of this record");
    expect(customKeyProblem(clientSchema, "custom")).toBe("Key 'custom' is reserved");
    expect(customKeyProblem(clientSchema, "created_at")).toBe("Created is already a field of this record");
    expect(customKeyProblem(clientSchema, "constructor")).toBe("Key 'constructor' is a reserved word");
    expect(customKeyProblem(clientSchema, "Size")).toMatch(/lower-case/);
    expect(customKeyProblem(clientSchema, "industry_size")).toBeNull();
  });
});
