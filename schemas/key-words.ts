/**
 * Property names in words (a module of its own: the list screens need only this, and the
 * validation messages of error-messages.ts stay with the forms that use them).
 */

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Words of keys said otherwise: acronyms, and the list contract's `q`. */
const ACRONYMS: Readonly<Record<string, string>> = {
  id: "ID",
  ids: "IDs",
  url: "URL",
  pdf: "PDF",
  sku: "SKU",
  q: "search text",
};

/**
 * A property name in words, for a field without a title: `deviceId` → "Device ID",
 * `sku_code` → "SKU code".
 *
 * @example
 * wordsOfKey("targetFolderId"); // "Target folder ID"
 */
export function wordsOfKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_-]+/)
    .filter(Boolean)
    // Own keys only: "constructor" is a word here, not Object's constructor.
    .map((w) => (Object.hasOwn(ACRONYMS, w.toLowerCase()) ? ACRONYMS[w.toLowerCase()] : w.toLowerCase()));
  return capitalise(words.join(" ")) || "This value";
}
