import { describe, expect, it } from "vitest";
import { type AjvErrorLike, fieldErrors, friendlyMessage } from "./error-messages";

const error = (keyword: string, params: Record<string, unknown>, instancePath = "", message?: string) =>
  ({ keyword, params, instancePath, message }) as AjvErrorLike;

describe("friendly validation messages", () => {
  it.each([
    [error("required", { missingProperty: "name" }), "is required"],
    [error("additionalProperties", { additionalProperty: "x" }), "is not allowed"],
    [error("format", { format: "email" }), "must be a valid email address"],
    [
      error("format", { format: "uuid" }),
      "must be a valid ID (a UUID such as 0b7c5a3e-9d1f-4c2a-8e6b-1f2d3c4b5a69)",
    ],
    [error("format", { format: "uri" }), "must be a full web address, such as https://example.com/page"],
    [error("format", { format: "date" }), "must be a real date written YYYY-MM-DD"],
    [
      error("format", { format: "date-time" }),
      "must be a date and time with its time zone, such as 2024-03-05T14:30:00Z",
    ],
    [
      error("format", { format: "time" }),
      "must be a time of day written HH:MM or HH:MM:SS (00:00 to 23:59), without a time zone",
    ],
    [error("format", { format: "hostname" }), "must be a valid hostname"],
    [error("minLength", { limit: 1 }), "must not be empty"],
    [error("minLength", { limit: 8 }), "must be at least 8 characters"],
    [error("maxLength", { limit: 120 }), "must be at most 120 characters"],
    [error("enum", { allowedValues: [2, 3] }), "must be one of 2, 3"],
    [error("type", { type: "integer" }), "must be a whole number"],
    [error("type", { type: "number" }), "must be a number"],
    [error("uniqueItems", { i: 0, j: 1 }), "must not repeat values"],
    [error("multipleOf", { multipleOf: 0.01 }), "must have at most 2 decimal places"],
    [error("multipleOf", { multipleOf: 0.1 }), "must have at most 1 decimal place"],
    [error("multipleOf", { multipleOf: 0.25 }), "must be a multiple of 0.25"],
    [error("minimum", { limit: 0 }, "", "must be >= 0"), "must be >= 0"],
    [error("pattern", { pattern: "^a" }), "is invalid"],
  ])("%o → %s", (e, text) => {
    expect(friendlyMessage(e)).toBe(text);
  });

  it("leaves null out of a nullable field's choices and type", () => {
    expect(friendlyMessage(error("enum", { allowedValues: ["INR", "USD", null] }))).toBe(
      "must be one of INR, USD",
    );
    expect(friendlyMessage(error("type", { type: "string,null" }))).toBe("must be a string");
    expect(friendlyMessage(error("type", { type: "integer,null" }))).toBe("must be a whole number");
  });

  it("names the field by its property path", () => {
    expect(
      fieldErrors([
        error("required", { missingProperty: "deviceId" }, "/deviceInfo"),
        error("format", { format: "uri" }, "/images/0"),
        error("additionalProperties", { additionalProperty: "extra" }),
        error("type", { type: "object" }),
      ]),
    ).toEqual([
      { field: "deviceInfo.deviceId", message: "is required" },
      { field: "images.0", message: "must be a full web address, such as https://example.com/page" },
      { field: "extra", message: "is not allowed" },
      { field: "(body)", message: "must be a object" },
    ]);
  });
});
