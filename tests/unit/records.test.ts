import { describe, expect, it } from "vitest";
import type { EntitySchema } from "../../schemas/contract";
import { toRecord } from "../../server/resources/records";

const schema = {
  type: "object",
  properties: {
    id: { type: "string", format: "uuid" },
    name: { type: "string" },
    price: { type: "number" },
    tags: { type: "array", items: { type: "string" } },
    created_at: { type: "string", format: "date-time" },
    // A field's name written as a computed key, as JSON.parse makes it (a plain one would set the prototype).
    ["__proto__"]: { type: "string" },
    tier: { type: "string" },
  },
  "x-customFields": ["tier"],
} as unknown as EntitySchema;

describe("toRecord", () => {
  it("answers every field in the schema's order, converted, custom fields last", () => {
    const record = toRecord(schema, {
      id: "a",
      name: "Lamp",
      price: "49.50",
      tags: '["x"]',
      created_at: "2026-11-29 00:52:14.054123+00",
      custom: '{"tier":"gold"}',
      extra: "not answered",
    });
    expect(Object.keys(record)).toEqual(["id", "name", "price", "tags", "created_at", "__proto__", "tier"]);
    expect(record).toMatchObject({ id: "a", name: "Lamp", price: 49.5, tags: ["x"], tier: "gold" });
    expect(record.created_at).toBe("2026-11-29T00:52:14.054Z");
    expect(toRecord(schema, { created_at: new Date(Date.UTC(2026, 0, 2)) }).created_at).toBe(
      "2026-01-02T00:00:00.000Z",
    );
  });

  it("keeps a field called __proto__ a field, never the record's prototype", () => {
    const record = toRecord(schema, JSON.parse('{"__proto__": "text"}'));
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.hasOwn(record, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(record, "__proto__")?.value).toBe("text");
  });
});
