/**
 * Proposals (issue 18) over HTTP: money computed by the server on every write (discount options
 * 1, 2 and 3 on tricky values, 100 % discounts, refusals per field: quantity 0, another
 * currency, a discount above its amount); the life draft → sent → accepted / declined /
 * expired, edits only on drafts; the public link (the page, accept → timeline + opportunity won
 * + an automation run, twice → 409, expired → 410, unknown → 404); convert to cart on the
 * loopback BigCommerce store (discounted prices adding up to the total); the PDF's text; and
 * the Online store module on every admin route.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "./child-server";
import { type FakeStore, sampleProducts, startFakeBigCommerce } from "./fake-bigcommerce";
import { DRIVERS, signedInMember, startServer, type TestServer } from "./harness";

// biome-ignore lint/suspicious/noExplicitAny: answers are inspected loosely.
type Any = any;

describe.each(DRIVERS)("proposals on %s", (driver) => {
  let s: TestServer;
  let store: FakeStore;
  let admin: string;
  const call = (method: string, path: string, body?: unknown, token = admin) =>
    s.api<Any>(method, path, { token, body });
  const products: Record<string, string> = {};
  let clientId: string;

  async function ok(method: string, path: string, body?: unknown, status = 200) {
    const res = await call(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
    return res.body;
  }

  beforeAll(async () => {
    store = await startFakeBigCommerce();
    // Store items whose SKUs are the catalogue's (BC-00001 …), one of them with variants.
    store.products = sampleProducts(5);
    s = await startServer(driver, { BIGCOMMERCE_API_URL: store.url });
    admin = (await s.signIn()).accessToken;
    const category = await ok("POST", "/api/categories", { name: "Proposal goods" }, 201);
    const make = async (key: string, sku: string, price: number, currency = "INR") => {
      const made = await ok(
        "POST",
        "/api/products",
        { sku_code: sku, name: `Product ${key}`, price, currency, category_id: category.id },
        201,
      );
      products[key] = made.id;
    };
    await make("A", "BC-00001", 0.1);
    await make("B", "BC-00002", 19.99);
    await make("D", "BC-00005-S", 1000);
    await make("U", "US-1", 5, "USD");
    await make("X", "NOT-IN-STORE", 7);
    clientId = (await ok("POST", "/crm/clients", { name: "Asha Rao", email: "asha@example.com" }, 201)).id;
  });

  afterAll(async () => {
    await s?.close();
    await store?.close();
  });

  let serial = 0;
  const draft = (extra: Record<string, unknown> = {}) =>
    ok("POST", "/api/proposals", { title: `Offer ${++serial}`, client_id: clientId, ...extra }, 201);
  const setLines = (id: string, lines: unknown[]) => call("PUT", `/api/proposals/${id}/lines`, { lines });

  /** An open opportunity of the client, at a stage other than "won" (which the CRM is given). */
  async function openOpportunity(title: string, value: number) {
    const stages = await ok(
      "GET",
      `/crm/dropdowns?pageSize=100&filters=${encodeURIComponent(JSON.stringify([{ field: "list", operator: "eq", value: "stage" }]))}`,
    );
    const values = stages.data.map((d: Any) => d.value);
    if (!values.includes("won"))
      await ok("POST", "/crm/dropdowns", { list: "stage", value: "won", label: "Won" }, 201);
    const start = values.find((v: string) => v !== "won") ?? "proposal";
    if (!values.includes(start))
      await ok("POST", "/crm/dropdowns", { list: "stage", value: start, label: "Proposal" }, 201);
    return ok("POST", "/crm/opportunities", { title, client_id: clientId, stage: start, value }, 201);
  }

  it("computes product discounts per line, half a paisa rounded up, and keeps totals server-side", async () => {
    const p = await draft({ discount_option: 1 });
    expect(p).toMatchObject({
      status: "draft",
      currency: "INR",
      total: 0,
      number: expect.stringMatching(/^P-\d{6}$/),
    });
    const res = await setLines(p.id, [
      { product_id: products.A, quantity: 1, discount: { kind: "percent", value: 5 } }, // 0.5 paise → 1
      { product_id: products.B, quantity: 3, discount: { kind: "percent", value: 12.5 } }, // 749.625 → 750
      { product_id: products.D, quantity: 1, discount: { kind: "amount", value: 1000 } }, // all of it
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.totals).toMatchObject({ discountMinor: 100751, totalMinor: 5256 });
    expect(res.body.totals.lines.map((l: Any) => l.netMinor)).toEqual([9, 5247, 0]);
    const stored = await ok("GET", `/api/proposals/${p.id}`);
    expect(stored).toMatchObject({ subtotal: 1060.07, discount_total: 1007.51, total: 52.56 });
    // Totals are the server's: a client cannot write them.
    expect((await call("PATCH", `/api/proposals/${p.id}`, { total: 1 })).status).toBe(400);
  });

  it("spreads nothing yet computes a total discount on the subtotal; 100 % gives 0; option 3 is list price", async () => {
    const p = await draft({ discount_option: 2, total_discount_kind: "percent", total_discount_value: 5 });
    expect((await setLines(p.id, [{ product_id: products.A, quantity: 3 }])).body.totals).toMatchObject({
      subtotalMinor: 30,
      totalDiscountMinor: 2, // 1.5 paise, half up
      totalMinor: 28,
    });
    const full = await ok("PATCH", `/api/proposals/${p.id}`, { total_discount_value: 100 });
    expect(full).toMatchObject({ subtotal: 0.3, discount_total: 0.3, total: 0 });
    const amount = await call("PATCH", `/api/proposals/${p.id}`, {
      total_discount_kind: "amount",
      total_discount_value: 0.31,
    });
    expect(amount.status).toBe(400);
    expect(amount.body.details).toEqual([
      { field: "total_discount_value", message: "The total discount must not be more than the subtotal" },
    ]);
    const none = await ok("PATCH", `/api/proposals/${p.id}`, { discount_option: 3 });
    expect(none).toMatchObject({ total_discount_kind: null, total_discount_value: null, total: 0.3 });
    const lineDiscount = await setLines(p.id, [
      { product_id: products.B, quantity: 1, discount: { kind: "percent", value: 10 } },
    ]);
    expect(lineDiscount.status).toBe(400);
    expect(lineDiscount.body.details).toEqual([
      { field: "lines.0.discount", message: "Line 1's discount is only for the Product discount option" },
    ]);
  });

  it("refuses quantity 0, another currency (naming the product) and a discount above the line, per field", async () => {
    const p = await draft({ discount_option: 1 });
    const zero = await setLines(p.id, [{ product_id: products.B, quantity: 0 }]);
    expect(zero.status).toBe(400);
    expect(zero.body.details).toEqual([
      { field: "lines.0.quantity", message: "Line 1's quantity must be a whole number from 1 to 1,000,000" },
    ]);
    const usd = await setLines(p.id, [
      { product_id: products.B, quantity: 1 },
      { product_id: products.U, quantity: 1 },
    ]);
    expect(usd.status).toBe(400);
    expect(usd.body.details[0].field).toBe("lines.1.product_id");
    expect(usd.body.message).toContain("Product U (US-1) is priced in USD, and this proposal is in INR");
    const over = await setLines(p.id, [
      { product_id: products.B, quantity: 2, discount: { kind: "amount", value: 40 } },
    ]);
    expect(over.status).toBe(400);
    expect(over.body.details).toEqual([
      {
        field: "lines.0.discount.value",
        message: "Line 1's discount must not be more than the line's price",
      },
    ]);
    const unknown = await setLines(p.id, [
      { product_id: "00000000-0000-4000-8000-000000000000", quantity: 1 },
    ]);
    expect(unknown.status).toBe(400);
    expect((await ok("GET", `/api/proposals/${p.id}/lines`)).lines).toEqual([]);
  });

  it("moves draft → sent → accepted through the public link: opportunity won, timeline, automation run", async () => {
    // The CRM's stages may be seeded: a "won" one is made if there is none.
    const opportunity = await openOpportunity("Big deal", 500);
    const flow = await ok("POST", "/api/automations", { name: "On acceptance" }, 201);
    await ok("PUT", `/api/automations/${flow.id}/draft`, {
      definition: {
        trigger: { kind: "proposal-accepted" },
        steps: [{ id: "tag", kind: "action", type: "add_tag", inputs: { tag: "customer" } }],
      },
    });
    await ok("POST", `/api/automations/${flow.id}/publish`);

    const p = await draft({ opportunity_id: opportunity.id });
    const early = await call("POST", `/api/proposals/${p.id}/send`, {});
    expect(early.status).toBe(400);
    expect(early.body.details).toEqual([{ field: "lines", message: "Lines must have at least one product" }]);
    expect((await setLines(p.id, [{ product_id: products.B, quantity: 2 }])).status).toBe(200);
    const sent = await ok("POST", `/api/proposals/${p.id}/send`, { mail: true, message: "As discussed" });
    expect(sent).toMatchObject({ status: "sent", link: expect.stringContaining("/public/proposals/") });
    const token = sent.link.split("/").pop();
    expect((await call("POST", `/api/proposals/${p.id}/send`, {})).status).toBe(409);
    const edit = await call("PATCH", `/api/proposals/${p.id}`, { title: "Changed" });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toBe("Only a draft proposal can be changed");
    expect((await setLines(p.id, [])).status).toBe(409);
    const remove = await call("DELETE", `/api/proposals/${p.id}`);
    expect(remove.status).toBe(409);
    expect(remove.body.message).toBe(
      `Only a draft proposal can be deleted: ${p.number} was sent to the client`,
    );
    const mail = await s.database.db
      .selectFrom("mail_outbox")
      .select(["to_address", "subject", "text_body"])
      .where("to_address", "=", "asha@example.com")
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe(`Proposal ${p.number}: ${p.title}`);
    expect(mail.text_body).toContain(`https://atelier.example.test/public/proposals/${token}`);
    expect(mail.text_body).toContain("As discussed");

    const page = await fetch(`${s.baseUrl}/public/proposals/${token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    // The public page writes money as the screens do (issue 27), not as the PDF's plain "INR".
    expect(html).toContain("₹39.98");
    expect(html).not.toContain("INR 39.98");
    expect(html).toContain("Accept");
    expect(page.headers.get("content-security-policy")).toContain("sha256-");

    const accepted = await fetch(`${s.baseUrl}/public/proposals/${token}/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ status: "accepted" });
    const again = await fetch(`${s.baseUrl}/public/proposals/${token}/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe("This proposal was already accepted");
    // The plain form hears the refusal as the page, saying why.
    const declineForm = await fetch(`${s.baseUrl}/public/proposals/${token}/decline`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "",
      redirect: "manual",
    });
    expect(declineForm.status).toBe(409);
    expect(await declineForm.text()).toContain("already accepted");

    expect(await ok("GET", `/crm/opportunities/${opportunity.id}`)).toMatchObject({
      status: "won",
      stage: "won",
    });
    const timeline = await ok("GET", `/crm/clients/${clientId}/timeline`);
    const titles = timeline.data.map((e: Any) => e.title);
    expect(titles).toEqual(
      expect.arrayContaining([`Proposal accepted: ${p.title}`, `Proposal sent: ${p.title}`, "Won: Big deal"]),
    );
    const runs = await waitFor(
      "a proposal-accepted run",
      async () => {
        const r = await call("GET", `/api/automations/${flow.id}/runs`);
        return r.body.total ? r.body : undefined;
      },
      20_000,
      100,
    );
    expect(runs.data[0]).toMatchObject({ subject: { type: "client", id: clientId } });
  });

  it("declines by form post, and answers 410 once a sent proposal's day has passed", async () => {
    const a = await draft();
    await setLines(a.id, [{ product_id: products.A, quantity: 1 }]);
    const sentA = await ok("POST", `/api/proposals/${a.id}/send`, {});
    const tokenA = sentA.link.split("/").pop();
    const declined = await fetch(`${s.baseUrl}/public/proposals/${tokenA}/decline`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "",
      redirect: "manual",
    });
    expect(declined.status).toBe(303);
    expect((await ok("GET", `/api/proposals/${a.id}`)).status).toBe("declined");

    const b = await draft({ valid_until: new Date().toISOString().slice(0, 10) });
    await setLines(b.id, [{ product_id: products.A, quantity: 1 }]);
    const tokenB = (await ok("POST", `/api/proposals/${b.id}/send`, {})).link.split("/").pop();
    await s.database.db
      .updateTable("proposals")
      .set({ valid_until: "2020-01-01" })
      .where("id", "=", b.id)
      .execute();
    const late = await fetch(`${s.baseUrl}/public/proposals/${tokenB}/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(late.status).toBe(410);
    expect((await late.json()).message).toBe("This proposal expired on 01-01-2020: ask for a new one");
    expect((await ok("GET", `/api/proposals/${b.id}`)).status).toBe("expired");

    expect((await fetch(`${s.baseUrl}/public/proposals/no-such-token-at-all-here`)).status).toBe(404);
    expect((await fetch(`${s.baseUrl}/public/proposals/x`)).status).toBe(404);
  });

  it("marks a sent proposal expired at its date by a job, so the list's filter sees it unread", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const p = await draft({ valid_until: today });
    await setLines(p.id, [{ product_id: products.A, quantity: 1 }]);
    await ok("POST", `/api/proposals/${p.id}/send`, {});
    const job = await s.database.db
      .selectFrom("jobs")
      .select(["state", "run_at"])
      .where("name", "=", "store.proposal.expire")
      .where("key", "=", `proposal:${p.id}`)
      .executeTakeFirstOrThrow();
    // Queued for the first moment past its last day (UTC midnight).
    expect(job.state).toBe("queued");
    expect(new Date(job.run_at as Date).toISOString()).toBe(
      new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString(),
    );
    // Its day passes: the proposal's date moves back and its job comes due, as the clock would.
    await s.database.db
      .updateTable("proposals")
      .set({ valid_until: "2020-01-02" })
      .where("id", "=", p.id)
      .execute();
    await s.database.db
      .updateTable("jobs")
      .set({ run_at: new Date() })
      .where("key", "=", `proposal:${p.id}`)
      .execute();
    const expiredFilter = encodeURIComponent(
      JSON.stringify([{ field: "status", operator: "eq", value: "expired" }]),
    );
    // Only the list is read (never the proposal): the job marked it.
    const listed = await waitFor(
      "the proposal listed as expired",
      async () => {
        const page = await ok("GET", `/api/proposals?filters=${expiredFilter}&pageSize=100`);
        return page.data.find((row: Any) => row.id === p.id);
      },
      20_000,
      50,
    );
    expect(listed.status).toBe("expired");
  });

  it("makes a cart of the lines at their discounted prices, adding up to the total, with its checkout link", async () => {
    const p = await draft({ discount_option: 2, total_discount_kind: "amount", total_discount_value: 1 });
    await setLines(p.id, [
      { product_id: products.B, quantity: 3 },
      { product_id: products.A, quantity: 1 },
      { product_id: products.D, quantity: 1 },
    ]);
    const noStore = await call("POST", `/api/proposals/${p.id}/cart`, {});
    expect(noStore.status).toBe(409);
    await ok(
      "POST",
      "/api/store/connections",
      { name: "Main", storeHash: store.hash, token: store.token },
      201,
    );
    const cart = await call("POST", `/api/proposals/${p.id}/cart`, {});
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    const recorded = store.carts.at(-1)!;
    expect(cart.body).toMatchObject({
      cartId: recorded.id,
      checkoutUrl: recorded.redirect_urls?.checkout_url,
    });
    const minor = recorded.line_items.reduce(
      (sum, l) => sum + Math.round((l.list_price ?? 0) * 100) * l.quantity,
      0,
    );
    const { total } = await ok("GET", `/api/proposals/${p.id}`);
    expect(minor).toBe(Math.round(total * 100));
    expect(total).toBe(1060.07 - 1);
    // The variant SKU went as its product and variant.
    expect(recorded.line_items.find((l) => l.variant_id === 50)).toMatchObject({ product_id: 5 });

    const missing = await draft();
    await setLines(missing.id, [{ product_id: products.X, quantity: 1 }]);
    const refused = await call("POST", `/api/proposals/${missing.id}/cart`, {});
    expect(refused.status).toBe(422);
    expect(refused.body.details).toEqual([
      { field: "lines.0.product_id", message: "SKU NOT-IN-STORE is not in the store Main" },
    ]);
  });

  it("lists a proposal's cart under its client, and its order in the store wins the opportunity", async () => {
    const opportunity = await openOpportunity("Store deal", 100);
    if (!(await ok("GET", "/api/store/connections")).data.length)
      await ok(
        "POST",
        "/api/store/connections",
        { name: "Main", storeHash: store.hash, token: store.token },
        201,
      );
    const p = await draft({ opportunity_id: opportunity.id });
    await setLines(p.id, [{ product_id: products.B, quantity: 2 }]);
    const cart = await ok("POST", `/api/proposals/${p.id}/cart`, {}, 201);
    const { total, number } = await ok("GET", `/api/proposals/${p.id}`);
    const listed = (await ok("GET", "/api/store/carts")).data.find((c: Any) => c.externalId === cart.cartId);
    expect(listed).toMatchObject({
      source: "proposal",
      status: "checked_out",
      proposalId: p.id,
      proposalNumber: number,
      clientId,
      totalMinor: Math.round(total * 100),
      itemCount: 2,
      checkoutUrl: cart.checkoutUrl,
    });

    // The store says the cart was ordered: the order on the timeline, the opportunity won.
    store.deliverTo = (d) => d.replace("https://atelier.example.test", s.baseUrl);
    await waitFor(
      "webhooks registered",
      async () => store.hooks.some((h) => h.scope === "store/cart/converted"),
      20_000,
      50,
    );
    expect(
      await store.fire("store/cart/converted", { type: "cart", id: cart.cartId, orderId: 901 }),
    ).toContain(200);
    await waitFor(
      "the opportunity won",
      async () => (await ok("GET", `/crm/opportunities/${opportunity.id}`)).status === "won",
      20_000,
      50,
    );
    const order = (await ok("GET", "/api/store/carts")).data.find((c: Any) => c.externalId === cart.cartId);
    expect(order).toMatchObject({ status: "converted", orderId: "901" });
    const timeline = await ok("GET", `/crm/clients/${clientId}/timeline?kind=store`);
    expect(timeline.data.map((e: Any) => e.title)).toContain(
      `Ordered in the store: order 901, INR ${total.toFixed(2)}`,
    );
  });

  it("gives a PDF with its lines and total as text", async () => {
    const p = await draft({ discount_option: 1 });
    await setLines(p.id, [
      { product_id: products.B, quantity: 3, discount: { kind: "percent", value: 12.5 } },
    ]);
    const res = await fetch(`${s.baseUrl}/api/proposals/${p.id}/pdf`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
    const doc = await pdfjs.getDocument({ data: bytes, useSystemFonts: false, verbosity: 0 }).promise;
    const content = await (await doc.getPage(1)).getTextContent();
    const text = content.items.map((i: Any) => i.str).join(" ");
    expect(text).toContain("INR 52.47"); // 59.97 less 7.50
    expect(text).toContain("Product B");
    expect(text).toContain("Draft");
  });

  it("requires the Online store module on every admin route, and a token", async () => {
    const p = await draft();
    const crmOnly = await signedInMember(s, admin, [5]);
    for (const [method, path, body] of [
      ["GET", "/api/proposals"],
      ["GET", `/api/proposals/${p.id}/lines`],
      ["PUT", `/api/proposals/${p.id}/lines`, { lines: [] }],
      ["POST", `/api/proposals/${p.id}/send`, {}],
      ["GET", `/api/proposals/${p.id}/pdf`],
      ["POST", `/api/proposals/${p.id}/cart`, {}],
    ] as const) {
      expect((await call(method, path, body, crmOnly.token)).status, `${method} ${path}`).toBe(403);
      expect((await s.api(method, path, { body })).status, `${method} ${path}`).toBe(401);
    }
    expect((await call("GET", "/api/proposals/00000000-0000-4000-8000-000000000000/pdf")).status).toBe(404);
  });
});
