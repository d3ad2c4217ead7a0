import { describe, expect, it } from "vitest";
import { isMissingRecord, recordState } from "./record-state";

const idle = { isError: false, isPaused: false };

describe("isMissingRecord", () => {
  it("is a 404 or a 400 about the id", () => {
    expect(isMissingRecord({ statusCode: 404, message: "Product not found" })).toBe(true);
    expect(isMissingRecord({ statusCode: 400, errors: { id: "ID must be a valid ID" } })).toBe(true);
    expect(isMissingRecord({ response: { status: 404 } })).toBe(true);
  });

  it("is not another 400, a 5xx or no answer", () => {
    expect(isMissingRecord({ statusCode: 400, errors: { name: "Required" } })).toBe(false);
    expect(isMissingRecord({ statusCode: 400 })).toBe(false);
    expect(isMissingRecord({ statusCode: 500 })).toBe(false);
    expect(isMissingRecord({ statusCode: 0 })).toBe(false);
    expect(isMissingRecord(null)).toBe(false);
  });
});

describe("recordState", () => {
  it("shows the record once there is one, even if a later refresh failed", () => {
    expect(recordState("a", { ...idle, data: { data: { id: "a" } } })).toBe("ready");
    expect(recordState("a", { data: { data: { id: "a" } }, isError: true, isPaused: false, error: {} })).toBe(
      "ready",
    );
  });

  it("waits while the first read runs", () => {
    expect(recordState("a", idle)).toBe("loading");
  });

  it("is not found for no id, a 404 or a malformed id", () => {
    expect(recordState(undefined, idle)).toBe("not-found");
    expect(recordState("a", { ...idle, isError: true, error: { statusCode: 404 } })).toBe("not-found");
    expect(
      recordState("x", { ...idle, isError: true, error: { statusCode: 400, errors: { id: "bad" } } }),
    ).toBe("not-found");
  });

  it("failed for a server error, no answer, or a read paused offline", () => {
    expect(recordState("a", { ...idle, isError: true, error: { statusCode: 500 } })).toBe("failed");
    expect(recordState("a", { ...idle, isError: true, error: { statusCode: 0 } })).toBe("failed");
    expect(recordState("a", { ...idle, isPaused: true })).toBe("failed");
  });
});
