/**
 * Online store › sync in Chromium, against the BigCommerce stand-in (tests/e2e/fake-store.ts, 120
 * products, every fifth with two variants; its product pages answer slowly enough to watch): a
 * store connected, "Sync now" shows the progress bar, then the report with its counts and lines,
 * filterable by what was done; the store's products are listed with their store ids.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { E2E_STORE } from "./env";
import { apiSession, openSignedIn } from "./helpers";
import { shoot } from "./shots";

const SCREEN = { timeout: 60_000 };

/** Serious and critical accessibility violations of the page as it is now. */
async function violations(page: Page): Promise<string[]> {
  const { violations: found } = await new AxeBuilder({ page }).setLegacyMode().analyze();
  return found
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id} at ${n.target.join(" ")}: ${v.help}`));
}

test("sync a store: the progress bar, then the report and the store's products", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const admin = await apiSession(request);
  const store = await admin.expect<{ id: string }>("POST", "/api/store/connections", 201, {
    name: "Sync store",
    storeHash: E2E_STORE.hash,
    token: E2E_STORE.token,
  });
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openSignedIn(page, "store");
    await expect(page.getByText("No sync yet", { exact: false })).toBeVisible(SCREEN);
    await expect(page.getByText("No product is linked to a store yet", { exact: false })).toBeVisible();

    await page.getByRole("button", { name: "Sync now: Sync store" }).click();
    const progress = page.getByRole("progressbar", { name: "Sync progress" });
    await expect(progress).toBeVisible(SCREEN);
    await shoot(page, "store", "sync-progress");
    await expect(progress).toBeHidden(SCREEN);

    // Every store product and variant (168) is created, or updated where an earlier spec made a
    // catalogue product of its SKU already (proposals and carts use BC-00001…3).
    const counts = page.getByLabel("Sync counts");
    await expect(counts.getByText("0 skipped")).toBeVisible(SCREEN);
    const count = async (what: string) =>
      Number((await counts.getByText(new RegExp(`^\\d+ ${what}$`)).innerText()).split(" ")[0]);
    const created = await count("created");
    expect(created + (await count("updated"))).toBe(168);
    await page.getByText(`Created (${created})`, { exact: true }).click();
    await expect(page.getByRole("radio", { name: `Created (${created})` })).toBeChecked();
    // In the report: the store's product list further down shows the same SKUs.
    const report = page.getByRole("region", { name: "Sync report" });
    await expect(report.getByText("BC-00005-S", { exact: true })).toBeVisible();
    await page.getByText("Skipped (0)", { exact: true }).click();
    await expect(page.getByText("No lines of this kind")).toBeVisible();
    await shoot(page, "store", "sync-report");
    expect(await violations(page)).toEqual([]);

    const products = page.getByRole("searchbox", { name: "Search store products" });
    await products.fill("BC-00010-L");
    await products.press("Enter");
    const row = page.getByRole("row", { name: /BC-00010-L/ });
    await expect(row).toBeVisible(SCREEN);
    await expect(row.getByText("#10 · variant #101")).toBeVisible();
  } finally {
    // Leave the store and the catalogue as the other specs expect them.
    await admin.expect("DELETE", `/api/store/connections/${store.id}`, 204);
    // Variants first: deleting a product deletes its variants with it.
    for (const variants of [true, false]) {
      const filters = encodeURIComponent(
        JSON.stringify([
          { field: "sku_code", operator: "startswith", value: "BC-" },
          ...(variants ? [{ field: "parent_id", operator: "nnull", value: true }] : []),
        ]),
      );
      const found = await admin.expect<{ data: { id: string }[] }>(
        "GET",
        `/api/products?pageSize=200&filters=${filters}`,
        200,
      );
      if (found.data.length)
        await admin.expect("POST", "/api/products/delete", 200, { ids: found.data.map((p) => p.id) });
    }
  }
});
