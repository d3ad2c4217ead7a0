import { describe, expect, it } from "vitest";
import { spliceAtCaret } from "./insert-at-caret";

describe("spliceAtCaret", () => {
  it("puts the token at the caret and the caret just after it", () => {
    expect(spliceAtCaret("Hello , bye", "{{client.name}}", 6)).toEqual({
      text: "Hello {{client.name}}, bye",
      caret: 21,
    });
  });

  it("replaces a selection", () => {
    expect(spliceAtCaret("Dear NAME,", "{{client.first_name}}", 5, 9)).toEqual({
      text: "Dear {{client.first_name}},",
      caret: 26,
    });
  });

  it("adds at the end of a field that never had the caret, or whose caret is past its text", () => {
    expect(spliceAtCaret("Hi ", "{{user.name}}", undefined)).toEqual({ text: "Hi {{user.name}}", caret: 16 });
    expect(spliceAtCaret("Hi ", "{{user.name}}", null, null)).toEqual({
      text: "Hi {{user.name}}",
      caret: 16,
    });
    expect(spliceAtCaret("Hi", "!", 40, 50)).toEqual({ text: "Hi!", caret: 3 });
  });

  it("reads a selection given backwards as its start", () => {
    expect(spliceAtCaret("abcdef", "X", 4, 2)).toEqual({ text: "abcdXef", caret: 5 });
  });
});
