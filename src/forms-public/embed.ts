/**
 * The embed script (`GET /forms/embed.js`, built as one self-contained classic script):
 *
 *   <div data-atelier-form="contact"></div>
 *   <script src="https://forms.example.com/forms/embed.js" async></script>
 *
 * Every `[data-atelier-form]` element (its value is the form's slug) gets the form:
 *
 * - `data-mode="iframe"` (the default): an iframe of the form's page (`/forms/f/{slug}?embed=1`,
 *   with the embedding page's query string, so that a view is attributed and hidden fields take
 *   their URL parameters) that takes the height of its content. Styles cannot clash, and the
 *   page needs no CORS. The iframe's page says when it is ready and tells its first-touch
 *   setting and tracked parameters (embed-protocol.ts); the script answers with the first touch
 *   and the embedding page's address and referrer. So the iframe mode fetches nothing itself,
 *   and a view is counted once, by the page.
 * - `data-mode="inline"`: the form is fetched (`/forms/f/{slug}.json`) and put in the page,
 *   with its stylesheet (inlined in this script, injected once) under `.atf`; the host page's
 *   own CSS may then reach it, and the forms service must answer this site's requests (CORS).
 *
 * First touch: when the form's setting is `on`, or `consent` and the visitor consented (the
 * script tag has `data-consent="granted"`, or the site calls `AtelierForms.grantConsent()`),
 * the first visit seen is kept in this site's localStorage (`atelier_first_touch`), never
 * overwritten, and sent with each answer. The forms base is the script's own folder
 * (`data-base` on the script tag overrides it).
 *
 * `window.AtelierForms = { grantConsent(), mount(el) }`: `mount` is for elements added later.
 */
import type { FirstTouchMode } from "../../schemas/form-definition";
import { EMBED_MESSAGES, embedMessage, formsBaseOf } from "./embed-protocol";
import { enhanceForm } from "./enhance";
import formCss from "./form.css?inline";
import { CLOSED_MESSAGE } from "./messages";
import type { PublicForm } from "./public-form";
import { renderFormHtml } from "./render";
import {
  type FirstTouch,
  firstTouchAllowed,
  type PageVisit,
  pageTracking,
  rememberFirstTouch,
  type TouchStorage,
  visitTouch,
} from "./tracking";

export interface AtelierFormsApi {
  /** The visitor consented: forms whose first-touch setting is `consent` keep and send it now. */
  grantConsent(): void;
  /** Puts the form named by `el`'s `data-atelier-form` in it (once). */
  mount(el: HTMLElement): void;
}

declare global {
  interface Window {
    AtelierForms?: AtelierFormsApi;
  }
}

const LOAD_FAILED = "This form could not be loaded.";
const STYLE_ID = "atelier-forms-style";

function setUp(): AtelierFormsApi {
  const script = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;
  const base = formsBaseOf({ src: script?.src, base: script?.dataset.base }, location.href);
  const origin = new URL(base, location.href).origin;
  let consent = script?.dataset.consent === "granted";
  /** This page load: the first touch, if none was kept before. */
  const landing = { href: location.href, referrer: document.referrer };
  const arrived = new Date();
  const storage = siteStorage();
  /** Forms that wait for consent to send their first touch. */
  const waiting = new Set<() => void>();
  const frames = new Map<Window, HTMLIFrameElement>();

  const firstTouch = (mode: FirstTouchMode, names: readonly string[]): FirstTouch | null =>
    firstTouchAllowed(mode, consent)
      ? rememberFirstTouch(storage, visitTouch(landing, names, arrived))
      : null;
  const here = (): PageVisit => ({ href: location.href, referrer: document.referrer });

  window.addEventListener("message", (event) => {
    const frame = event.origin === origin && event.source ? frames.get(event.source as Window) : undefined;
    if (!frame) return;
    const height = embedMessage(event.data, EMBED_MESSAGES.height);
    if (height && Number.isFinite(height.height))
      frame.style.height = `${Math.max(0, Math.ceil(height.height))}px`;
    const ready = embedMessage(event.data, EMBED_MESSAGES.ready);
    if (ready) {
      if (typeof ready.name === "string" && ready.name && !frame.dataset.titled) frame.title = ready.name;
      const names = Array.isArray(ready.parameters)
        ? ready.parameters.filter((n) => typeof n === "string")
        : [];
      const send = () =>
        frame.contentWindow?.postMessage(
          { type: EMBED_MESSAGES.firstTouch, data: firstTouch(ready.firstTouch, names), page: here() },
          origin,
        );
      send();
      if (ready.firstTouch === "consent" && !consent) waiting.add(send);
    }
    // The page shrank to its thank-you message: bring it into view if it went above.
    if (embedMessage(event.data, EMBED_MESSAGES.sent) && frame.getBoundingClientRect().top < 0)
      frame.scrollIntoView({ block: "start", behavior: "smooth" });
  });

  function mountFrame(el: HTMLElement, slug: string) {
    const src = new URL(`${base}/f/${encodeURIComponent(slug)}`, location.href);
    for (const [name, value] of new URLSearchParams(location.search))
      if (name !== "embed") src.searchParams.append(name, value);
    src.searchParams.set("embed", "1");
    const frame = document.createElement("iframe");
    frame.src = src.href;
    frame.title = el.dataset.title || "Form";
    if (el.dataset.title) frame.dataset.titled = "";
    frame.setAttribute("style", "display:block;width:100%;height:420px;border:0;background:transparent");
    el.replaceChildren(frame);
    if (frame.contentWindow) frames.set(frame.contentWindow, frame);
  }

  async function mountInline(el: HTMLElement, slug: string) {
    if (!document.getElementById(STYLE_ID)) {
      const style = document.createElement("style");
      style.id = STYLE_ID;
      style.textContent = formCss;
      document.head.append(style);
    }
    const path = `${base}/f/${encodeURIComponent(slug)}`;
    // This request counts the view (`view=1`); the page's UTM parameters attribute it.
    const query = new URLSearchParams([
      ["view", "1"],
      ...[...new URLSearchParams(location.search)].filter(([name]) => name.startsWith("utm_")),
    ]).toString();
    el.setAttribute("aria-busy", "true");
    const response = await fetch(`${path}.json?${query}`, { credentials: "omit" }).catch(() => null);
    const form = response?.ok ? ((await response.json().catch(() => null)) as PublicForm | null) : null;
    el.removeAttribute("aria-busy");
    if (!form) {
      const text = document.createElement("p");
      text.className = "atf atf-closed";
      text.textContent = response?.status === 410 ? CLOSED_MESSAGE : LOAD_FAILED;
      el.replaceChildren(text);
      return;
    }
    const names = form.settings.utm.parameters;
    let touch = firstTouch(form.settings.firstTouch, names);
    if (form.settings.firstTouch === "consent" && !touch)
      waiting.add(() => {
        touch = firstTouch(form.settings.firstTouch, names);
      });
    const submitUrl = `${path}/submissions`;
    el.innerHTML = renderFormHtml(form, { action: submitUrl });
    enhanceForm(el, form, {
      submitUrl,
      tracking: () => ({ ...pageTracking(here(), names), firstTouch: touch }),
    });
  }

  return {
    grantConsent() {
      consent = true;
      for (const send of waiting) send();
      waiting.clear();
    },
    mount(el) {
      const slug = el.dataset.atelierForm;
      if (!slug || el.hasAttribute("data-atelier-mounted")) return;
      el.setAttribute("data-atelier-mounted", "");
      if (el.dataset.mode === "inline") void mountInline(el, slug);
      else mountFrame(el, slug);
    },
  };
}

/** This site's localStorage, or null where the browser refuses it (some private modes throw). */
function siteStorage(): TouchStorage {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const api = window.AtelierForms ?? setUp();
window.AtelierForms = api;
const mountAll = () => {
  for (const el of document.querySelectorAll<HTMLElement>("[data-atelier-form]")) api.mount(el);
};
if (document.readyState === "loading")
  document.addEventListener("DOMContentLoaded", mountAll, { once: true });
else mountAll();
