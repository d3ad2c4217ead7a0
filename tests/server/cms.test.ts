/**
 * The headless CMS (issue 14) through its HTTP API: a type with a nested component, a dynamic
 * zone and a relation; entries validated per field; publish, versions, diff and restore;
 * conflicts; safe type changes; and the public delivery API (published only, domain scoping,
 * populate, ETag/304, CORS, tokens).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, startServer, type TestServer } from "./harness";
import { testSocket } from "./sockets";

type Rec = Record<string, unknown> & { id: string };

describe.each(DRIVERS)("CMS on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  let shop: Rec;
  let blog: Rec;
  const call = <T = Rec>(method: string, path: string, body?: unknown) =>
    s.api<T>(method, path, { token: admin, body });

  beforeAll(async () => {
    s = await startServer(driver);
    admin = (await s.signIn()).accessToken;
    shop = (
      await call("POST", "/cms/domains", {
        key: "shop",
        name: "Shop",
        allowed_origins: ["https://shop.example.com"],
      })
    ).body;
    blog = (await call("POST", "/cms/domains", { key: "blog", name: "Blog" })).body;
    // Components nest: a link inside a call to action inside the hero.
    for (const body of [
      {
        kind: "component",
        apiName: "link",
        name: "Link",
        properties: {
          label: { "x-kind": "text", title: "Label" },
          href: { "x-kind": "url", title: "Address" },
        },
        required: ["label"],
      },
      {
        kind: "component",
        apiName: "cta",
        name: "Call to action",
        properties: {
          text: { "x-kind": "text", title: "Text" },
          link: { "x-kind": "component", title: "Link", "x-component": "link" },
        },
      },
      {
        kind: "component",
        apiName: "quote",
        name: "Quote",
        properties: { said: { "x-kind": "longtext", title: "Said" }, by: { "x-kind": "text", title: "By" } },
        required: ["said"],
      },
      {
        kind: "collection",
        apiName: "author",
        name: "Author",
        properties: { name: { "x-kind": "text", title: "Name" } },
        required: ["name"],
      },
    ])
      expect((await call("POST", "/cms/content-types", body)).status).toBe(201);
    const article = await call("POST", "/cms/content-types", {
      kind: "collection",
      apiName: "article",
      name: "Article",
      required: ["title"],
      properties: {
        title: { "x-kind": "text", title: "Title", maxLength: 80 },
        slug: { "x-kind": "slug", title: "Slug", "x-slugFrom": "title" },
        body: { "x-kind": "richtext", title: "Body" },
        rating: { "x-kind": "integer", title: "Rating", minimum: 1, maximum: 5 },
        cover: { "x-kind": "media", title: "Cover" },
        author: { "x-kind": "relation", title: "Author", "x-target": "author" },
        hero: { "x-kind": "component", title: "Hero", "x-component": "cta" },
        blocks: { "x-kind": "dynamiczone", title: "Blocks", "x-components": ["quote", "cta"] },
      },
    });
    expect(article.status, JSON.stringify(article.body)).toBe(201);
  });
  afterAll(() => s?.close());

  it("stores a type in the engine's schema format, with list hints derived from its fields", async () => {
    const res = await call<Rec & { schema: Rec }>("GET", "/cms/content-types/article");
    expect(res.status).toBe(200);
    expect(res.body.schema).toMatchObject({
      $id: "cms:article",
      type: "object",
      "x-table": "cms_entries",
      "x-label": "title",
      required: ["title"],
    });
    expect(res.body.schema["x-filterable"]).toEqual(expect.arrayContaining(["title", "slug", "rating"]));
  });

  it("refuses bad types: reserved names, unknown components, a component holding itself", async () => {
    const reserved = await call<{ details: Array<{ message: string }> }>("POST", "/cms/content-types", {
      kind: "collection",
      apiName: "singles",
      name: "S",
      properties: { a: { "x-kind": "text", title: "A" } },
    });
    expect(reserved.status).toBe(400);
    expect(reserved.body.details[0].message).toMatch(/reserved/);
    // Too long: said as too long, not as the wrong letters it does not have.
    const long = await call<{ details: Array<{ field: string; message: string }> }>(
      "POST",
      "/cms/content-types",
      {
        kind: "collection",
        apiName: "a".repeat(80),
        name: "Long",
        properties: { a: { "x-kind": "text", title: "A" } },
      },
    );
    expect(long.status).toBe(400);
    expect(long.body.details).toEqual([
      { field: "apiName", message: "API name must be at most 63 characters" },
    ]);
    const unknown = await call("POST", "/cms/content-types", {
      kind: "collection",
      apiName: "page",
      name: "Page",
      properties: { x: { "x-kind": "component", title: "X", "x-component": "nope" } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toContainEqual({
      field: "properties.x.x-component",
      message: "X: choose a component",
    });
    const loop = await call("PATCH", "/cms/content-types/link", {
      properties: {
        label: { "x-kind": "text", title: "Label" },
        inner: { "x-kind": "component", title: "Inner", "x-component": "cta" },
      },
    });
    expect(loop.status).toBe(400);
    expect(loop.body.message).toMatch(/cannot contain itself/);
  });

  it("validates entries with per-field messages, nested ones too, and writes nothing", async () => {
    const before = await call<{ total: number }>("GET", "/cms/entries/article");
    const res = await call("POST", "/cms/entries/article", {
      rating: 9,
      hero: { text: "Go", link: { href: "not a url" } },
      blocks: [{ __component: "quote", by: "Ann" }],
    });
    expect(res.status).toBe(400);
    const fields = (res.body.details as Array<{ field: string }>).map((d) => d.field);
    expect(fields).toEqual(
      expect.arrayContaining(["title", "rating", "hero.link.label", "hero.link.href", "blocks.0.said"]),
    );
    expect(JSON.stringify(res.body.details)).not.toMatch(/\^|must match/);
    expect((await call<{ total: number }>("GET", "/cms/entries/article")).body.total).toBe(before.body.total);
  });

  let author: Rec;
  let entry: Rec;
  it("creates a draft with a generated slug and sanitised rich text; publishing makes it public", async () => {
    author = (await call("POST", "/cms/entries/author", { name: "Ann Writer", domain_ids: [shop.id] })).body;
    await call("POST", `/cms/entries/author/${author.id}/publish`, {});
    const res = await call("POST", "/cms/entries/article", {
      title: "Hello World!",
      body: '<p onclick="x()">Hi<script>alert(1)</script></p>',
      rating: 4,
      author: author.id,
      hero: { text: "Shop now", link: { label: "Go", href: "https://shop.example.com" } },
      blocks: [{ __component: "quote", said: "Nice", by: "Ann" }],
      domain_ids: [shop.id],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    entry = res.body;
    expect(entry).toMatchObject({ slug: "hello-world", status: "draft", version: 1, body: "<p>Hi</p>" });

    expect((await s.api("GET", "/public-cms/shop/article/hello-world")).status).toBe(404);
    const published = await call("POST", `/cms/entries/article/${entry.id}/publish`, {});
    expect(published.body).toMatchObject({ status: "published", version: 2, draft_changed: false });
    const pub = await s.api<{ data: Rec }>("GET", "/public-cms/shop/article/hello-world");
    expect(pub.status).toBe(200);
    expect(pub.body.data).toMatchObject({
      title: "Hello World!",
      author: { id: author.id, name: "Ann Writer" },
    });
    expect(pub.body.data.blocks).toEqual([{ __component: "quote", said: "Nice", by: "Ann" }]);
    // populate=0: references stay ids.
    const flat = await s.api<{ data: Rec }>("GET", "/public-cms/shop/article/hello-world?populate=0");
    expect(flat.body.data.author).toBe(author.id);
  });

  it("keeps the published version live while the draft is edited, and only publish changes it", async () => {
    const edit = await call("PATCH", `/cms/entries/article/${entry.id}`, {
      title: "Hello again",
      revision: (await call("GET", `/cms/entries/article/${entry.id}`)).body.revision,
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(edit.body).toMatchObject({
      title: "Hello again",
      status: "published",
      draft_changed: true,
      version: 3,
    });
    const pub = await s.api<{ data: Rec }>("GET", "/public-cms/shop/article/hello-world");
    expect(pub.body.data.title).toBe("Hello World!");
  });

  it("refuses a save over a newer revision with a conflict naming who changed it", async () => {
    const stale = await call("PATCH", `/cms/entries/article/${entry.id}`, { title: "Mine", revision: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/changed by .* since you opened it/);
    expect((await call("GET", `/cms/entries/article/${entry.id}`)).body.title).toBe("Hello again");
  });

  it("autosave updates the draft without a version; versions diff and restore", async () => {
    const current = (await call("GET", `/cms/entries/article/${entry.id}`)).body;
    const auto = await call("PATCH", `/cms/entries/article/${entry.id}?autosave=true`, {
      rating: 5,
      revision: current.revision,
    });
    expect(auto.body.version).toBe(current.version);
    const versions = await call<{ data: Array<{ number: number; kind: string; author: string }> }>(
      "GET",
      `/cms/entries/article/${entry.id}/versions`,
    );
    expect(versions.body.data.map((v) => [v.number, v.kind])).toEqual([
      [3, "save"],
      [2, "publish"],
      [1, "save"],
    ]);
    expect(versions.body.data[0].author).toBeTruthy();
    const diff = await call<{ changes: Array<{ field: string; before: unknown; after: unknown }> }>(
      "GET",
      `/cms/entries/article/${entry.id}/versions/diff?from=1&to=current`,
    );
    expect(diff.body.changes).toEqual([
      { field: "title", before: "Hello World!", after: "Hello again" },
      { field: "rating", before: 4, after: 5 },
    ]);
    const restored = await call("POST", `/cms/entries/article/${entry.id}/versions/1/restore`);
    // Version 1 holds what is published: after restoring it there is nothing left to publish.
    expect(restored.body).toMatchObject({
      title: "Hello World!",
      rating: 4,
      version: 4,
      draft_changed: false,
    });
    const back = await call("POST", `/cms/entries/article/${entry.id}/versions/3/restore`);
    expect(back.body).toMatchObject({ title: "Hello again", draft_changed: true });
    await call("POST", `/cms/entries/article/${entry.id}/versions/1/restore`);
  });

  it("scopes public content by domain, filters and sorts with the list contract", async () => {
    expect((await s.api("GET", "/public-cms/blog/article/hello-world")).status).toBe(404);
    const second = (
      await call("POST", "/cms/entries/article", {
        title: "Second",
        rating: 2,
        domain_ids: [shop.id, blog.id],
      })
    ).body;
    await call("POST", `/cms/entries/article/${second.id}/publish`, {});
    const list = await s.api<{ data: Rec[]; total: number }>(
      `GET`,
      `/public-cms/shop/article?sort=rating&filters=${encodeURIComponent(JSON.stringify([{ field: "rating", operator: "gte", value: 2 }]))}`,
    );
    expect(list.status).toBe(200);
    expect(list.body.data.map((d) => d.title)).toEqual(["Second", "Hello World!"]);
    const blogList = await s.api<{ total: number }>("GET", "/public-cms/blog/article");
    expect(blogList.body.total).toBe(1);
    const bad = await s.api("GET", `/public-cms/shop/article?sort=body`);
    expect(bad.status).toBe(400);

    // The admin list filters by domain with the list contract: eq/in hold any, ne holds none.
    const byDomain = (operator: string, value: unknown) =>
      call<{ data: Rec[] }>(
        "GET",
        `/cms/entries/article?filters=${encodeURIComponent(JSON.stringify([{ field: "domain_ids", operator, value }]))}`,
      );
    expect((await byDomain("eq", blog.id)).body.data.map((d) => d.title)).toEqual(["Second"]);
    expect((await byDomain("in", [blog.id, shop.id])).body.data).toHaveLength(2);
    expect((await byDomain("ne", blog.id)).body.data.map((d) => d.title)).toEqual(["Hello World!"]);
    const wrong = await call<{ details: Rec[] }>(
      "GET",
      "/cms/entries/article?filters=" +
        encodeURIComponent(JSON.stringify([{ field: "domain_ids", operator: "gt", value: blog.id }])),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.details[0]).toMatchObject({ field: "filters.domain_ids" });
    expect((await byDomain("eq", "not-an-id")).status).toBe(400);
  });

  it("answers with an ETag and 304 for If-None-Match, the domain's Cache-Control and CORS", async () => {
    const first = await s.api("GET", "/public-cms/shop/article", {
      headers: { origin: "https://shop.example.com" },
    });
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get("cache-control")).toBe("public, max-age=60");
    expect(first.headers.get("access-control-allow-origin")).toBe("https://shop.example.com");
    const again = await s.api("GET", "/public-cms/shop/article", {
      headers: { "if-none-match": etag as string },
    });
    expect(again.status).toBe(304);
    const stranger = await s.api("GET", "/public-cms/shop/article", {
      headers: { origin: "https://evil.example" },
    });
    expect(stranger.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("renames a field keeping its values, and asks before removing one that holds values", async () => {
    const type = (
      await call<Rec & { schema: { properties: Rec; required: string[] } }>(
        "GET",
        "/cms/content-types/article",
      )
    ).body;
    const { rating, ...rest } = type.schema.properties;
    const renamed = await call("PATCH", "/cms/content-types/article", {
      properties: { ...rest, score: rating },
      renames: { rating: "score" },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const read = await call("GET", `/cms/entries/article/${entry.id}`);
    expect(read.body.score).toBe(4);
    expect((await s.api<{ data: Rec }>("GET", "/public-cms/shop/article/hello-world")).body.data.score).toBe(
      4,
    );

    const { score, ...withoutScore } = { ...rest, score: rating };
    void score;
    const ask = await call("PATCH", "/cms/content-types/article", { properties: withoutScore });
    expect(ask.status).toBe(409);
    expect(ask.body.message).toMatch(/Rating deletes its values in 2 entries/);
    const kind = await call("PATCH", "/cms/content-types/article", {
      properties: { ...withoutScore, score: { "x-kind": "boolean", title: "Rating" } },
    });
    expect(kind.status).toBe(400);
    expect(kind.body.message).toMatch(/cannot become/);
    const confirmed = await call("PATCH", "/cms/content-types/article", {
      properties: withoutScore,
      confirm: true,
    });
    expect(confirmed.status).toBe(200);
    expect((await call("GET", `/cms/entries/article/${entry.id}`)).body.score).toBeUndefined();
  });

  it("serves a domain's navigation with entry links resolved to their slugs, hidden items left out", async () => {
    const items = [
      { id: "a", label: "Hello", kind: "entry", type: "article", entryId: entry.id, children: [] },
      {
        id: "b",
        label: "More",
        kind: "group",
        children: [
          { id: "c", label: "Docs", kind: "url", url: "https://docs.example.com", children: [] },
          { id: "d", label: "Secret", kind: "url", url: "/secret", hidden: true, children: [] },
        ],
      },
    ];
    const created = await call("POST", "/cms/navigations", {
      domain_id: shop.id,
      name: "header",
      title: "Header",
      max_depth: 2,
      items,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const pub = await s.api<{ data: { items: unknown[] } }>("GET", "/public-cms/shop/navigations/header");
    expect(pub.body.data.items).toEqual([
      {
        label: "Hello",
        kind: "entry",
        url: "/article/hello-world",
        entry: { type: "article", id: entry.id, slug: "hello-world" },
        children: [],
      },
      {
        label: "More",
        kind: "group",
        url: null,
        children: [{ label: "Docs", kind: "url", url: "https://docs.example.com", children: [] }],
      },
    ]);
    const deep = [
      {
        id: "x",
        label: "L1",
        kind: "group",
        children: [
          {
            id: "y",
            label: "L2",
            kind: "group",
            children: [{ id: "z", label: "L3", kind: "url", url: "/z", children: [] }],
          },
        ],
      },
    ];
    const tooDeep = await call("PATCH", `/cms/navigations/${created.body.id}`, { items: deep });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.message).toBe("L3 is nested deeper than 2 levels");
    const twice = await call("POST", "/cms/navigations", {
      domain_id: shop.id,
      name: "header",
      title: "Again",
    });
    expect(twice.status).toBe(409);
    expect((await s.api("GET", "/public-cms/blog/navigations/header")).status).toBe(404);
  });

  it("keeps one single entry per domain, served at /singles", async () => {
    await call("POST", "/cms/content-types", {
      kind: "single",
      apiName: "home",
      name: "Home page",
      properties: { headline: { "x-kind": "text", title: "Headline" } },
    });
    const home = await call("POST", "/cms/entries/home", { headline: "Welcome", domain_ids: [shop.id] });
    expect(home.status).toBe(201);
    const twice = await call("POST", "/cms/entries/home", { headline: "Again", domain_ids: [shop.id] });
    expect(twice.status).toBe(409);
    await call("POST", `/cms/entries/home/${home.body.id}/publish`, {});
    const pub = await s.api<{ data: Rec }>("GET", "/public-cms/shop/singles/home");
    expect(pub.body.data.headline).toBe("Welcome");
    expect((await s.api("GET", "/public-cms/blog/singles/home")).status).toBe(404);
  });

  it("asks before deleting a type with entries, and refuses a component still in use", async () => {
    expect((await call("DELETE", "/cms/content-types/quote")).status).toBe(409);
    const ask = await call("DELETE", "/cms/content-types/home");
    expect(ask.status).toBe(409);
    expect(ask.body.message).toMatch(/has 1 entry; confirm/);
    expect((await call("DELETE", "/cms/content-types/home?confirm=true")).status).toBe(204);
    expect((await s.api("GET", "/public-cms/shop/singles/home")).status).toBe(404);
  });

  it("serves a token-protected domain only with one of its tokens, until it is revoked", async () => {
    const locked = (await call("POST", "/cms/domains", { key: "members", name: "Members", access: "token" }))
      .body;
    const made = await call<Rec & { token: string }>("POST", `/cms/domains/${locked.id}/tokens`, {
      name: "Site build",
    });
    expect(made.status).toBe(201);
    expect(made.body.token).toMatch(/^cms_/);
    const listed = await call<{ data: Rec[] }>("GET", `/cms/domains/${locked.id}/tokens`);
    expect(listed.body.data[0]).toMatchObject({
      name: "Site build",
      prefix: made.body.token.slice(0, 10),
      revokedAt: null,
    });
    expect(JSON.stringify(listed.body)).not.toContain(made.body.token);
    expect((await s.api("GET", "/public-cms/members/article")).status).toBe(401);
    expect((await s.api("GET", "/public-cms/members/article", { token: "cms_wrong" })).status).toBe(401);
    const allowed = await s.api("GET", "/public-cms/members/article", { token: made.body.token });
    expect(allowed.status).toBe(200);
    // Never reused unchecked: a revoked token must stop working at once, in caches too.
    expect(allowed.headers.get("cache-control")).toBe("private, no-cache");
    expect((await call("DELETE", `/cms/domains/${locked.id}/tokens/${made.body.id}`)).status).toBe(204);
    expect((await s.api("GET", "/public-cms/members/article", { token: made.body.token })).status).toBe(401);
  });

  it("keeps a media library over the asset manager: CMS-only users use the CMS folder; details live on the asset", async () => {
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
      "base64",
    );
    const upload = async (token: string, path: string, name: string) => {
      const form = new FormData();
      form.append("file", new Blob([png], { type: "image/png" }), name);
      const res = await fetch(`${s.baseUrl}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      return { status: res.status, body: (await res.json()) as { data: Rec[] } };
    };
    const elsewhere = await upload(admin, "/dam/assets", "dam-only.png");
    expect(elsewhere.status).toBe(201);
    await call("POST", "/api/users", {
      first_name: "Cora",
      last_name: "Content",
      email: `cms-only-${driver}@example.com`,
      password: "Cms-only-passw0rd",
      role: 3,
      modules: [4],
    });
    const editor = (await s.signIn(`cms-only-${driver}@example.com`, "Cms-only-passw0rd")).accessToken;
    const mine = await upload(editor, "/cms/media", "hero.png");
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    const media = mine.body.data[0];
    // The answer as docs/cms-api.md gives it: the stored assets, and the files refused (none).
    expect((mine.body as unknown as { errors: unknown[] }).errors).toEqual([]);
    expect(Object.keys(media).sort()).toEqual(
      [
        ...["id", "folderId", "name", "originalName", "mime", "size", "width", "height", "alt", "caption"],
        ...["focalPoint", "tags", "url", "thumbnailUrl", "createdAt", "updatedAt"],
      ].sort(),
    );
    const list = await s.api<{ mediaDtoList: Rec[]; metaData: { pagination: Rec } }>(
      "GET",
      "/cms/media?pageSize=10",
      { token: editor },
    );
    expect(list.body.mediaDtoList.map((m) => m.name)).toEqual(["hero.png"]);
    expect(list.body.metaData.pagination).toEqual({ page: 1, pageSize: 10, total: 1, pageCount: 1 });
    expect(
      (await s.api("PATCH", `/cms/media/${elsewhere.body.data[0].id}`, { token: editor, body: { alt: "x" } }))
        .status,
    ).toBe(404);
    // By ids (an entry's media fields shown by thumbnail): only those the user may see.
    const byIds = await s.api<{ mediaDtoList: Rec[] }>(
      "GET",
      `/cms/media?ids=${media.id},${elsewhere.body.data[0].id}`,
      { token: editor },
    );
    expect(byIds.body.mediaDtoList.map((m) => m.name)).toEqual(["hero.png"]);
    const badIds = await s.api<{ details: Rec[] }>("GET", "/cms/media?ids=not-an-id", { token: editor });
    expect(badIds.status).toBe(400);
    expect(badIds.body.details[0]).toMatchObject({ message: expect.stringContaining("asset ids") });
    const all = await call<{ mediaDtoList: Rec[] }>("GET", "/cms/media?pageSize=100");
    expect(all.body.mediaDtoList.map((m) => m.name)).toEqual(
      expect.arrayContaining(["hero.png", "dam-only.png"]),
    );

    const described = await s.api<Rec>("PATCH", `/cms/media/${media.id}`, {
      token: editor,
      body: { alt: "A hero", caption: "Spring", focalPoint: { x: 0.25, y: 0.75 } },
    });
    expect(described.status).toBe(200);
    const asset = await call<Rec>("GET", `/dam/assets/${media.id}`);
    expect(asset.body).toMatchObject({ alt: "A hero", caption: "Spring", focalPoint: { x: 0.25, y: 0.75 } });
    const badPoint = await s.api("PATCH", `/cms/media/${media.id}`, {
      token: editor,
      body: { focalPoint: { x: 2, y: 0 } },
    });
    expect(badPoint.status).toBe(400);

    const withCover = await call("POST", "/cms/content-types", {
      kind: "collection",
      apiName: "gallery",
      name: "Gallery",
      properties: {
        title: { "x-kind": "text", title: "Title" },
        cover: { "x-kind": "media", title: "Cover" },
      },
    });
    expect(withCover.status).toBe(201);
    const used = (await call("POST", "/cms/entries/gallery", { title: "Spring", cover: media.id })).body;
    const usage = await s.api<{ data: Rec[] }>("GET", `/cms/media/${media.id}/usage`, { token: editor });
    expect(usage.body.data).toEqual([{ type: "gallery", typeName: "Gallery", id: used.id, label: "Spring" }]);
    const ask = await s.api("DELETE", `/cms/media/${media.id}`, { token: editor });
    expect(ask.status).toBe(409);
    expect(ask.body.message).toMatch(/used by Gallery "Spring"/);
    expect((await s.api("DELETE", `/cms/media/${media.id}?confirm=true`, { token: editor })).status).toBe(
      204,
    );
  });

  it("lists each type's delivery API in the OpenAPI document, with its fields, and the document stays valid", async () => {
    const doc = (
      await s.api<{
        paths: Record<
          string,
          { get: { responses: Record<string, { content?: Record<string, { schema: Rec }> }> } }
        >;
      }>("GET", "/api/docs/json")
    ).body;
    const list = doc.paths["/public-cms/{domain}/article"];
    expect(list).toBeDefined();
    const schema = list.get.responses["200"].content?.["application/json"].schema as unknown as {
      properties: { data: { items: { properties: Rec } } };
    };
    expect(Object.keys(schema.properties.data.items.properties)).toEqual(
      expect.arrayContaining(["id", "title", "slug", "hero", "blocks", "publishedAt"]),
    );
    expect(doc.paths["/public-cms/{domain}/article/{ref}"]).toBeDefined();
    expect(doc.paths["/public-cms/{domain}/link"]).toBeUndefined(); // a component has no API of its own
    const SwaggerParser = (await import("@apidevtools/swagger-parser")).default;
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it("sends live changes of a type's entries to subscribers with the CMS module", async () => {
    const socket = testSocket(s.baseUrl, admin);
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on("connect", () => resolve());
        socket.on("connect_error", reject);
      });
      const ack = await socket.emitWithAck("subscribe", "entries/article");
      expect(ack).toEqual({ ok: true });
      expect(await socket.emitWithAck("subscribe", "entries/Not_A_Type!")).toMatchObject({ ok: false });
      const change = new Promise<Rec>((resolve) => socket.on("change", resolve));
      const made = (await call("POST", "/cms/entries/article", { title: "Live one" })).body;
      expect(await change).toEqual({ resource: "entries/article", type: "created", ids: [made.id] });
    } finally {
      socket.disconnect();
    }
  });

  it("needs the CMS module on every admin route", async () => {
    const anon = await s.api("GET", "/cms/content-types");
    expect(anon.status).toBe(401);
    const user = await call("POST", "/api/users", {
      first_name: "No",
      last_name: "Cms",
      email: `nocms-${driver}@example.com`,
      password: "No-cms-passw0rd",
      role: 3,
      modules: [2],
    });
    expect(user.status).toBe(201);
    const token = (await s.signIn(`nocms-${driver}@example.com`, "No-cms-passw0rd")).accessToken;
    for (const [method, path] of [
      ["GET", "/cms/content-types"],
      ["GET", "/cms/entries/article"],
      ["POST", `/cms/entries/article/${entry.id}/publish`],
      ["GET", "/cms/domains"],
    ] as const) {
      expect(
        (await s.api(method, path, { token, body: method === "POST" ? {} : undefined })).status,
        path,
      ).toBe(403);
    }
  });
  it("renames a component's field in every entry that holds the component, blocks and nesting included", async () => {
    const linkType = (await call<Rec & { schema: { properties: Rec } }>("GET", "/cms/content-types/link"))
      .body;
    const { label, ...linkRest } = linkType.schema.properties;
    const renamed = await call("PATCH", "/cms/content-types/link", {
      properties: { ...linkRest, caption: label },
      required: ["caption"],
      renames: { label: "caption" },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const quoteType = (await call<Rec & { schema: { properties: Rec } }>("GET", "/cms/content-types/quote"))
      .body;
    const { said, ...quoteRest } = quoteType.schema.properties;
    expect(
      (
        await call("PATCH", "/cms/content-types/quote", {
          properties: { ...quoteRest, words: said },
          required: ["words"],
          renames: { said: "words" },
        })
      ).status,
    ).toBe(200);

    // The link sits in the article's hero (a cta), the quote in its blocks: draft and published.
    const draft = await call<Rec & { hero: Rec & { link: Rec }; blocks: Rec[] }>(
      "GET",
      `/cms/entries/article/${entry.id}`,
    );
    expect(draft.body.hero.link).toEqual({ caption: "Go", href: "https://shop.example.com" });
    expect(draft.body.blocks[0]).toMatchObject({ __component: "quote", words: "Nice", by: "Ann" });
    const pub = await s.api<{ data: Rec & { hero: Rec & { link: Rec }; blocks: Rec[] } }>(
      "GET",
      "/public-cms/shop/article/hello-world",
    );
    expect(pub.body.data.hero.link).toEqual({ caption: "Go", href: "https://shop.example.com" });
    expect(pub.body.data.blocks[0]).toEqual({ __component: "quote", words: "Nice", by: "Ann" });
  });
});
