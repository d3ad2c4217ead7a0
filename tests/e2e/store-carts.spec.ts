/**
 * Online store › carts in Chromium, against the BigCommerce stand-in (tests/e2e/fake-store.ts):
 * the store tells of an abandoned cart by its webhook (registered when the store was connected)
 * and a catalogue visitor checks out from the viewer's cart, sent on to the store's checkout; both
 * are in the carts list, the abandoned one under its CRM client, each opening to its items.
 */
import { expect, test } from "@playwright/test";
import type { PdfLink } from "../../schemas/pdf-library";
import { makeCataloguePdf } from "../fixtures/make-pdf";
import { E2E_STORE } from "./env";
import { apiSession, choose, openSignedIn } from "./helpers";
import { processedPdf, uploadPdf } from "./pdf-helpers";
import { shoot } from "./shots";

const SCREEN = { timeout: 60_000 };
const STORE = `http://127.0.0.1:${E2E_STORE.port}`;

test("abandoned store carts and catalogue checkouts in one carts list", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(240_000);
  const tag = `K${Date.now()}`;
  const admin = await apiSession(request);

  // A catalogue with one product the store sells (BC-00003 is one of the stand-in's products).
  const category = await admin.expect<{ id: string }>("POST", "/api/categories", 201, { name: `${tag} Tea` });
  const kettle = await admin.expect<{ id: string; name: string }>("POST", "/api/products", 201, {
    sku_code: "BC-00003",
    name: `${tag} Copper kettle`,
    price: 2499,
    currency: "INR",
    category_id: category.id,
  });
  const created = await uploadPdf(
    admin,
    `${tag}-tea.pdf`,
    await makeCataloguePdf({ pages: 1, photos: false }),
  );
  const pdf = await processedPdf(admin, created.id);
  await admin.expect("PATCH", `/api/pdfs/${pdf.id}`, 200, { pdfstatus: true });
  const links: PdfLink[] = [
    { x: 0.1, y: 0.2, w: 0.3, h: 0.1, kind: "addProduct", target: { productId: kettle.id } },
  ];
  const saved = await admin.send("PUT", `/api/pdfs/${pdf.id}/pages/1/links`, {
    data: { revision: 0, links },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  // The store connected; its webhooks registered at this server.
  const connection = await admin.expect<{ id: string }>("POST", "/api/store/connections", 201, {
    name: `${tag} store`,
    storeHash: E2E_STORE.hash,
    token: E2E_STORE.token,
  });
  try {
    await expect
      .poll(
        async () =>
          (await admin.expect<{ webhooks: string }>("GET", `/api/store/connections/${connection.id}`, 200))
            .webhooks,
        { timeout: 30_000 },
      )
      .toBe("registered");

    // A client shops in the store and leaves; the store says so an hour later.
    const email = `asha.${tag.toLowerCase()}@example.com`;
    await admin.expect("POST", "/crm/clients", 201, { name: `Asha ${tag}`, email });
    const cartId = `cart-${tag}`;
    const shopper = await request.post(`${STORE}/__control/storefront-carts`, {
      data: {
        cart: {
          id: cartId,
          customer_id: 0,
          email,
          currency: { code: "INR" },
          base_amount: 4998,
          cart_amount: 4998,
          created_time: new Date(Date.now() - 3 * 3600_000).toISOString(),
          updated_time: new Date(Date.now() - 2 * 3600_000).toISOString(),
          line_items: {
            physical_items: [
              {
                id: "li-1",
                product_id: 3,
                variant_id: 3000,
                sku: "BC-00003",
                name: "Copper kettle",
                quantity: 2,
                list_price: 2499,
                sale_price: 2499,
                extended_sale_price: 4998,
              },
            ],
            digital_items: [],
          },
        },
      },
    });
    expect(shopper.status()).toBe(201);
    const fired = await request.post(`${STORE}/__control/fire`, {
      data: { scope: "store/cart/abandoned", data: { type: "cart", id: cartId } },
    });
    // Hooks of stores connected and removed by earlier specs are still registered at the stand-in
    // (their callbacks are 404s); this connection's answers 200.
    expect((await fired.json()).statuses).toContain(200);

    // A visitor checks out from the catalogue and is sent to the store's checkout.
    await context.route(/^https:\/\/store\.test\//, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: "<!doctype html><title>Store checkout</title><p>Checkout</p>",
      }),
    );
    const visitor = await context.newPage();
    await visitor.setViewportSize({ width: 1280, height: 800 });
    await visitor.goto(`/view/${pdf.id}`);
    await visitor.getByRole("button", { name: `Add ${kettle.name} to cart` }).click(SCREEN);
    await visitor.getByRole("button", { name: "Cart (1)" }).click();
    const cart = visitor.getByRole("dialog", { name: "Cart" });
    await shoot(visitor, "store", "viewer-checkout");
    // A double click makes one store cart (the button waits for the answer; one key per cart):
    // the list below finds exactly one row of this catalogue.
    await cart.getByRole("button", { name: "Checkout" }).dblclick();
    await expect(visitor).toHaveURL(/^https:\/\/store\.test\/cart\.php\?action=loadInCheckout&id=/, SCREEN);
    await visitor.close();

    // Both in the carts list: the abandoned one under its client, the checkout from its catalogue.
    await page.setViewportSize({ width: 1440, height: 900 });
    await openSignedIn(page, "store");
    const carts = page.getByRole("table", { name: "Carts" });
    const abandoned = carts.getByRole("row", { name: new RegExp(`Asha ${tag}`) });
    await expect(abandoned).toContainText("Abandoned", SCREEN);
    await expect(abandoned).toContainText("Online store");
    await expect(abandoned).toContainText("₹4,998.00");
    await expect(abandoned).toContainText("2 h ago");
    const checkout = carts.getByRole("row", { name: new RegExp(`From ${pdf.name}`) });
    await expect(checkout).toContainText("Sent to checkout");
    await expect(checkout).toContainText("Catalogue viewer");
    await abandoned.getByRole("button", { name: "Expand row" }).click();
    await expect(carts.getByRole("cell", { name: "Copper kettle", exact: true })).toBeVisible();
    await shoot(page, "store", "carts");

    // Filtered by source.
    await choose(page, "Source", "Catalogue viewer");
    await expect(abandoned).toBeHidden();
    await expect(checkout).toBeVisible();
  } finally {
    await admin.send("DELETE", `/api/store/connections/${connection.id}`);
  }
});
