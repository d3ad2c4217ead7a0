/**
 * Live preview of drafts (issue 29). The entry editor asks for a preview (`POST
 * /cms/entries/{type}/{id}/preview`) and opens the domain's preview address, filled in for the
 * entry, with a short-lived signed token added as `?atelier-preview=…`. The site's page hands
 * the token to the delivery API (`X-Atelier-Preview` header or `?preview=`), which then answers
 * that one entry's draft in that one domain, never kept and `private, no-store`.
 *
 * The token is stateless: `cmsp_<payload>.<mac>`, the payload naming the entry, the domain and
 * the expiry, the MAC made with the server's secret. A deleted entry, an entry taken out of the
 * domain or a time past the expiry refuses it; so does any other entry or domain.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { sql } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import type { PREVIEW_PLACEHOLDERS } from "../../../schemas/cms-domains";
import { mergedLocaleValues } from "../../../schemas/cms-locales";
import { UUID } from "../../../schemas/uuid";
import { moduleAccess } from "../../auth/access";
import type { AppContext } from "../../context";
import { badRequest, HttpError, notFound } from "../../http/errors";
import { sameSignature } from "../../mail/tracking";
import type { AnyDb } from "../../resources/rules";
import { entryParams } from "./route-schemas";
import type { ContentType, TypeRegistry } from "./type-registry";

export const PREVIEW_TOKEN_PREFIX = "cmsp_";
/** How long a preview token opens its draft; the editor asks for a new one before it ends. */
export const PREVIEW_TTL_SECONDS = 30 * 60;
/** The query parameter the preview address carries the token in, for the site's page. */
export const PREVIEW_ADDRESS_PARAM = "atelier-preview";
/** Where the site's page hands the token to the delivery API (either). */
export const PREVIEW_HEADER = "x-atelier-preview";
export const PREVIEW_QUERY = "preview";
/** Every draft answer's Cache-Control: no cache may keep or share it. */
export const PREVIEW_CACHE_CONTROL = "private, no-store";

const MAC_PURPOSE = "cms-preview";

export interface PreviewClaims {
  entryId: string;
  domainId: string;
  /** Unix seconds. */
  expiresAt: number;
}

/** Signs with the server's secret (the app's TokenService). */
export interface PreviewSigner {
  mac(purpose: string, data: string): string;
}

export function signPreview(signer: PreviewSigner, claims: PreviewClaims): string {
  const payload = Buffer.from(`${claims.entryId}.${claims.domainId}.${claims.expiresAt}`).toString(
    "base64url",
  );
  return `${PREVIEW_TOKEN_PREFIX}${payload}.${signer.mac(MAC_PURPOSE, payload)}`;
}

export type PreviewCheck = { ok: true; claims: PreviewClaims } | { ok: false; reason: "invalid" | "expired" };

/** The token's claims when the server signed it and it has not expired. */
export function readPreview(signer: PreviewSigner, token: string, nowMs = Date.now()): PreviewCheck {
  const match = /^cmsp_([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{1,100})$/.exec(token);
  if (!match) return { ok: false, reason: "invalid" };
  const [, payload, mac] = match as unknown as [string, string, string];
  if (!sameSignature(mac, signer.mac(MAC_PURPOSE, payload))) return { ok: false, reason: "invalid" };
  const [entryId, domainId, expires] = Buffer.from(payload, "base64url").toString("utf8").split(".");
  const expiresAt = Number(expires);
  if (!entryId || !domainId || !UUID.test(entryId) || !UUID.test(domainId) || !Number.isInteger(expiresAt))
    return { ok: false, reason: "invalid" };
  if (expiresAt * 1000 <= nowMs) return { ok: false, reason: "expired" };
  return { ok: true, claims: { entryId, domainId, expiresAt } };
}

/**
 * A domain's preview address filled in for one entry (each value URL-encoded; an entry without
 * a slug uses its id), with the token added as `atelier-preview`.
 */
export function previewAddress(
  template: string,
  values: Record<(typeof PREVIEW_PLACEHOLDERS)[number], string>,
  token: string,
): string {
  const filled = template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? encodeURIComponent(values[name as keyof typeof values]) : whole,
  );
  const url = new URL(filled);
  url.searchParams.set(PREVIEW_ADDRESS_PARAM, token);
  return url.toString();
}

/** The preview token a delivery request carries, if any (header first, then the query). */
export function previewTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers[PREVIEW_HEADER];
  if (typeof header === "string" && header) return header;
  const query = (request.query as Record<string, unknown> | undefined)?.[PREVIEW_QUERY];
  return typeof query === "string" && query ? query : undefined;
}

interface PreviewEntry {
  id: string;
  type_id: string;
  domain_ids: string[];
  slug: string | null;
  locale: string | null;
  source_id: string | null;
  data: Record<string, unknown>;
  published: Record<string, unknown> | null;
  published_at: Date | string | null;
}

/**
 * The draft a delivery request's preview token opens: the token checked against the path's
 * domain, type and (for a collection) slug or id. 401 for a token that is not ours or has
 * expired, 403 for another entry or domain, 404 once the entry is deleted.
 */
export async function previewedDraft(
  ctx: AppContext,
  token: string,
  domainId: string,
  type: ContentType,
  ref: string | null,
): Promise<Record<string, unknown>> {
  const check = readPreview(ctx.tokens, token);
  if (!check.ok)
    throw new HttpError(
      401,
      check.reason === "expired"
        ? "This preview has expired: open the preview again from the entry's editor"
        : "This preview token is not valid",
    );
  const { claims } = check;
  if (claims.domainId !== domainId) throw new HttpError(403, "This preview token is for another domain");
  const entry = (await (ctx.db as unknown as AnyDb)
    .selectFrom("cms_entries")
    .select([
      "id",
      "type_id",
      "domain_ids",
      "slug",
      "locale",
      "source_id",
      "data",
      "published",
      "published_at",
    ])
    .where("id", "=", claims.entryId)
    .executeTakeFirst()) as PreviewEntry | undefined;
  if (!entry) throw notFound("The previewed entry no longer exists");
  // A locale's variant: its localised values over its entry's shared ones, found by either's id.
  const source = entry.source_id
    ? ((await (ctx.db as unknown as AnyDb)
        .selectFrom("cms_entries")
        .select(["id", "data"])
        .where("id", "=", entry.source_id)
        .executeTakeFirst()) as Pick<PreviewEntry, "id" | "data"> | undefined)
    : undefined;
  const slugField = Object.keys(type.schema.properties).find(
    (n) => type.schema.properties[n]["x-kind"] === "slug",
  );
  const refs = [entry.id, source?.id, entry.slug, slugField ? entry.published?.[slugField] : null];
  if (entry.type_id !== type.id || (ref !== null && !refs.includes(ref)))
    throw new HttpError(403, "This preview token opens another entry");
  if (!entry.domain_ids.includes(domainId))
    throw new HttpError(403, "The previewed entry is no longer in this domain");
  const values = source ? mergedLocaleValues(type.schema.properties, source.data, entry.data) : entry.data;
  return {
    id: source?.id ?? entry.id,
    ...values,
    ...(entry.locale ? { locale: entry.locale } : {}),
    publishedAt: entry.published_at ? new Date(entry.published_at).toISOString() : null,
  };
}

interface DomainRow {
  id: string;
  key: string;
  name: string;
  preview_url: string | null;
  default_locale: string;
}

/** `POST /cms/entries/{type}/{id}/preview`: a preview address with a fresh token. */
export async function previewRoutes(app: FastifyInstance, ctx: AppContext, registry: TypeRegistry) {
  const db = ctx.db as unknown as AnyDb;
  app.post<{ Params: { type: string; id: string }; Body: { domainId?: string } | undefined }>(
    "/cms/entries/:type/:id/preview",
    {
      config: { access: moduleAccess(MODULE_IDS.cms) },
      schema: {
        tags: ["cms entries"],
        security: [{ bearer: [] }],
        summary:
          "A preview address of the entry's draft on one of its domains' sites, with a short-lived token",
        params: entryParams,
        body: {
          type: "object",
          additionalProperties: false,
          properties: { domainId: { type: "string", format: "uuid" } },
        },
      },
    },
    async (request) => {
      const type = (await registry.all()).get(request.params.type);
      if (!type || type.kind === "component") throw notFound("Content type not found");
      const entry = (await db
        .selectFrom("cms_entries")
        .select(["id", "domain_ids", "slug", "locale"])
        .where("id", "=", request.params.id)
        .where("type_id", "=", type.id)
        .executeTakeFirst()) as Pick<PreviewEntry, "id" | "domain_ids" | "slug" | "locale"> | undefined;
      if (!entry) throw notFound("Entry not found");
      const domains = (
        entry.domain_ids.length
          ? ((await db
              .selectFrom("cms_domains")
              .select(["id", "key", "name", "preview_url", "default_locale"])
              .where(sql<boolean>`id = any(${entry.domain_ids}::uuid[])`)
              .orderBy("name")
              .execute()) as DomainRow[])
          : []
      ).map((d) => ({
        id: d.id,
        key: d.key,
        name: d.name,
        previewUrl: d.preview_url,
        locale: d.default_locale,
      }));
      const asked = request.body?.domainId;
      const refuse = (message: string) => badRequest(message, [{ field: "domainId", message }]);
      if (domains.length === 0)
        throw refuse("Add this entry to a domain first: a preview opens on a domain's site");
      const domain = asked ? domains.find((d) => d.id === asked) : domains.find((d) => d.previewUrl);
      if (!domain) {
        throw refuse(
          asked
            ? "This entry is not in that domain"
            : "None of this entry's domains has a preview address: set one on the domain's page (CMS › Domains)",
        );
      }
      if (!domain.previewUrl)
        throw refuse(`${domain.name} has no preview address: set one on the domain's page (CMS › Domains)`);
      const expiresAt = Math.floor(Date.now() / 1000) + PREVIEW_TTL_SECONDS;
      const token = signPreview(ctx.tokens, { entryId: entry.id, domainId: domain.id, expiresAt });
      const url = previewAddress(
        domain.previewUrl,
        {
          type: type.apiName,
          slug: entry.slug ?? entry.id,
          id: entry.id,
          domain: domain.key,
          locale: entry.locale ?? domain.locale,
        },
        token,
      );
      return {
        url,
        expiresAt: new Date(expiresAt * 1000).toISOString(),
        domain: { id: domain.id, key: domain.key, name: domain.name },
        domains: domains.map((d) => ({
          id: d.id,
          key: d.key,
          name: d.name,
          hasPreview: Boolean(d.previewUrl),
        })),
      };
    },
  );
}

/** How long the admin page's list of preview origins is trusted without a domain change. */
const ORIGINS_TTL_MS = 30_000;

/**
 * The origins of the domains' preview addresses, which the admin app's page may frame (its
 * CSP's `frame-src`, server/http/spa.ts). Read again after a domain changes here, and at most
 * 30 s after one changed on another instance. A placeholder in the host name may be its first
 * label only (`https://{domain}.site.example/…` frames `https://*.site.example`).
 */
export class PreviewOrigins {
  private origins: readonly string[] = [];
  private readAt = 0;
  private reading: Promise<readonly string[]> | null = null;

  constructor(private readonly ctx: AppContext) {
    ctx.events.subscribe((change) => {
      if (change.resource === "domains") this.readAt = 0;
    });
  }

  async current(): Promise<readonly string[]> {
    if (Date.now() - this.readAt < ORIGINS_TTL_MS) return this.origins;
    this.reading ??= this.read().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  private async read(): Promise<readonly string[]> {
    const readAt = Date.now();
    const rows = (await (this.ctx.db as unknown as AnyDb)
      .selectFrom("cms_domains")
      .select("preview_url")
      .where("preview_url", "is not", null)
      .execute()) as Array<{ preview_url: string }>;
    this.origins = [...new Set(rows.map((r) => frameOrigin(r.preview_url)).filter((o) => o !== null))];
    this.readAt = readAt;
    return this.origins;
  }
}

/** The CSP source a preview address is framed by, or null when its host cannot be one. */
export function frameOrigin(template: string): string | null {
  const match = /^(https?):\/\/([^/?#]+)/.exec(template);
  if (!match) return null;
  const [, scheme, host] = match as unknown as [string, string, string];
  const wild = /^\{\w+\}\.([^{}]+)$/.exec(host);
  if (wild) return `${scheme}://*.${wild[1]}`;
  return host.includes("{") ? null : `${scheme}://${host}`;
}
