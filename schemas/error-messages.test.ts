import { describe, expect, it } from "vitest";
import { RESOURCES } from "../resources/index";
import { specimenSchema } from "../tests/fixtures/every-field-type";
import {
  type AjvErrorLike,
  asSentence,
  fieldErrors,
  fieldTitle,
  invalidInputMessage,
  validationMessage,
  wordsOfKey,
} from "./error-messages";
import { createAjv } from "./validator-config";

const error = (
  keyword: string,
  params: Record<string, unknown>,
  instancePath = "/field",
  parentSchema: Record<string, unknown> = { title: "Field" },
) => ({ keyword, params, instancePath, parentSchema, message: "raw Ajv words" }) as AjvErrorLike;

describe("validation messages", () => {
  it.each([
    [error("format", { format: "email" }), "Field must be a valid email address"],
    [
      error("format", { format: "uuid" }),
      "Field must be a valid ID (a UUID such as 0b7c5a3e-9d1f-4c2a-8e6b-1f2d3c4b5a69)",
    ],
    [
      error("format", { format: "uri" }),
      "Field must be a full web address, such as https://example.com/page",
    ],
    [error("format", { format: "date" }), "Field must be a real date written YYYY-MM-DD"],
    [
      error("format", { format: "date-time" }),
      "Field must be a date and time with its time zone, such as 2024-03-05T14:30:00Z",
    ],
    [
      error("format", { format: "time" }),
      "Field must be a time of day written HH:MM or HH:MM:SS (00:00 to 23:59), without a time zone",
    ],
    [error("format", { format: "hostname" }), "Field is not in the expected format"],
    [error("minLength", { limit: 1 }), "Field must not be empty"],
    [error("minLength", { limit: 8 }), "Field must be at least 8 characters"],
    [error("maxLength", { limit: 1 }), "Field must be at most 1 character"],
    [error("maxLength", { limit: 1200 }), "Field must be at most 1,200 characters"],
    [error("enum", { allowedValues: [2, 3] }), "Field must be one of 2, 3"],
    [error("type", { type: "integer" }), "Field must be a whole number"],
    [error("type", { type: "number" }), "Field must be a number"],
    [error("type", { type: "string" }), "Field must be text"],
    [error("type", { type: "boolean" }), "Field must be true or false"],
    [error("uniqueItems", { i: 0, j: 1 }), "Field must not repeat values"],
    [error("multipleOf", { multipleOf: 0.01 }), "Field must have at most 2 decimal places"],
    [error("multipleOf", { multipleOf: 0.1 }), "Field must have at most 1 decimal place"],
    [error("multipleOf", { multipleOf: 0.25 }), "Field must be a multiple of 0.25"],
    [error("minimum", { limit: 0, comparison: ">=" }), "Field must be 0 or more"],
    [error("maximum", { limit: 999999999.99, comparison: "<=" }), "Field must be 999,999,999.99 or less"],
    [error("exclusiveMinimum", { limit: 0, comparison: ">" }), "Field must be more than 0"],
    [error("exclusiveMaximum", { limit: 1, comparison: "<" }), "Field must be less than 1"],
    [error("maxItems", { limit: 20 }), "Field must hold at most 20 items"],
    [error("minItems", { limit: 1 }), "Field must hold at least 1 item"],
    [error("pattern", { pattern: "^[a-z]+$" }), "Field is not in the expected format"],
    [error("if", { failingKeyword: "then" }), "Field is not valid"],
  ])("%o → %s", (e, text) => {
    expect(validationMessage(e)).toBe(text);
  });

  it("says a pattern in the field's own words", () => {
    const sku = RESOURCES.find((r) => r.name === "products")?.schema.properties.sku_code;
    expect(
      validationMessage(
        error("pattern", { pattern: sku?.pattern }, "/sku_code", sku as Record<string, unknown> | undefined),
      ),
    ).toBe("SKU code may only contain letters, digits, dots, dashes and underscores");
  });

  it("names choices by their labels, without the null of a nullable field", () => {
    const grade = specimenSchema.properties.grade;
    expect(validationMessage(error("enum", { allowedValues: grade.enum }, "/grade", grade))).toBe(
      "Grade must be one of Grade A (a), Grade B (b)",
    );
    expect(validationMessage(error("enum", { allowedValues: ["INR", "USD", null] }))).toBe(
      "Field must be one of INR, USD",
    );
    expect(validationMessage(error("type", { type: "string,null" }))).toBe("Field must be text");
    expect(validationMessage(error("type", { type: "integer,null" }))).toBe("Field must be a whole number");
  });

  it("names a field without a title by its name in words, never its key", () => {
    expect(wordsOfKey("sku_code")).toBe("SKU code");
    expect(wordsOfKey("deviceId")).toBe("Device ID");
    // Keys that name Object's own members are words like any other.
    expect(wordsOfKey("constructor")).toBe("Constructor");
    expect(wordsOfKey("toString")).toBe("To string");
    expect(wordsOfKey("targetFolderId")).toBe("Target folder ID");
    expect(fieldTitle(specimenSchema, "tracking_id")).toBe("Tracking ID");
    expect(fieldTitle(specimenSchema, "no_such_field")).toBe("No such field");
  });

  it("names the field by its property path and the message by its title", () => {
    const body = { type: "object", properties: { deviceInfo: { type: "object", properties: {} } } };
    expect(
      fieldErrors([
        error("required", { missingProperty: "deviceId" }, "/deviceInfo", body.properties.deviceInfo),
        error("format", { format: "uri" }, "/images/0", { type: "string", format: "uri" }),
        error("format", { format: "uri" }, "/images/1", { type: "string", title: "Image", format: "uri" }),
        error("additionalProperties", { additionalProperty: "unknown_field" }, "", body),
        error("type", { type: "object" }, "", body),
      ]),
    ).toEqual([
      { field: "deviceInfo.deviceId", message: "Device ID is required" },
      {
        field: "images.0",
        message: "Images item 1 must be a full web address, such as https://example.com/page",
      },
      { field: "images.1", message: "Image 2 must be a full web address, such as https://example.com/page" },
      { field: "unknown_field", message: "Unknown field is not a field that can be set here" },
      { field: "(body)", message: "The data must be a set of fields" },
    ]);
  });

  it("heads a 400 with the one problem, or how many fields need correcting", () => {
    const price = { field: "price", message: "Price must be a number" };
    expect(invalidInputMessage([price])).toBe("Price must be a number");
    expect(invalidInputMessage([price, { field: "name", message: "Name is required" }])).toBe(
      "2 fields need correcting",
    );
    expect(invalidInputMessage([price, { field: "price", message: "Price must be 0 or more" }])).toBe(
      "One field needs correcting",
    );
  });
});

describe("any field error as a sentence", () => {
  it.each([
    [{ field: "filters.born_on", message: "must be a date" }, "Born on must be a date"],
    [
      { field: "assetIds.0", message: "must not contain NUL characters" },
      "Asset IDs must not contain NUL characters",
    ],
    [{ field: "(body)", message: "is not valid UTF-8" }, "The data is not valid UTF-8"],
    [
      { field: "role", message: "you cannot remove your own admin role" },
      "You cannot remove your own admin role",
    ],
    [{ field: "sku_code", message: "SKU code is already in use" }, "SKU code is already in use"],
  ])("%o → %s", (detail, text) => {
    expect(asSentence(detail)).toBe(text);
  });
});

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every object schema with properties inside `value` (schemas nest in route bodies and arrays). */
function objectSchemasIn(value: unknown, seen = new Set<unknown>()): Node[] {
  if (typeof value !== "object" || value === null || seen.has(value)) return [];
  seen.add(value);
  const own = isNode(value) && isNode(value.properties) ? [value] : [];
  return [...own, ...Object.values(value).flatMap((v) => objectSchemasIn(v, seen))];
}

/** Every schema the project declares: each module of schemas/ and each resource's schema. */
const declared = Object.entries(import.meta.glob<Node>(["./*.ts", "!./*.test.ts"], { eager: true }))
  .flatMap(([file, exports]) => objectSchemasIn(exports).map((schema) => [file, schema] as const))
  .concat(RESOURCES.map((r) => [`resources: ${r.name}`, r.schema as unknown as Node] as const));

/** Values that break a field's rules one way or another. */
const BAD_VALUES: unknown[] = [
  "",
  " ",
  "-lead-dash",
  "UPPER case!",
  "a".repeat(5000),
  "../x",
  "é",
  1.5,
  -1,
  true,
  [],
  {},
  null,
];

const SNAKE_KEY = /\b[a-z0-9]+_[a-z0-9_]+\b/;
const REGEX_BITS = /[\^$\\]|\[[^\]]*-[^\]]*\]|\(\?|must match|pattern|[<>]=/;

describe("every declared schema's messages are in words", () => {
  it("discovers the schemas, patterns among them", () => {
    expect(declared.length).toBeGreaterThan(10);
    const patterns = declared.flatMap(([, s]) =>
      Object.values(s.properties as Node).filter((f) => isNode(f) && f.pattern),
    );
    expect(patterns.length).toBeGreaterThanOrEqual(2);
  });

  it.each(
    declared.map(
      ([file, schema]) => [`${file} ${String(schema.$id ?? schema.title ?? "")}`, schema] as const,
    ),
  )("%s", (_name, schema) => {
    const ajv = createAjv({ coerce: false });
    for (const [key, field] of Object.entries(schema.properties as Node)) {
      if (!isNode(field)) continue;
      const validate = ajv.compile({ type: "object", properties: { [key]: field }, required: [key] });
      const messages = new Set<string>();
      let patternFailed = !field.pattern;
      for (const value of [undefined, ...BAD_VALUES]) {
        if (validate(value === undefined ? {} : { [key]: value })) continue;
        patternFailed ||= (validate.errors ?? []).some((e) => e.keyword === "pattern");
        for (const e of fieldErrors(validate.errors ?? [])) messages.add(e.message);
      }
      expect(patternFailed, `${key}: no bad value breaks its pattern`).toBe(true);
      for (const message of messages) {
        expect(message, key).toMatch(/^[A-Z0-9]/);
        expect(message, key).not.toMatch(SNAKE_KEY);
        expect(message, key).not.toMatch(REGEX_BITS);
        if (field.pattern) expect(message).not.toContain(String(field.pattern));
      }
    }
  });
});
