/**
 * Live preview of a draft (issue 29) in the browser: a site on 127.0.0.1 (a loopback page with
 * the documented snippet, reading the draft from the delivery API with the preview token) is
 * opened beside the entry's editor; an edit, once autosaved, shows in the frame without a
 * reload of the editor; the device switch sizes the frame.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { type ApiSession, apiSession, E2E_ORIGIN, openSignedIn } from "./helpers";
import { shoot } from "./shots";

test.describe.configure({ timeout: 120_000 });

/**
 * A site's page as docs/cms-api.md "Live preview" tells one to write it: the draft read with
 * the token from its own address, and the snippet that reloads on each save.
 */
const sitePage = (apiOrigin: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Site</title></head>
<body style="font-family: sans-serif; margin: 24px">
<h1 id="title">Loading…</h1>
<script>
  const params = new URLSearchParams(location.search);
  const token = params.get("atelier-preview");
  const [, domain, type, slug] = location.pathname.split("/");
  fetch("${apiOrigin}/public-cms/" + domain + "/" + type + "/" + slug, {
    headers: token ? { "X-Atelier-Preview": token } : {},
  })
    .then((r) => r.json())
    .then((body) => { document.getElementById("title").textContent = body.data ? body.data.title : body.message; });
  // The snippet: reload when the editor saves the draft.
  if (token && window.parent !== window) {
    const admin = "${apiOrigin}";
    window.addEventListener("message", (event) => {
      if (event.origin === admin && event.data && event.data.type === "atelier:preview-saved") location.reload();
    });
    window.parent.postMessage({ type: "atelier:preview-ready" }, admin);
  }
</script>
</body></html>`;

let site: Server;
let siteOrigin = "";

test.beforeAll(async () => {
  site = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(request.method === "GET" ? sitePage(E2E_ORIGIN) : "");
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

test("an entry's draft previewed on its site beside the editor, refreshed on each autosave", async ({
  page,
  request,
}) => {
  const run = Date.now().toString(36);
  const admin: ApiSession = await apiSession(request);
  const domain = await admin.expect<{ id: string }>("POST", "/cms/domains", 201, {
    key: `site-${run}`,
    name: `Site ${run}`,
    allowed_origins: [siteOrigin],
    preview_url: `${siteOrigin}/{domain}/{type}/{slug}`,
  });
  await admin.expect("POST", "/cms/content-types", 201, {
    kind: "collection",
    apiName: `page-${run}`,
    name: `Page ${run}`,
    properties: {
      title: { "x-kind": "text", title: "Title" },
      slug: { "x-kind": "slug", title: "Slug", "x-slugFrom": "title" },
    },
  });
  const entry = await admin.expect<{ id: string }>("POST", `/cms/entries/page-${run}`, 201, {
    title: "Spring sale",
    domain_ids: [domain.id],
  });

  await page.setViewportSize({ width: 1440, height: 900 });
  await openSignedIn(page, `cms/entries/page-${run}/edit/${entry.id}`);
  const title = page.getByLabel("Title", { exact: true });
  await expect(title).toHaveValue("Spring sale");
  await page.getByRole("button", { name: "Preview", exact: true }).click();

  const pane = page.getByTestId("entry-preview");
  const frame = page.frameLocator('[data-testid="entry-preview-frame"]');
  await expect(frame.locator("#title")).toHaveText("Spring sale");
  // The site's snippet answered: saves are sent to it.
  await expect(pane.getByText("Live: the site refreshes each time the draft is saved.")).toBeVisible();

  await title.fill("Spring sale, extended");
  await expect(page.getByText(/Draft saved/)).toBeVisible({ timeout: 15_000 });
  await expect(frame.locator("#title")).toHaveText("Spring sale, extended");
  // The published API still has nothing: only the preview token opens the draft.
  const published = await request.get(`${E2E_ORIGIN}/public-cms/site-${run}/page-${run}/spring-sale`);
  expect(published.status()).toBe(404);

  await pane.getByTitle("Phone").click();
  await expect(page.getByTestId("entry-preview-frame")).toHaveCSS("width", "390px");
  await shoot(page, "cms-preview", "phone");
  await pane.getByTitle("Desktop").click();
  await shoot(page, "cms-preview", "desktop");

  // Closed, it stays closed for the next entry; the form is untouched.
  await pane.getByRole("button", { name: "Close the preview" }).click();
  await expect(pane).toBeHidden();
  await expect(title).toHaveValue("Spring sale, extended");
});
