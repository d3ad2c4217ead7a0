/**
 * Live preview of drafts (issue 29, docs/cms-api.md "Live preview"), on PGlite and PostgreSQL:
 * a domain's preview address filled in for an entry with a short-lived token; the delivery
 * API answering that one entry's draft with it (never kept, `private, no-store`), and refusing
 * it for another entry, another domain, once expired and once the entry is deleted; the token
 * in no log line.
 */
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PREVIEW_TTL_SECONDS, readPreview, signPreview } from "../../server/modules/cms/preview";
import { DRIVERS, startServer, type TestServer } from "./harness";

type Rec = Record<string, unknown> & { id: string };
interface Preview {
  url: string;
  expiresAt: string;
  domain: { id: string; key: string; name: string };
  domains: Array<{ id: string; key: string; name: string; hasPreview: boolean }>;
}

describe.each(DRIVERS)("live preview on %s", (driver) => {
  let s: TestServer;
  let admin: string;
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const call = <T = Rec>(method: string, path: string, body?: unknown) =>
    s.api<T>(method, path, { token: admin, body });

  beforeAll(async () => {
    s = await startServer(driver, {}, { logger: { level: "debug", stream } });
    admin = (await s.signIn()).accessToken;
    expect(
      (
        await call("POST", "/cms/content-types", {
          kind: "collection",
          apiName: "story",
          name: "Story",
          properties: {
            title: { "x-kind": "text", title: "Title" },
            slug: { "x-kind": "slug", title: "Slug", "x-slugFrom": "title" },
          },
        })
      ).status,
    ).toBe(201);
  });
  afterAll(() => s?.close());

  it("opens one entry's draft on its domain's site, and nothing else", async () => {
    const bad = await call("POST", "/cms/domains", {
      key: "bad-preview",
      name: "Bad",
      preview_url: "https://site.example/{lang}/{slug}",
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain(
      "its only placeholders may be {type}, {slug}, {id}, {domain} and {locale}",
    );

    const site = (
      await call("POST", "/cms/domains", {
        key: "site",
        name: "Site",
        access: "token",
        preview_url: "https://site.example/{domain}/{type}/{slug}?from=cms",
      })
    ).body;
    const plain = (await call("POST", "/cms/domains", { key: "plain", name: "Plain" })).body;
    const story = (
      await call("POST", "/cms/entries/story", { title: "First light", domain_ids: [site.id, plain.id] })
    ).body;
    const other = (await call("POST", "/cms/entries/story", { title: "Other", domain_ids: [site.id] })).body;
    expect((await call("POST", `/cms/entries/story/${story.id}/publish`, {})).status).toBe(200);
    expect(
      (
        await call("PATCH", `/cms/entries/story/${story.id}?autosave=true`, {
          title: "First light, redrafted",
        })
      ).status,
    ).toBe(200);

    // The domain without a preview address is refused by name; the one with it is chosen.
    const refused = await call("POST", `/cms/entries/story/${story.id}/preview`, { domainId: plain.id });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      details: [{ field: "domainId", message: expect.stringContaining("Plain has no preview address") }],
    });
    const made = await call<Preview>("POST", `/cms/entries/story/${story.id}/preview`, {});
    expect(made.status).toBe(200);
    expect(made.body.domain.key).toBe("site");
    expect(made.body.domains).toEqual([
      expect.objectContaining({ key: "plain", hasPreview: false }),
      expect.objectContaining({ key: "site", hasPreview: true }),
    ]);
    const address = new URL(made.body.url);
    expect(`${address.origin}${address.pathname}`).toBe("https://site.example/site/story/first-light");
    expect(address.searchParams.get("from")).toBe("cms");
    const token = address.searchParams.get("atelier-preview") ?? "";
    expect(token).toMatch(/^cmsp_/);
    const lifetime = Date.parse(made.body.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan((PREVIEW_TTL_SECONDS - 60) * 1000);
    expect(lifetime).toBeLessThanOrEqual(PREVIEW_TTL_SECONDS * 1000);

    // The draft, by slug or id, with the token in the header or the query; never cached.
    const draft = await s.api<{ data: Rec }>("GET", "/public-cms/site/story/first-light", {
      headers: { "x-atelier-preview": token },
    });
    expect(draft.status).toBe(200);
    expect(draft.body.data).toMatchObject({ id: story.id, title: "First light, redrafted" });
    expect(draft.headers.get("cache-control")).toBe("private, no-store");
    expect(draft.headers.get("x-atelier-preview")).toBe("draft");
    expect(draft.headers.get("etag")).toBeNull();
    const byQuery = await s.api<{ data: Rec }>(
      "GET",
      `/public-cms/site/story/${story.id}?preview=${encodeURIComponent(token)}`,
    );
    expect(byQuery.body.data.title).toBe("First light, redrafted");
    // Without the token, the token domain still wants its API token; the published copy is unchanged.
    expect((await s.api("GET", "/public-cms/site/story/first-light")).status).toBe(401);

    // Another entry, another domain, a forged or expired token: refused, in words.
    const refusedWith = async (path: string, preview: string, status: number, words: string) => {
      const res = await s.api("GET", path, { headers: { "x-atelier-preview": preview } });
      expect(res.status, path).toBe(status);
      expect(JSON.stringify(res.body)).toContain(words);
    };
    await refusedWith(`/public-cms/site/story/${other.id}`, token, 403, "opens another entry");
    await refusedWith(`/public-cms/plain/story/${story.id}`, token, 403, "for another domain");
    await refusedWith(`/public-cms/site/story/${story.id}`, `${token.slice(0, -2)}xx`, 401, "not valid");
    const signer = { mac: () => "forged" };
    await refusedWith(
      `/public-cms/site/story/${story.id}`,
      signPreview(signer, { entryId: story.id, domainId: site.id, expiresAt: 9_999_999_999 }),
      401,
      "not valid",
    );
    expect(
      readPreview(signer, signPreview(signer, { entryId: story.id, domainId: site.id, expiresAt: 1 })),
    ).toEqual({
      ok: false,
      reason: "expired",
    });

    // Deleted: gone for the preview too.
    expect((await call("DELETE", `/cms/entries/story/${story.id}`)).status).toBe(204);
    await refusedWith(`/public-cms/site/story/${story.id}`, token, 404, "no longer exists");

    // The token is in no log line (the server logs at debug level: every request).
    expect(lines.join("")).toContain("/public-cms/site/story");
    expect(lines.join("")).not.toContain(token.slice(5, 40));
  });

  it("answers 4xx, never 5xx, to bad preview requests", async () => {
    const entry = (await call("POST", "/cms/entries/story", { title: "Lonely" })).body;
    const noDomain = await call("POST", `/cms/entries/story/${entry.id}/preview`, {});
    expect(noDomain.status).toBe(400);
    expect(JSON.stringify(noDomain.body)).toContain("Add this entry to a domain first");
    expect((await call("POST", `/cms/entries/story/${entry.id}/preview`, { domainId: "nope" })).status).toBe(
      400,
    );
    expect((await call("POST", "/cms/entries/story/not-a-uuid/preview", {})).status).toBe(400);
    expect(
      (await call("POST", "/cms/entries/nothing/00000000-0000-4000-8000-000000000000/preview", {})).status,
    ).toBe(404);
    expect((await s.api("POST", `/cms/entries/story/${entry.id}/preview`, { body: {} })).status).toBe(401);
    const long = "cmsp_".padEnd(700, "a");
    expect((await s.api("GET", `/public-cms/plain/story/x?preview=${long}`)).status).toBe(400);
  });
});
