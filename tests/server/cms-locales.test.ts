/**
 * Content in several languages (issue 29, docs/cms-api.md "Locales"), on PGlite and PostgreSQL:
 * a domain's locales and fallbacks checked; an entry started in another locale from the
 * default's values, with its own draft, publish state and slug; shared fields one value for
 * all; the admin list by locale and by "missing in locale"; the delivery API answering per
 * `locale` or `Accept-Language` with the domain's fallback chain, saying which locale each
 * answer is in, its kept answers and ETags correct per locale.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptedLanguages, localeChain, storedLocaleErrors } from "../../schemas/cms-locales";
import { DRIVERS, startServer, type TestServer } from "./harness";

type Rec = Record<string, unknown> & { id: string };

describe("locale rules", () => {
  it("reads chains, Accept-Language and refuses impossible locale sets", () => {
    const domain = {
      default_locale: "en-IN",
      locales: [
        { code: "hi-IN", fallback: null },
        { code: "ta-IN", fallback: "hi-IN" },
      ],
    };
    expect(localeChain(domain, ["ta-IN"])).toEqual(["ta-IN", "hi-IN", "en-IN"]);
    expect(localeChain(domain, ["ta"])).toEqual(["ta-IN", "hi-IN", "en-IN"]);
    expect(localeChain(domain, ["fr-FR"])).toEqual(["en-IN"]);
    expect(localeChain(domain, [])).toEqual(["en-IN"]);
    expect(acceptedLanguages("fr;q=0.2, ta-IN, hi;q=0.8, *;q=0.1")).toEqual(["ta-IN", "hi", "fr"]);
    expect(storedLocaleErrors("en-IN", ["hi-IN", "ta-IN → hi-IN"])).toEqual([]);
    expect(storedLocaleErrors("en-IN", ["hi-IN", "hi-IN"])).toEqual([
      { field: "locales.1", message: "hi-IN is listed twice" },
    ]);
    expect(storedLocaleErrors("en-IN", ["ta-IN → fr"])[0]?.message).toBe(
      "fr is not one of this domain's locales",
    );
    expect(storedLocaleErrors("en-IN", ["hi-IN > ta-IN", "ta-IN > hi-IN"])[0]?.message).toContain(
      "go round in a circle",
    );
    expect(storedLocaleErrors("en-IN", ["not a tag!"])[0]?.field).toBe("locales.0");
  });
});

describe.each(DRIVERS)("content in several languages on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  const call = <T = Rec>(method: string, path: string, body?: unknown) =>
    s.api<T>(method, path, { token: admin, body });

  beforeAll(async () => {
    s = await startServer(driver);
    admin = (await s.signIn()).accessToken;
    expect(
      (
        await call("POST", "/cms/content-types", {
          kind: "collection",
          apiName: "article",
          name: "Article",
          properties: {
            title: { "x-kind": "text", title: "Title" },
            slug: { "x-kind": "slug", title: "Slug", "x-slugFrom": "title" },
            price: { "x-kind": "integer", title: "Price", "x-shared": true },
          },
          required: ["title"],
        })
      ).status,
    ).toBe(201);
  });
  afterAll(() => s?.close());

  it("keeps a draft, a publish state and a slug per locale, and delivers through the fallback chain", async () => {
    const refused = await call("POST", "/cms/domains", {
      key: "bad",
      name: "Bad",
      default_locale: "en-IN",
      locales: ["hi-IN", "ta-IN → fr-FR"],
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ details: [{ field: "locales.1" }] });

    const site = (
      await call("POST", "/cms/domains", {
        key: "bharat",
        name: "Bharat",
        default_locale: "en-IN",
        locales: ["hi-IN", "ta-IN → hi-IN"],
      })
    ).body;
    expect(site.id).toBeTruthy();
    const article = (
      await call("POST", "/cms/entries/article", {
        title: "Monsoon offers",
        price: 499,
        domain_ids: [site.id],
      })
    ).body;
    expect(article).toMatchObject({ locale: null, source_id: null });
    expect((await call("POST", `/cms/entries/article/${article.id}/publish`, {})).status).toBe(200);

    // The entry's locales: none started yet.
    const before = await call<{ locales: Rec[]; defaultLocales: string[] }>(
      "GET",
      `/cms/entries/article/${article.id}/locales`,
    );
    expect(before.body.defaultLocales).toEqual(["en-IN"]);
    expect(before.body.locales).toEqual([
      expect.objectContaining({ code: "hi-IN", variantId: null, fallback: null }),
      expect.objectContaining({ code: "ta-IN", variantId: null, fallback: "hi-IN" }),
    ]);
    const notHere = await call("POST", `/cms/entries/article/${article.id}/locales`, { locale: "fr-FR" });
    expect(notHere.status).toBe(400);
    expect(JSON.stringify(notHere.body)).toContain(
      "not a locale of this entry's domains (Bharat: en-IN, hi-IN, ta-IN)",
    );

    // Hindi, started from the default's values: only the localised fields; same slug allowed.
    const hindi = await call<Rec>("POST", `/cms/entries/article/${article.id}/locales`, { locale: "hi-IN" });
    expect(hindi.status).toBe(201);
    // Shared fields show the entry's value.
    expect(hindi.body).toMatchObject({
      locale: "hi-IN",
      source_id: article.id,
      title: "Monsoon offers",
      price: 499,
    });
    expect(
      (await call("POST", `/cms/entries/article/${article.id}/locales`, { locale: "hi-IN" })).status,
    ).toBe(409);
    const saved = await call<Rec>("PATCH", `/cms/entries/article/${hindi.body.id}`, {
      title: "मानसून ऑफ़र",
      slug: "monsoon-hi",
      price: 1,
    });
    expect(saved.status).toBe(200);
    // A shared field is the entry's: a variant does not keep it.
    expect(saved.body.price).toBe(499);

    // Lists: the default locale's entries; by locale; missing in a locale.
    const list = async (query: string) =>
      (await call<{ data: Rec[]; total: number }>("GET", `/cms/entries/article?${query}`)).body;
    expect((await list("")).data.map((e) => e.id)).toEqual([article.id]);
    expect((await list("locale=hi-IN")).data.map((e) => e.id)).toEqual([hindi.body.id]);
    expect((await list("missing=hi-IN")).total).toBe(0);
    expect((await list("missing=ta-IN")).data.map((e) => e.id)).toEqual([article.id]);
    expect((await call("GET", "/cms/entries/article?locale=not a tag")).status).toBe(400);

    // Delivery: Hindi is a draft still, so Tamil and Hindi read the default locale's.
    const read = async (path: string, headers: Record<string, string> = {}) => {
      const res = await s.api<{ data: Rec & Rec[] }>("GET", path, { headers });
      expect(res.status, path).toBe(200);
      return res;
    };
    expect((await read("/public-cms/bharat/article/monsoon-offers?locale=ta-IN")).body.data).toMatchObject({
      title: "Monsoon offers",
      locale: "en-IN",
      price: 499,
    });
    expect((await call("POST", `/cms/entries/article/${hindi.body.id}/publish`, {})).status).toBe(200);
    const tamil = await read("/public-cms/bharat/article/monsoon-offers?locale=ta-IN");
    expect(tamil.body.data).toMatchObject({
      id: article.id,
      title: "मानसून ऑफ़र",
      locale: "hi-IN",
      price: 499,
    });
    // By the locale's own slug too, and by Accept-Language; the default without either.
    expect(
      (await read("/public-cms/bharat/article/monsoon-hi", { "accept-language": "hi-IN,en;q=0.5" })).body.data
        .locale,
    ).toBe("hi-IN");
    const english = await read("/public-cms/bharat/article/monsoon-hi");
    expect(english.body.data).toMatchObject({ title: "Monsoon offers", locale: "en-IN" });
    expect(english.headers.get("vary")).toContain("Accept-Language");
    // Kept answers and ETags differ per locale, also when the locale comes by header.
    const byHeader = await read("/public-cms/bharat/article", { "accept-language": "ta-IN" });
    const plain = await read("/public-cms/bharat/article");
    expect(byHeader.body.data[0]?.title).toBe("मानसून ऑफ़र");
    expect(plain.body.data[0]?.title).toBe("Monsoon offers");
    expect(byHeader.headers.get("etag")).not.toBe(plain.headers.get("etag"));
    const etag = plain.headers.get("etag") ?? "";
    expect(
      (
        await s.api("GET", "/public-cms/bharat/article", {
          headers: { "if-none-match": etag, "accept-language": "ta-IN" },
        })
      ).status,
    ).toBe(200);

    // The default locale changed after Hindi was saved: Hindi is behind.
    expect(
      (await call("PATCH", `/cms/entries/article/${article.id}`, { title: "Monsoon offers 2" })).status,
    ).toBe(200);
    const after = await call<{ locales: Rec[] }>("GET", `/cms/entries/article/${hindi.body.id}/locales`);
    expect(after.body.locales[0]).toMatchObject({
      code: "hi-IN",
      variantId: hindi.body.id,
      status: "published",
      behind: true,
    });

    // Tamil started from Hindi; deleting the entry takes its locales along.
    const ta = await call<Rec>("POST", `/cms/entries/article/${article.id}/locales`, {
      locale: "ta-IN",
      from: "hi-IN",
    });
    expect(ta.body).toMatchObject({ title: "मानसून ऑफ़र", locale: "ta-IN" });
    expect((await call("DELETE", `/cms/entries/article/${article.id}`)).status).toBe(204);
    expect((await call("GET", `/cms/entries/article/${ta.body.id}`)).status).toBe(404);
  });

  it("localises navigations: labels and entry links along the chain", async () => {
    const site = (
      await call("POST", "/cms/domains", {
        key: "menu-site",
        name: "Menu site",
        default_locale: "en-IN",
        locales: ["hi-IN", "ta-IN → hi-IN"],
      })
    ).body;
    const entry = (await call("POST", "/cms/entries/article", { title: "About us", domain_ids: [site.id] }))
      .body;
    expect((await call("POST", `/cms/entries/article/${entry.id}/publish`, {})).status).toBe(200);
    const hindi = (await call<Rec>("POST", `/cms/entries/article/${entry.id}/locales`, { locale: "hi-IN" }))
      .body;
    await call("PATCH", `/cms/entries/article/${hindi.id}`, {
      title: "हमारे बारे में",
      slug: "hamare-bare-mein",
    });
    expect((await call("POST", `/cms/entries/article/${hindi.id}/publish`, {})).status).toBe(200);
    const made = await call("POST", "/cms/navigations", {
      domain_id: site.id,
      name: "main",
      title: "Main",
      items: [
        {
          id: "a",
          label: "About",
          labels: { "hi-IN": "परिचय" },
          kind: "entry",
          type: "article",
          entryId: entry.id,
          children: [],
        },
        { id: "b", label: "Blog", kind: "url", url: "/blog", children: [] },
      ],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const bad = await call("POST", "/cms/navigations", {
      domain_id: site.id,
      name: "bad",
      title: "Bad",
      items: [{ id: "a", label: "x", labels: { "not a tag": "y" }, kind: "url", url: "/", children: [] }],
    });
    expect(bad.status).toBe(400);
    const menu = async (query: string) =>
      (
        await s.api<{ data: { items: Array<{ label: string; url: string }> } }>(
          "GET",
          `/public-cms/menu-site/navigations/main${query}`,
        )
      ).body.data.items;
    expect(await menu("")).toEqual([
      expect.objectContaining({ label: "About", url: "/article/about-us" }),
      expect.objectContaining({ label: "Blog", url: "/blog" }),
    ]);
    expect(await menu("?locale=ta-IN")).toEqual([
      expect.objectContaining({ label: "परिचय", url: "/article/hamare-bare-mein" }),
      expect.objectContaining({ label: "Blog", url: "/blog" }),
    ]);
  });
});
