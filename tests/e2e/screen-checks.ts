/**
 * What a person must never meet on a screen (issue 27), checked on every screen of the
 * accessibility pass: an error in the console, an uncaught error in the page, and words that
 * are slips of the code showing through — "undefined", "NaN", "[object Object]", a system error
 * code (ENOTFOUND, ECONNREFUSED, ERR_…) or an HTTP status given as the message ("409",
 * "Request failed with status code 500"). Read from what is shown: the visible text, the values
 * of visible fields, and the names and hints a screen reader or a hover gives (aria-label,
 * title, alt, placeholder).
 */
import type { Page } from "@playwright/test";

/**
 * The browser's own notes of answers the app expects and handles, which are not errors: a 417
 * asks the app for a new access token, after which it sends the request again (the e2e server's
 * tokens live 5 s, so this happens on most screens); a socket.io poll answered 400 is a live
 * connection the server already closed (a token ran out), which the client opens anew.
 */
const expected = (text: string, url: string) =>
  text.startsWith("Failed to load resource") &&
  (/status of 417\b/.test(text) || (/status of 400\b/.test(text) && url.includes("/socket.io/")));

/**
 * Follows the page's console and uncaught errors from now on; `take()` hands over those seen
 * since the last call (a screen's own, when called once its screen is drawn and scanned).
 */
export function watchErrors(page: Page): { take: () => string[] } {
  const seen: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error" || expected(message.text(), message.location().url)) return;
    // The address too: "Failed to load resource" alone does not say which.
    seen.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => seen.push(`uncaught error: ${error.message}`));
  return { take: () => seen.splice(0) };
}

/** Slips anywhere in what is shown, each with a name for the report. */
const SLIPS: readonly [name: string, pattern: string][] = [
  ['"undefined"', String.raw`\bundefined\b`],
  ['"NaN"', String.raw`\bNaN\b`],
  ['"[object Object]"', String.raw`\[object Object\]`],
  [
    "a system error code",
    String.raw`\b(?:ENOTFOUND|ECONNREFUSED|ECONNRESET|ECONNABORTED|ETIMEDOUT|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE|EPROTO|ENOENT|EACCES|EPERM|ERR_[A-Z0-9_]+)\b`,
  ],
  ["an HTTP status as the message", String.raw`\b(?:status(?: code)?|HTTP) [45]\d\d\b`],
];

/** Where a screen says what went wrong: there, a bare 4xx/5xx status is a message in code. */
const MESSAGES =
  ".ant-message-notice, .ant-notification-notice, .ant-alert, .ant-form-item-explain-error, .ant-result-title, .ant-result-subtitle, [role=alert]";
const BARE_STATUS = String.raw`(?:^|[\s:(])[45]\d\d(?:$|[\s.,)])`;

/** The slips on the page as it is now, in words: what was found and the text around it. */
export async function visibleSlips(page: Page): Promise<string[]> {
  return page.evaluate(
    ({ slips, messages, bareStatus }) => {
      const shown = (el: Element) => (el as HTMLElement).checkVisibility?.() ?? true;
      const texts: string[] = [document.body.innerText];
      for (const el of document.querySelectorAll("[aria-label], [title], [alt], [placeholder]")) {
        if (!shown(el)) continue;
        for (const name of ["aria-label", "title", "alt", "placeholder"]) {
          const value = el.getAttribute(name);
          if (value) texts.push(`${name}="${value}"`);
        }
      }
      for (const el of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea")) {
        if (el.type !== "hidden" && el.type !== "password" && el.value && shown(el))
          texts.push(`value "${el.value}"`);
      }
      const found: string[] = [];
      const around = (text: string, index: number) =>
        text
          .slice(Math.max(0, index - 40), index + 40)
          .replace(/\s+/g, " ")
          .trim();
      for (const text of texts) {
        for (const [name, pattern] of slips) {
          const match = new RegExp(pattern).exec(text);
          if (match) found.push(`${name} in "…${around(text, match.index)}…"`);
        }
      }
      for (const el of document.querySelectorAll(messages)) {
        const text = (el as HTMLElement).innerText ?? "";
        const match = new RegExp(bareStatus).exec(text);
        if (match && shown(el)) found.push(`an HTTP status as the message in "${around(text, match.index)}"`);
      }
      return [...new Set(found)];
    },
    { slips: SLIPS, messages: MESSAGES, bareStatus: BARE_STATUS },
  );
}
