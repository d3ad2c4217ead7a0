/**
 * Keys made from names: a CMS type's API name, a field's API name, a navigation's name, a
 * form's slug, a domain's key. Every screen that offers a key beside a name fills it the same
 * way (issue 27): from the name, in the key's own alphabet, never past the key's length, and
 * only until the person edits the key themselves.
 */
import { slugify } from "../../schemas/cms-fields";

/** What a key may hold, as its field says (pattern and maxLength). */
export interface KeyRule {
  /** The separator between words: `-` (slugs, API names) or `_` (field names). */
  separator: "-" | "_";
  maxLength: number;
  /** Whether the key must start with a letter (a digit may start a slug, not an API name). */
  startWithLetter?: boolean;
}

/**
 * The key a name makes: lower-case ASCII words joined by the separator, at most `maxLength`
 * characters, cut at a word's end when one is near (never ending on a separator).
 *
 * @example
 * keyFromName("Reading minutes", { separator: "_", maxLength: 63 }); // "reading_minutes"
 * keyFromName("2024 Autumn", { separator: "-", maxLength: 63, startWithLetter: true }); // "autumn"
 */
export function keyFromName(name: string, rule: KeyRule): string {
  let key = slugify(name);
  if (rule.startWithLetter) key = key.replace(/^[^a-z]+/, "");
  if (key.length > rule.maxLength) {
    const cut = key.slice(0, rule.maxLength);
    // A whole word dropped reads better than one cut mid-way, unless that loses too much.
    const lastBreak = key[rule.maxLength] === "-" ? cut.length : cut.lastIndexOf("-");
    key = lastBreak >= rule.maxLength / 2 ? cut.slice(0, lastBreak) : cut;
  }
  key = key.replace(/-+$/, "");
  return rule.separator === "_" ? key.replace(/-/g, "_") : key;
}

/** A key field's rule from its JSON Schema (pattern and maxLength), for the generated forms. */
export function keyRuleOf(field: { pattern?: string; maxLength?: number }): KeyRule {
  const pattern = field.pattern ?? "";
  // A dash the key may hold, not one of a range (a-z).
  const dash = pattern.replace(/[a-zA-Z0-9]-[a-zA-Z0-9]/g, "").includes("-");
  return {
    separator: pattern.includes("_") && !dash ? "_" : "-",
    maxLength: field.maxLength ?? 63,
    startWithLetter: /^\^\[a-z\]/.test(pattern),
  };
}

/**
 * The key after the name changed from `before` to `after`: the new name's key while the key
 * still is what the old name made (or empty), else undefined: the person wrote their own key,
 * which is theirs to keep.
 */
export function followName(before: string, after: string, key: string, rule: KeyRule): string | undefined {
  if (key && key !== keyFromName(before, rule)) return undefined;
  const next = keyFromName(after, rule);
  return next === key ? undefined : next;
}
