/**
 * What a form's page in an iframe and the embed script on the embedding page say to each other
 * (`postMessage`), and where the script finds the forms service. Pure, and light: both the
 * page's bundle and embed.js carry it.
 *
 *   page → parent  `ready`        once enhanced: the form's name, first-touch setting, tracked names
 *   parent → page  `first-touch`  the answer to `ready`: the first touch (or null) and the
 *                                 embedding page's address and referrer, for `tracking`
 *   page → parent  `height`       the page's height, whenever it changes
 *   page → parent  `sent`         the answers were stored (the parent brings the message into view)
 */
import type { FirstTouchMode } from "../../schemas/form-definition";
import type { FirstTouch, PageVisit } from "./tracking";

/** The id of the `<script type="application/json">` holding the page's {@link PublicForm}. */
export const FORM_DATA_ID = "atelier-form-data";

/** The body class of a page shown in another site's iframe: no page chrome, transparent. */
export const EMBED_BODY_CLASS = "atf-embed";

export const EMBED_MESSAGES = {
  firstTouch: "atelier-form:first-touch",
  height: "atelier-form:height",
  ready: "atelier-form:ready",
  sent: "atelier-form:sent",
} as const;

export type EmbedMessage =
  | {
      type: typeof EMBED_MESSAGES.ready;
      slug: string;
      name: string;
      firstTouch: FirstTouchMode;
      parameters: string[];
    }
  | { type: typeof EMBED_MESSAGES.firstTouch; data: FirstTouch | null; page: PageVisit }
  | { type: typeof EMBED_MESSAGES.height; slug: string; height: number }
  | { type: typeof EMBED_MESSAGES.sent; slug: string };

/** A message of this protocol of the given type, or null (other scripts post messages too). */
export function embedMessage<T extends EmbedMessage["type"]>(
  data: unknown,
  type: T,
): Extract<EmbedMessage, { type: T }> | null {
  return data && typeof data === "object" && (data as { type?: unknown }).type === type
    ? (data as Extract<EmbedMessage, { type: T }>)
    : null;
}

/**
 * The forms base the embed script talks to: the script tag's `data-base`, else the folder the
 * script was loaded from (`https://forms.example.com/forms/embed.js` → `…/forms`), else, for a
 * copy loaded from the build's assets or with no known address, `/forms` on that origin.
 *
 * @example
 * formsBaseOf({ src: "https://f.example.com/forms/embed.js" }, "https://shop.example/"); // "https://f.example.com/forms"
 */
export function formsBaseOf(script: { src?: string; base?: string } | null, pageHref: string): string {
  try {
    if (script?.base) return new URL(script.base, pageHref).href.replace(/\/+$/, "");
    const src = new URL(script?.src || "/forms/embed.js", pageHref);
    const folder = src.pathname.replace(/\/[^/]*$/, "");
    return /\/assets$/.test(folder) ? `${src.origin}/forms` : `${src.origin}${folder}`;
  } catch {
    return "/forms";
  }
}
