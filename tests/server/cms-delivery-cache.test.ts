/**
 * The delivery API's kept answers (server/modules/cms/public-cache.ts) are never stale: each
 * thing a public answer is made of — the entry, its type, its domain, a navigation, a media
 * item's details, a related product — changes the next answer as soon as its change is
 * committed, on this instance and, through the database broadcast, on another one. Also the
 * write side's turn-taking: simultaneous creates cannot both take one slug.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, startInstances, startServer, type TestServer } from "./harness";

type Rec = Record<string, unknown> & { id: string };

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** A domain with one published article that has a cover image and a related product. */
async function seed(s: TestServer, token: string, tag: string) {
  const call = <T = Rec>(method: string, path: string, body?: unknown) =>
    s.api<T>(method, path, { token, body });
  const domain = (await call("POST", "/cms/domains", { key: `site-${tag}`, name: `Site ${tag}` })).body;
  expect(
    (
      await call("POST", "/cms/content-types", {
        kind: "collection",
        apiName: `post-${tag}`,
        name: `Post ${tag}`,
        properties: {
          title: { "x-kind": "text", title: "Title" },
          cover: { "x-kind": "media", title: "Cover" },
          product: { "x-kind": "relation", title: "Product", "x-target": "products" },
        },
      })
    ).status,
  ).toBe(201);
  const form = new FormData();
  form.append("file", new Blob([PNG], { type: "image/png" }), `cover-${tag}.png`);
  const uploaded = await fetch(`${s.baseUrl}/cms/media`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const asset = ((await uploaded.json()) as { data: Rec[] }).data[0];
  const category = (await call("POST", "/api/categories", { name: `Lamps ${tag}` })).body;
  const product = (
    await call("POST", "/api/products", {
      sku_code: `SKU-${tag}`,
      name: "Lamp",
      price: 10,
      category_id: category.id,
    })
  ).body;
  expect(product.id, JSON.stringify(product)).toBeTruthy();
  const post = (
    await call("POST", `/cms/entries/post-${tag}`, {
      title: "Hello",
      cover: asset.id,
      product: product.id,
      domain_ids: [domain.id],
    })
  ).body;
  expect((await call("POST", `/cms/entries/post-${tag}/${post.id}/publish`, {})).status).toBe(200);
  return { call, domain, asset, product, post, path: `/public-cms/site-${tag}/post-${tag}` };
}

describe.each(DRIVERS)("the CMS delivery cache on %s", (driver) => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startServer(driver);
    token = (await s.signIn()).accessToken;
  });
  afterAll(() => s?.close());

  it("answers from what is kept only until something it is made of changes", async () => {
    const { call, domain, asset, product, post, path } = await seed(s, token, driver);
    const read = async () => {
      const res = await s.api<{ data: Array<Rec & { cover: Rec; product: Rec }> }>("GET", path);
      expect(res.status).toBe(200);
      return res;
    };
    const first = await read();
    const etag = first.headers.get("etag") ?? "";
    expect((await s.api("GET", path, { headers: { "if-none-match": etag } })).status).toBe(304);
    expect(first.body.data[0]).toMatchObject({
      title: "Hello",
      cover: { alt: "" },
      product: { name: "Lamp" },
    });

    // The entry, published again with a new title.
    await call("PATCH", `/cms/entries/post-${driver}/${post.id}`, { title: "Hello again" });
    expect((await read()).body.data[0].title).toBe("Hello"); // a draft is not public
    await call("POST", `/cms/entries/post-${driver}/${post.id}/publish`, {});
    const republished = await read();
    expect(republished.body.data[0].title).toBe("Hello again");
    expect(republished.headers.get("etag")).not.toBe(etag);
    expect((await s.api("GET", path, { headers: { "if-none-match": etag } })).status).toBe(200);

    // A media item's details, a related product's name.
    await call("PATCH", `/cms/media/${asset.id}`, { alt: "A lamp on a table" });
    expect((await read()).body.data[0].cover.alt).toBe("A lamp on a table");
    await call("PATCH", `/api/products/${product.id}`, { name: "Brass lamp" });
    expect((await read()).body.data[0].product.name).toBe("Brass lamp");

    // The type: a field renamed. The domain: its Cache-Control.
    const renamed = await call("PATCH", `/cms/content-types/post-${driver}`, {
      properties: {
        headline: { "x-kind": "text", title: "Headline" },
        cover: { "x-kind": "media", title: "Cover" },
        product: { "x-kind": "relation", title: "Product", "x-target": "products" },
      },
      renames: { title: "headline" },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await read()).body.data[0]).toMatchObject({ headline: "Hello again" });
    await call("PATCH", `/cms/domains/${domain.id}`, { cache_control: "public, max-age=5" });
    expect((await read()).headers.get("cache-control")).toBe("public, max-age=5");

    // Unpublished: gone from the list at once.
    await call("POST", `/cms/entries/post-${driver}/${post.id}/unpublish`, {});
    expect((await read()).body.data).toEqual([]);
  });

  it("of simultaneous creates with one slug in one domain, one is stored and the others are told", async () => {
    const call = <T = Rec>(method: string, path: string, body?: unknown) =>
      s.api<T>(method, path, { token, body });
    const domain = (await call("POST", "/cms/domains", { key: `race-${driver}`, name: "Race" })).body;
    await call("POST", "/cms/content-types", {
      kind: "collection",
      apiName: `page-${driver}`,
      name: "Page",
      properties: {
        title: { "x-kind": "text", title: "Title" },
        slug: { "x-kind": "slug", title: "Slug", "x-slugFrom": "title" },
      },
    });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        call("POST", `/cms/entries/page-${driver}`, { title: "About us", domain_ids: [domain.id] }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const list = await call<{ total: number }>("GET", `/cms/entries/page-${driver}`);
    expect(list.body.total).toBe(1);
  });

  it("serves a navigation's change at once", async () => {
    const call = <T = Rec>(method: string, path: string, body?: unknown) =>
      s.api<T>(method, path, { token, body });
    const domain = (await call("POST", "/cms/domains", { key: `nav-${driver}`, name: "Nav" })).body;
    const nav = (
      await call("POST", "/cms/navigations", {
        domain_id: domain.id,
        name: "main",
        title: "Main",
        items: [{ id: "h", label: "Home", kind: "url", url: "/", children: [] }],
      })
    ).body;
    const path = `/public-cms/nav-${driver}/navigations/main`;
    const labels = async () =>
      (await s.api<{ data: { items: Rec[] } }>("GET", path)).body.data.items.map((i) => i.label);
    expect(await labels()).toEqual(["Home"]);
    const patched = await call("PATCH", `/cms/navigations/${nav.id}`, {
      items: [{ id: "s", label: "Shop", kind: "url", url: "/shop", children: [] }],
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(await labels()).toEqual(["Shop"]);
  });
});

describe.runIf(DRIVERS.includes("postgres"))("the CMS delivery cache across two instances", () => {
  let a: TestServer;
  let b: TestServer;
  let token: string;
  beforeAll(async () => {
    [a, b] = await startInstances(2);
    token = (await a.signIn()).accessToken;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("a publish through A changes what B answers", async () => {
    const { call, post, path } = await seed(a, token, "cluster");
    const titleOnB = async () => (await b.api<{ data: Rec[] }>("GET", path)).body.data[0]?.title;
    expect(await titleOnB()).toBe("Hello");
    await call("PATCH", `/cms/entries/post-cluster/${post.id}`, { title: "Changed on A" });
    await call("POST", `/cms/entries/post-cluster/${post.id}/publish`, {});
    // The broadcast reaches B a moment after A's answer: wait for it, with a cap.
    await expect.poll(titleOnB, { timeout: 30_000, interval: 100 }).toBe("Changed on A");
  });
});
