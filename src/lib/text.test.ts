import { describe, expect, it } from "vitest";
import { ELLIPSIS, plural, randomId, truncate, truncateToWidth, withArticle } from "./text";

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

describe("truncateToWidth", () => {
  /** A monospace font of 8 px a character. */
  const mono = (s: string) => s.length * 8;

  it("leaves text that fits unchanged", () => {
    expect(truncateToWidth("Short", 40, mono)).toBe("Short");
    expect(truncateToWidth("", 0, mono)).toBe("");
  });

  it("ends a cut text with the 3-character ellipsis, within the width", () => {
    const out = truncateToWidth("The quick brown fox jumps", 96, mono);
    expect(out).toBe("The quick...");
    expect(out.endsWith("...")).toBe(true);
    expect(mono(out)).toBeLessThanOrEqual(96);
  });

  it("keeps the longest prefix that fits", () => {
    const text = "abcdefghijklmnopqrstuvwxyz";
    for (let width = 24; width < mono(text); width += 3) {
      const out = truncateToWidth(text, width, mono);
      expect(mono(out)).toBeLessThanOrEqual(width);
      // One more character would not fit.
      expect(mono(`${text.slice(0, out.length - 2)}...`)).toBeGreaterThan(width);
    }
  });

  it("drops spaces before the ellipsis", () => {
    expect(truncateToWidth("Autumn catalogue", 80, mono)).toBe("Autumn...");
  });

  it("answers an empty string when not even the ellipsis fits", () => {
    expect(truncateToWidth("abcdef", 16, mono)).toBe("");
  });

  it("works with a proportional font and never splits an emoji", () => {
    const proportional = (s: string) =>
      [...s].reduce((w, ch) => w + (ch === "i" ? 3 : ch === "😀" ? 14 : 7), 0);
    const out = truncateToWidth("iiii😀wwwwwwww", 40, proportional);
    expect(proportional(out)).toBeLessThanOrEqual(40);
    expect(out).toBe("iiii...");
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

describe("plural", () => {
  it("says one thing in the singular and any other count in the plural", () => {
    expect(plural(1, "catalogue")).toBe("1 catalogue");
    expect(plural(0, "catalogue")).toBe("0 catalogues");
    expect(plural(2, "row")).toBe("2 rows");
    expect(plural(-1, "file")).toBe("-1 files");
  });

  it("takes an irregular plural and separates thousands", () => {
    expect(plural(1, "entry", "entries")).toBe("1 entry");
    expect(plural(1200, "entry", "entries")).toBe("1,200 entries");
  });
});

describe("withArticle", () => {
  it("puts a or an before a word, by its first letter", () => {
    expect(withArticle("automation")).toBe("an automation");
    expect(withArticle("opportunity", true)).toBe("An opportunity");
    expect(withArticle("product", true)).toBe("A product");
  });

  it("goes by the sound: silent h, a vowel said as a consonant, acronyms letter by letter (issue 27)", () => {
    expect(withArticle("industry")).toBe("an industry");
    expect(withArticle("opportunity")).toBe("an opportunity");
    expect(withArticle("hour")).toBe("an hour");
    expect(withArticle("user")).toBe("a user");
    expect(withArticle("unit")).toBe("a unit");
    expect(withArticle("umbrella")).toBe("an umbrella");
    expect(withArticle("SMS template")).toBe("an SMS template");
    expect(withArticle("URL")).toBe("a URL");
    expect(withArticle("CSV file", true)).toBe("A CSV file");
  });
});
