/**
 * Content in several languages in the browser (issue 29): an entry started in another locale
 * from its locale switch, edited with its localised fields only (shared ones stay the entry's),
 * published, read from the delivery API in that locale; a type's list by locale and by
 * "missing in".
 */
import { expect, test } from "@playwright/test";
import { type ApiSession, apiSession, choose, E2E_ORIGIN, openSignedIn } from "./helpers";
import { shoot } from "./shots";

test.describe.configure({ timeout: 120_000 });

test("an entry translated from its locale switch, listed by locale and delivered in it", async ({
  page,
  request,
}) => {
  const run = Date.now().toString(36);
  const admin: ApiSession = await apiSession(request);
  const domain = await admin.expect<{ id: string }>("POST", "/cms/domains", 201, {
    key: `in-${run}`,
    name: `India ${run}`,
    default_locale: "en-IN",
    locales: ["hi-IN", "ta-IN → hi-IN"],
  });
  await admin.expect("POST", "/cms/content-types", 201, {
    kind: "collection",
    apiName: `offer-${run}`,
    name: `Offer ${run}`,
    properties: {
      title: { "x-kind": "text", title: "Title" },
      price: { "x-kind": "integer", title: "Price", "x-shared": true },
    },
    required: ["title"],
  });
  const entry = await admin.expect<{ id: string }>("POST", `/cms/entries/offer-${run}`, 201, {
    title: "Festive offer",
    price: 999,
    domain_ids: [domain.id],
  });
  await admin.expect("POST", `/cms/entries/offer-${run}/${entry.id}/publish`, 200, {});

  await page.setViewportSize({ width: 1440, height: 900 });
  await openSignedIn(page, `cms/entries/offer-${run}/edit/${entry.id}`);
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue("Festive offer");
  const switcher = page.getByTestId("entry-locale");
  await expect(switcher).toContainText("en-IN (default)");
  await switcher.click();
  await expect(page.getByRole("option", { name: /hi-IN\s+Missing/ })).toBeVisible();
  await shoot(page, "cms-locales", "switch");
  await page.getByRole("option", { name: /hi-IN\s+Missing/ }).click();
  const dialog = page.getByRole("dialog", { name: "Start hi-IN" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Start hi-IN" }).click();

  // The Hindi version: its localised fields, copied from English; the price is the entry's.
  await expect(page.getByText("The hi-IN version: its localised fields.")).toBeVisible();
  const title = page.getByLabel("Title", { exact: true });
  await expect(title).toHaveValue("Festive offer");
  await expect(page.getByLabel("Price", { exact: true })).toHaveCount(0);
  await expect(switcher).toContainText("hi-IN");
  await title.fill("त्योहार ऑफ़र");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("entry-status")).toBeVisible();
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(page.getByTestId("entry-status")).toHaveText("Published");

  const delivered = await request.get(
    `${E2E_ORIGIN}/public-cms/in-${run}/offer-${run}/${entry.id}?locale=ta-IN`,
  );
  expect(await delivered.json()).toMatchObject({
    data: { title: "त्योहार ऑफ़र", price: 999, locale: "hi-IN" },
  });

  // The list, in Hindi and missing in Tamil.
  await page.goto(`${E2E_ORIGIN}/manage/cms/entries/offer-${run}`);
  await expect(page.locator(".ant-table-row")).toHaveCount(1);
  await choose(page, "Locale", "hi-IN");
  await expect(page.locator(".ant-table-row").first()).toContainText("त्योहार ऑफ़र");
  await choose(page, "Locale", "Missing in ta-IN");
  await expect(page.locator(".ant-table-row").first()).toContainText("Festive offer");
  await shoot(page, "cms-locales", "list-missing");

  // The domain's form: its locales with their fallbacks.
  await page.goto(`${E2E_ORIGIN}/manage/cms/domains/edit/${domain.id}`);
  await expect(page.getByLabel("Default locale", { exact: true })).toHaveValue("en-IN");
  await shoot(page, "cms-locales", "domain-form");
});
