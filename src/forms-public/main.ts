/**
 * The script of a public form's page (form.html, `GET /forms/f/{slug}`): it enhances the form the
 * server rendered, with the form's data the server put beside it. In an iframe of the embed
 * script (`?embed=1`) it also tells the parent its height and takes from it the first touch and
 * the embedding page's address (embed-protocol.ts). Plain DOM: no React in this bundle.
 */
import "./form.css";
import {
  EMBED_BODY_CLASS,
  EMBED_MESSAGES,
  type EmbedMessage,
  embedMessage,
  FORM_DATA_ID,
} from "./embed-protocol";
import { enhanceForm } from "./enhance";
import type { PublicForm } from "./public-form";
import { asFirstTouch, type FirstTouch, type PageVisit, pageTracking } from "./tracking";

function start() {
  const data = document.getElementById(FORM_DATA_ID)?.textContent;
  if (!data) return;
  const form = JSON.parse(data) as PublicForm;
  const embed =
    document.body.classList.contains(EMBED_BODY_CLASS) ||
    new URLSearchParams(location.search).get("embed") === "1";
  document.body.classList.toggle(EMBED_BODY_CLASS, embed);
  const framed = embed && window.parent !== window;
  const tell = (message: EmbedMessage) => {
    // The parent may be any site: nothing said here is secret.
    if (framed) window.parent.postMessage(message, "*");
  };

  let host: PageVisit | null = null;
  let firstTouch: FirstTouch | null = null;
  const root = document.querySelector<HTMLElement>(".atf-page-main") ?? document.body;
  // The server wrote where the form posts (its forms base): the script posts there too.
  const action = root.querySelector("form.atf")?.getAttribute("action");
  enhanceForm(root, form, {
    submitUrl: action || `/forms/f/${encodeURIComponent(form.slug)}/submissions`,
    tracking: () => ({
      ...pageTracking(
        host ?? { href: location.href, referrer: document.referrer },
        form.settings.utm.parameters,
      ),
      firstTouch,
    }),
    onSent: () => tell({ type: EMBED_MESSAGES.sent, slug: form.slug }),
  });
  if (!framed) return;

  window.addEventListener("message", (event) => {
    const message =
      event.source === window.parent ? embedMessage(event.data, EMBED_MESSAGES.firstTouch) : null;
    if (!message) return;
    firstTouch = asFirstTouch(message.data);
    const page = message.page;
    if (page && typeof page.href === "string" && typeof page.referrer === "string")
      host = { href: page.href, referrer: page.referrer };
  });
  // The body holds the whole page (a flow root without margins in embed mode, see form.css).
  let last = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    tell({ type: EMBED_MESSAGES.height, slug: form.slug, height });
  }).observe(document.body);
  tell({
    type: EMBED_MESSAGES.ready,
    slug: form.slug,
    name: form.name,
    firstTouch: form.settings.firstTouch,
    parameters: form.settings.utm.parameters,
  });
}

start();
