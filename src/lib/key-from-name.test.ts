import { describe, expect, it } from "vitest";
import { followName, keyFromName, keyRuleOf } from "./key-from-name";

const apiName = { separator: "-", maxLength: 63, startWithLetter: true } as const;

describe("keyFromName", () => {
  it("makes a key in the key's alphabet", () => {
    expect(keyFromName("Reading minutes", { separator: "_", maxLength: 63 })).toBe("reading_minutes");
    expect(keyFromName("  Société Générale! ", { separator: "-", maxLength: 63 })).toBe("societe-generale");
    expect(keyFromName("2024 Autumn", apiName)).toBe("autumn");
    expect(keyFromName("2024 Autumn", { separator: "-", maxLength: 63 })).toBe("2024-autumn");
    expect(keyFromName("!!!", apiName)).toBe("");
  });

  it("never fills past the key's length, cutting at a word's end when one is near", () => {
    const name = `${"Reading minutes for a very long content type name ".repeat(2)}end`;
    const key = keyFromName(name, apiName);
    expect(key.length).toBeLessThanOrEqual(63);
    expect(key).toBe("reading-minutes-for-a-very-long-content-type-name-reading");
    expect(keyFromName("x".repeat(80), apiName)).toHaveLength(63);
    expect(keyFromName("ab cd", { separator: "-", maxLength: 3 })).toBe("ab");
  });
});

describe("followName", () => {
  it("follows the name until the person writes a key of their own", () => {
    expect(followName("", "Blog post", "", apiName)).toBe("blog-post");
    expect(followName("Blog post", "Blog posts", "blog-post", apiName)).toBe("blog-posts");
    expect(followName("Blog post", "Blog posts", "articles", apiName)).toBeUndefined();
    // A cleared key follows again.
    expect(followName("Blog post", "Blog posts", "", apiName)).toBe("blog-posts");
  });
});

describe("keyRuleOf", () => {
  it("reads the rule from a key field's schema", () => {
    expect(keyRuleOf({ pattern: "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$", maxLength: 80 })).toEqual({
      separator: "-",
      maxLength: 80,
      startWithLetter: false,
    });
    expect(keyRuleOf({ pattern: "^[a-z][a-z0-9_]{0,39}$", maxLength: 40 })).toEqual({
      separator: "_",
      maxLength: 40,
      startWithLetter: true,
    });
  });
});
