/**
 * The plain-text part of an HTML mail (the rich-text editor's output): mail programs that show
 * text only, and the timeline, read this. Enough for what the editor writes (paragraphs,
 * headings, lists, quotes, links, line breaks), not a general HTML renderer. `textToHtml` goes
 * the other way, for a message written as plain text.
 */
import { escapeHtml } from "../../schemas/merge-fields";

const NAMED: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/** `&amp;`, `&#39;`, `&#x2014;` … as the characters they stand for. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

/**
 * HTML as readable text: blocks on their own lines, list items with a dash, a link's address
 * after its words, entities decoded.
 *
 * @example
 * htmlToText('<p>Hi <b>Ann</b></p><ul><li>One</li></ul><p><a href="https://x.example">See</a></p>');
 * // "Hi Ann\n\n- One\n\nSee (https://x.example)"
 */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(
      /<a\b[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')[^>]*>([\s\S]*?)<\/a\s*>/gi,
      (_m, dq, sq, inner) => {
        const href = decodeEntities(dq ?? sq ?? "");
        const words = inner.replace(/<[^>]*>/g, "");
        return decodeEntities(words).trim() === href || !href
          ? words
          : `${words} (${href.replace(/^mailto:/i, "")})`;
      },
    )
    .replace(/\s*\n\s*/g, " ")
    // The editor wraps a list item's words in a paragraph: one line per item all the same.
    .replace(/(<li\b[^>]*>)\s*<p\b[^>]*>/gi, "$1")
    .replace(/<\/p\s*>\s*(<\/li\s*>)/gi, "$1")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<li\b[^>]*>/gi, "\n- ")
    .replace(/<\/(p|div|h[1-6]|blockquote|ul|ol|pre|table|tr)\s*>/gi, "\n\n")
    .replace(/<(p|div|h[1-6]|blockquote|ul|ol|pre|table|tr|hr)\b[^>]*>/gi, "\n\n")
    .replace(/<[^>]*>/g, "");
  return decodeEntities(text)
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** A web address in plain text; punctuation that ends a sentence is not part of it. */
const TEXT_URL = /\bhttps?:\/\/[^\s<>"']*[^\s<>"'.,;:!?)\]]/gi;

/** One paragraph's text as HTML: escaped, web addresses as links (so a tracked mail can count them). */
function paragraphHtml(text: string): string {
  let html = "";
  let at = 0;
  for (const match of text.matchAll(TEXT_URL)) {
    const url = escapeHtml(match[0]);
    html += `${escapeHtml(text.slice(at, match.index))}<a href="${url}">${url}</a>`;
    at = match.index + match[0].length;
  }
  return (html + escapeHtml(text.slice(at))).replace(/\n/g, "<br>");
}

/**
 * Plain text as HTML: characters escaped, paragraphs (split by blank lines) as `<p>`, other line
 * breaks as `<br>`, web addresses as links. How a message written as text (a sequence's email
 * step, an automation's) is kept beside the mails written in the rich-text editor, and sent as
 * the mail's HTML part; `htmlToText` gives the text back.
 *
 * @example
 * textToHtml("Hi <Ann>,\nthanks.\n\nBye"); // "<p>Hi &lt;Ann&gt;,<br>thanks.</p><p>Bye</p>"
 * textToHtml("See https://example.com/a."); // '<p>See <a href="https://example.com/a">https://example.com/a</a>.</p>'
 */
export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${paragraphHtml(p)}</p>`)
    .join("");
}
