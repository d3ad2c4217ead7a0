import { describe, expect, it } from "vitest";
import { ELLIPSIS, randomId, truncate } from "./text";

describe("truncate", () => {
  it("uses a 3-character ellipsis", () => {
    expect(ELLIPSIS).toBe("...");
    expect(ELLIPSIS).toHaveLength(3);
  });

  it("leaves text that fits unchanged", () => {
    expect(truncate("Short", 10)).toBe("Short");
    expect(truncate("Exactly10!", 10)).toBe("Exactly10!");
  });

  it("counts the ellipsis toward the limit", () => {
    expect(truncate("Autumn catalogue", 10)).toBe("Autumn ...");
    expect(truncate("Autumn catalogue", 10)).toHaveLength(10);
  });

  it("never exceeds max for any limit", () => {
    const text = "The quick brown fox jumps over the lazy dog";
    for (let max = 0; max <= text.length + 2; max++) {
      expect(truncate(text, max).length).toBeLessThanOrEqual(max);
    }
  });

  it("cuts without an ellipsis when there is no room for one", () => {
    expect(truncate("abcdef", 3)).toBe("abc");
    expect(truncate("abcdef", 1)).toBe("a");
    expect(truncate("abcdef", 0)).toBe("");
    expect(truncate("abcdef", -5)).toBe("");
  });

  it("does not split a surrogate pair", () => {
    expect(truncate("ab😀cdefgh", 6)).toBe("ab...");
  });
});

describe("randomId", () => {
  it("has length 8 by default", () => {
    expect(randomId()).toHaveLength(8);
  });

  it("honours a given length and is alphanumeric", () => {
    expect(randomId(40)).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(randomId(0)).toBe("");
  });

  it("differs between calls", () => {
    const ids = new Set(Array.from({ length: 200 }, () => randomId()));
    expect(ids.size).toBe(200);
  });

  it("uses the whole alphabet", () => {
    const seen = new Set(randomId(5000));
    expect(seen.size).toBe(62);
  });
});
