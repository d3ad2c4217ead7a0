/**
 * The delivery API's locales (issue 29, schemas/cms-locales.ts): which locales a request is
 * answered in, and a type's published entries read in them.
 */
import type { FastifyRequest } from "fastify";
import { sql } from "kysely";
import {
  acceptedLanguages,
  type DomainLocales,
  domainLocalesOf,
  localeChain,
} from "../../../schemas/cms-locales";
import type { AnyDb } from "../../resources/rules";
import type { ContentType } from "./type-registry";

/**
 * The locales a request is answered in, best first (`?locale=`, else `Accept-Language`, then
 * the domain's fallbacks, ending at its default: schemas/cms-locales.ts).
 */
export function chainOf(
  request: FastifyRequest,
  domain: { default_locale: string; locales: unknown },
): string[] {
  const asked = (request.query as { locale?: string }).locale;
  const wanted = asked ? [asked] : acceptedLanguages(request.headers["accept-language"]);
  return localeChain(domainLocalesOf(domain) as DomainLocales, wanted);
}

/**
 * A type's entries published in the domain, each in the first locale of `chain` it is
 * published in: its variant's localised values over the entry's shared ones (the entry's
 * published copy), `locale` naming which. An entry published in none of them is left out.
 * As a table `t` (`id`, `published`, `published_at`, `locale`) the list contract reads as before.
 */
export function publishedInChain(
  db: AnyDb,
  type: ContentType,
  domain: { id: string; default_locale: string },
  chain: readonly string[],
  id?: string,
) {
  const others = chain.slice(0, -1);
  const defaultLocale = chain.at(-1) ?? domain.default_locale;
  let entries = db
    .selectFrom("cms_entries as e")
    .where("e.type_id", "=", type.id)
    .where("e.source_id", "is", null)
    .where(sql<boolean>`e.domain_ids @> array[${domain.id}]::uuid[]`);
  if (id) entries = entries.where("e.id", "=", id);
  if (!others.length) {
    return db
      .selectFrom(
        entries
          .where("e.status", "=", "published")
          .select(["e.id", "e.published", "e.published_at", sql<string>`${defaultLocale}::text`.as("locale")])
          .as("t"),
      )
      .selectAll("t");
  }
  const best = sql`lateral (
    select v.locale, v.published, v.published_at from cms_entries v
    where v.source_id = e.id and v.status = 'published' and v.locale = any(${sql.val(others)}::text[])
    order by array_position(${sql.val(others)}::text[], v.locale) limit 1
  )`;
  return db
    .selectFrom(
      entries
        .leftJoin(best.as("v"), (join) => join.onTrue())
        .where((eb) => eb.or([eb("e.status", "=", "published"), eb("v.locale", "is not", null)]))
        .select([
          "e.id",
          sql<
            Record<string, unknown>
          >`coalesce(e.published, '{}'::jsonb) || coalesce(v.published, '{}'::jsonb)`.as("published"),
          sql<Date>`coalesce(v.published_at, e.published_at)`.as("published_at"),
          sql<string>`coalesce(v.locale, ${defaultLocale}::text)`.as("locale"),
        ])
        .as("t"),
    )
    .selectAll("t");
}
