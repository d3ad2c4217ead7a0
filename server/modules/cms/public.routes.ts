/**
 * The public delivery API (the public CMS base, no sign-in unless the domain asks for a
 * token): published content of one domain only, `populate` to the depth asked, an ETag on
 * every answer with 304 for a matching `If-None-Match`, the domain's Cache-Control, and CORS
 * for the domain's allowed origins.
 */
import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { sql } from "kysely";
import { BCP47_PATTERN } from "../../../schemas/cms-locales";
import { UUID } from "../../../schemas/uuid";
import { markScopePublic } from "../../auth/access";
import type { AppContext } from "../../context";
import { HttpError, notFound } from "../../http/errors";
import { type ListQuery, listPage, listQuerySchema } from "../../http/list-query";
import type { AnyDb } from "../../resources/rules";
import { resolveNavigation } from "./navigation-tree";
import { MAX_POPULATE, Populator, publicEntry } from "./populate";
import {
  PREVIEW_CACHE_CONTROL,
  PREVIEW_HEADER,
  PREVIEW_QUERY,
  previewedDraft,
  previewTokenOf,
} from "./preview";
import type { PublicCache } from "./public-cache";
import { chainOf, publishedInChain } from "./public-locales";
import type { ContentType, TypeRegistry } from "./type-registry";

/**
 * A token domain's API token comes in `Authorization`, a draft's preview token in
 * `X-Atelier-Preview` or `?preview=`: never logged, nor are their values.
 */
const API_TOKEN = { headers: ["authorization", PREVIEW_HEADER], query: [PREVIEW_QUERY] };

/** Cache-Control of every answer of a token-protected domain. */
export const TOKEN_CACHE_CONTROL = "private, no-cache";
export const PUBLIC_CMS_PREFIX = "/public-cms";

interface Domain {
  id: string;
  key: string;
  access: "public" | "token";
  allowed_origins: string[];
  cache_control: string;
  default_locale: string;
  locales: unknown;
}

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

const populateQuery = {
  populate: { type: "integer", minimum: 0, maximum: MAX_POPULATE, default: 1 },
  locale: { type: "string", maxLength: 35, pattern: BCP47_PATTERN },
} as const;
/** One entry's routes also take a draft's preview token (preview.ts). */
const entryQuery = {
  type: "object",
  additionalProperties: false,
  properties: { ...populateQuery, [PREVIEW_QUERY]: { type: "string", maxLength: 600 } },
} as const;
const domainParam = { domain: { type: "string", minLength: 1, maxLength: 63 } } as const;
const typeParam = { type: { type: "string", minLength: 1, maxLength: 63 } } as const;

type Query = ListQuery & { populate?: number; locale?: string };

export async function publicCmsRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  registry: TypeRegistry,
  cache: PublicCache,
) {
  const db = ctx.db as unknown as AnyDb;
  const populator = new Populator(ctx, registry);

  /**
   * The domain of the path, its token checked when it wants one (unless a preview token
   * stands in for it: `previewed` checks that one); CORS headers set.
   */
  async function domainOf(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    previewing = false,
  ): Promise<Domain> {
    let row = cache.domain<Domain>(key);
    if (!row) {
      const generation = cache.generation;
      row = (await db
        .selectFrom("cms_domains")
        .select(["id", "key", "access", "allowed_origins", "cache_control", "default_locale", "locales"])
        .where("key", "=", key)
        .executeTakeFirst()) as Domain | undefined;
      if (!row) throw notFound("No such domain");
      cache.keepDomain(key, row, generation);
    }
    const origins =
      typeof row.allowed_origins === "string" ? JSON.parse(row.allowed_origins) : row.allowed_origins;
    const origin = request.headers.origin;
    reply.header("vary", "Origin, Accept-Language");
    if (origin && (origins as string[]).some((o) => o.replace(/\/+$/, "") === origin)) {
      reply.header("access-control-allow-origin", origin);
      reply.header("access-control-allow-headers", `authorization, if-none-match, ${PREVIEW_HEADER}`);
      reply.header("access-control-expose-headers", "etag");
    }
    if (row.access === "token" && !previewing) {
      const header = request.headers.authorization ?? "";
      const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
      const found = token
        ? await db
            .updateTable("cms_api_tokens")
            .set({ last_used_at: sql`now()` })
            .where("domain_id", "=", row.id)
            .where("token_hash", "=", hashToken(token))
            .where("revoked_at", "is", null)
            .returning("id")
            .executeTakeFirst()
        : undefined;
      if (!found) throw new HttpError(401, "This domain's content needs a valid API token");
    }
    return { ...row, allowed_origins: origins };
  }

  /**
   * Answers with the kept JSON of this request (same domain, path and query) or with what
   * `compute` makes (kept for the next time), with its ETag, or 304 when the client holds it.
   */
  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    domain: Domain,
    compute: () => Promise<unknown>,
  ) {
    // The locales asked for by header are part of what the answer is (by query, of its URL).
    const key = `${domain.id} ${chainOf(request, domain).join(",")} ${request.url}`;
    let kept = cache.get(key);
    if (!kept) {
      const generation = cache.generation;
      kept = cache.keep(key, await compute(), generation);
    }
    // A token domain's answer is never reused unchecked: a revoked token must stop working at
    // once, and no shared cache may hand it to a caller without one. The ETag keeps rereads cheap.
    const cacheControl = domain.access === "token" ? TOKEN_CACHE_CONTROL : domain.cache_control;
    reply.header("etag", kept.etag).header("cache-control", cacheControl);
    const match = request.headers["if-none-match"];
    if (match?.split(",").some((m) => m.trim().replace(/^W\//, "") === kept.etag)) {
      return reply.status(304).send();
    }
    return reply.type("application/json; charset=utf-8").send(kept.body);
  }

  /**
   * A draft's answer for a request with a preview token: never kept nor cached, said to be a
   * draft (`X-Atelier-Preview: draft`), refused for any other entry or domain (preview.ts).
   */
  async function previewed(
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    domainKey: string,
    type: () => Promise<ContentType>,
    ref: string | null,
    populate: number,
  ) {
    reply.header("cache-control", PREVIEW_CACHE_CONTROL);
    const domain = await domainOf(request, reply, domainKey, true);
    const contentType = await type();
    const entry = await previewedDraft(ctx, token, domain.id, contentType, ref);
    await populator.populate(contentType, [entry], populate, domain.id);
    return reply.header(PREVIEW_HEADER, "draft").send({ data: entry });
  }

  async function publicType(name: string, kind: "collection" | "single"): Promise<ContentType> {
    const type = (await registry.all()).get(name);
    if (!type || type.kind !== kind)
      throw notFound(`No ${kind === "single" ? "single type" : "collection"} '${name}'`);
    return type;
  }

  const published = (type: ContentType, domain: Domain, chain: readonly string[], id?: string) =>
    publishedInChain(db, type, domain, chain, id);

  await app.register(async (scope) => {
    markScopePublic(scope);
    const tags = ["public cms"];

    scope.options<{ Params: { domain: string } }>(
      `${PUBLIC_CMS_PREFIX}/:domain/*`,
      { schema: { hide: true } },
      async (request, reply) => {
        await domainOf(request, reply, request.params.domain).catch(() => undefined);
        reply.header("access-control-allow-methods", "GET, OPTIONS").header("access-control-max-age", "600");
        return reply.status(204).send();
      },
    );

    scope.get<{ Params: { domain: string; type: string }; Querystring: Query }>(
      `${PUBLIC_CMS_PREFIX}/:domain/:type`,
      {
        config: { secrets: API_TOKEN },
        schema: {
          tags,
          summary: "Published entries of a collection (list contract; populate = reference depth)",
          params: { type: "object", properties: { ...domainParam, ...typeParam } },
          querystring: {
            ...listQuerySchema,
            properties: { ...listQuerySchema.properties, ...populateQuery },
          },
        },
      },
      async (request, reply) => {
        const domain = await domainOf(request, reply, request.params.domain);
        const type = await publicType(request.params.type, "collection");
        return answer(request, reply, domain, async () => {
          const schema = type.schema;
          const json = registry.listFields(type, "t.published");
          const { rows, total } = await listPage(
            db,
            published(type, domain, chainOf(request, domain)),
            request.query,
            {
              table: "t",
              defaultSort: "-published_at",
              sortFields: [...schema["x-filterable"].filter((f) => json.filterFields[f]), "published_at"],
              filterFields: { ...json.filterFields, published_at: "date", id: "uuid" },
              expressions: json.expressions,
              search: schema["x-searchable"],
            },
          );
          const data = rows.map((r) => publicEntry(r as never));
          await populator.populate(type, data, request.query.populate ?? 1, domain.id);
          return { data, total };
        });
      },
    );

    scope.get<{ Params: { domain: string; type: string }; Querystring: { populate?: number } }>(
      `${PUBLIC_CMS_PREFIX}/:domain/singles/:type`,
      {
        config: { secrets: API_TOKEN },
        schema: {
          tags,
          summary: "A single type's published entry in this domain",
          params: { type: "object", properties: { ...domainParam, ...typeParam } },
          querystring: entryQuery,
        },
      },
      async (request, reply) => {
        const preview = previewTokenOf(request);
        if (preview) {
          const { domain, type } = request.params;
          const populate = request.query.populate ?? 1;
          return previewed(request, reply, preview, domain, () => publicType(type, "single"), null, populate);
        }
        const domain = await domainOf(request, reply, request.params.domain);
        const type = await publicType(request.params.type, "single");
        return answer(request, reply, domain, async () => {
          const row = await published(type, domain, chainOf(request, domain)).executeTakeFirst();
          if (!row) throw notFound(`${type.name} is not published in this domain`);
          const entry = publicEntry(row as never);
          await populator.populate(type, [entry], request.query.populate ?? 1, domain.id);
          return { data: entry };
        });
      },
    );

    scope.get<{ Params: { domain: string; name: string } }>(
      `${PUBLIC_CMS_PREFIX}/:domain/navigations/:name`,
      {
        config: { secrets: API_TOKEN },
        schema: {
          tags,
          summary: "A navigation of this domain: its visible items, entry links resolved to their slugs",
          params: { type: "object", properties: { ...domainParam, name: { type: "string", maxLength: 63 } } },
          querystring: {
            type: "object",
            additionalProperties: false,
            properties: { locale: populateQuery.locale },
          },
        },
      },
      async (request, reply) => {
        const domain = await domainOf(request, reply, request.params.domain);
        return answer(request, reply, domain, async () => {
          const nav = await db
            .selectFrom("cms_navigations")
            .select(["name", "title", "items"])
            .where("domain_id", "=", domain.id)
            .where("name", "=", request.params.name)
            .executeTakeFirst();
          if (!nav) throw notFound("No such navigation");
          const items = await resolveNavigation(
            ctx,
            registry,
            domain.id,
            nav.items as never,
            chainOf(request, domain),
          );
          return { data: { name: nav.name, title: nav.title, items } };
        });
      },
    );

    scope.get<{ Params: { domain: string; type: string; ref: string }; Querystring: { populate?: number } }>(
      `${PUBLIC_CMS_PREFIX}/:domain/:type/:ref`,
      {
        config: { secrets: API_TOKEN },
        schema: {
          tags,
          summary: "One published entry of a collection, by slug or id",
          params: {
            type: "object",
            properties: {
              ...domainParam,
              ...typeParam,
              ref: { type: "string", minLength: 1, maxLength: 200 },
            },
          },
          querystring: entryQuery,
        },
      },
      async (request, reply) => {
        const preview = previewTokenOf(request);
        if (preview) {
          const { domain, type, ref } = request.params;
          const populate = request.query.populate ?? 1;
          return previewed(
            request,
            reply,
            preview,
            domain,
            () => publicType(type, "collection"),
            ref,
            populate,
          );
        }
        const domain = await domainOf(request, reply, request.params.domain);
        const type = await publicType(request.params.type, "collection");
        const ref = request.params.ref;
        return answer(request, reply, domain, async () => {
          // The entry by its id or a published slug of any of its locales (the draft's may have
          // changed since), through the published index; then the entry in the asked locale.
          const slugField = Object.keys(type.schema.properties).find(
            (n) => type.schema.properties[n]["x-kind"] === "slug",
          );
          const bySlug = slugField
            ? sql<boolean>`r.published @> ${JSON.stringify({ [slugField]: ref })}::jsonb`
            : sql<boolean>`false`;
          const found = await db
            .selectFrom("cms_entries as r")
            .select(sql<string>`coalesce(r.source_id, r.id)`.as("id"))
            .where("r.type_id", "=", type.id)
            .where("r.status", "=", "published")
            .where(sql<boolean>`r.domain_ids @> array[${domain.id}]::uuid[]`)
            .where((eb) =>
              UUID.test(ref) ? eb.or([eb("r.id", "=", ref), eb("r.source_id", "=", ref), bySlug]) : bySlug,
            )
            .executeTakeFirst();
          const row = found
            ? await published(type, domain, chainOf(request, domain), found.id).executeTakeFirst()
            : undefined;
          if (!row) throw notFound(`No published ${type.name.toLowerCase()} '${ref}' in this domain`);
          const entry = publicEntry(row as never);
          await populator.populate(type, [entry], request.query.populate ?? 1, domain.id);
          return { data: entry };
        });
      },
    );
  });
}
