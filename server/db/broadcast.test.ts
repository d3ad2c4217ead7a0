/**
 * `splitUtf8`: the parts of a long broadcast fit NOTIFY's byte bound and join back to the
 * same text. tests/server/realtime-cluster.test.ts sends a long message between instances.
 */
import { describe, expect, it } from "vitest";
import { splitUtf8 } from "./broadcast";

describe("splitUtf8", () => {
  it("cuts at the byte bound, never inside a character, and joins back to the text", () => {
    const text = `${"a".repeat(10)}é€😀${"ü".repeat(7)}x`; // 1-, 2-, 3- and 4-byte characters
    for (const max of [4, 5, 7, 16]) {
      const parts = splitUtf8(text, max);
      expect(parts.join("")).toBe(text);
      for (const part of parts) {
        expect(Buffer.byteLength(part)).toBeLessThanOrEqual(max);
        expect(Buffer.from(part).toString()).toBe(part); // no half character at either end
      }
    }
    // A lone surrogate is sent as U+FFFD, 3 bytes.
    const lone = splitUtf8("ab\ud800cd", 4);
    expect(lone.join("")).toBe("ab\ud800cd");
    for (const part of lone) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(4);
    expect(splitUtf8("aé€", 3)).toEqual(["aé", "€"]);
    expect(splitUtf8("😀😀", 4)).toEqual(["😀", "😀"]);
  });

  it("keeps a short text whole", () => {
    expect(splitUtf8("", 10)).toEqual([""]);
    expect(splitUtf8("short", 10)).toEqual(["short"]);
  });
});
