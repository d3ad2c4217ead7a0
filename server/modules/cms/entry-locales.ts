/**
 * An entry's locales (issue 29): which locales its domains have, which of them the entry has a
 * variant in (its status, and whether it is behind the default locale), and a new variant
 * started from the default locale's values or another locale's. A variant is a cms_entries row
 * of its own (migration 0039): saved, published, scheduled and versioned by the same routes as
 * any entry, by its id.
 */
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import { BCP47_PATTERN, domainLocalesOf, localisedValues } from "../../../schemas/cms-locales";
import { moduleAccess, principalOf } from "../../auth/access";
import type { AppContext } from "../../context";
import { badRequest, conflict, notFound } from "../../http/errors";
import type { AnyDb } from "../../resources/rules";
import type { EntriesService } from "./entries.service";
import type { EntryRow } from "./entry-record";
import { entryParams } from "./route-schemas";
import type { ContentType, TypeRegistry } from "./type-registry";

export interface EntryLocale {
  code: string;
  /** Where its missing content is read from (null: the default locale). */
  fallback: string | null;
  /** Its variant, when the entry has one. */
  variantId: string | null;
  status: EntryRow["status"] | null;
  draftChanged: boolean;
  updatedAt: string | null;
  /** The default locale's values changed after this locale was last saved. */
  behind: boolean;
}

export interface EntryLocales {
  entryId: string;
  /** The default locale of each of the entry's domains (the entry itself is in it). */
  defaultLocales: string[];
  locales: EntryLocale[];
}

const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);

export class EntryLocaleService {
  constructor(
    private readonly ctx: AppContext,
    private readonly entries: EntriesService,
  ) {}

  private get db(): AnyDb {
    return this.ctx.db as unknown as AnyDb;
  }

  /** The entry itself (the default locale's) of an entry or of one of its variants. */
  private async entryOf(type: ContentType, id: string, db: AnyDb = this.db): Promise<EntryRow> {
    const row = await this.entries.row(type, id, db);
    return row.source_id ? this.entries.row(type, row.source_id, db) : row;
  }

  /** The other locales of the entry's domains, each with its fallback (the first domain naming it wins). */
  private async domainLocales(entry: EntryRow, db: AnyDb = this.db) {
    const domains = entry.domain_ids.length
      ? await db
          .selectFrom("cms_domains")
          .select(["name", "default_locale", "locales"])
          .where(sql<boolean>`id = any(${sql.val(entry.domain_ids)}::uuid[])`)
          .orderBy("name")
          .execute()
      : [];
    const settings = domains.map((d) => ({ name: d.name as string, ...domainLocalesOf(d) }));
    const others = new Map<string, string | null>();
    for (const d of settings)
      for (const l of d.locales) if (!others.has(l.code)) others.set(l.code, l.fallback ?? null);
    return { settings, others };
  }

  async list(type: ContentType, id: string): Promise<EntryLocales> {
    const entry = await this.entryOf(type, id);
    const { settings, others } = await this.domainLocales(entry);
    const variants = (await this.db
      .selectFrom("cms_entries")
      .select(["id", "locale", "status", "draft_changed", "updated_at"])
      .where("source_id", "=", entry.id)
      .execute()) as Array<Pick<EntryRow, "id" | "locale" | "status" | "draft_changed" | "updated_at">>;
    const byLocale = new Map(variants.map((v) => [v.locale as string, v]));
    // A variant whose locale its domains no longer list is still shown: it can be read and deleted.
    for (const v of variants) if (!others.has(v.locale as string)) others.set(v.locale as string, null);
    const entryChanged = new Date(entry.updated_at).getTime();
    return {
      entryId: entry.id,
      defaultLocales: [...new Set(settings.map((d) => d.default_locale))],
      locales: [...others].map(([code, fallback]) => {
        const v = byLocale.get(code);
        return {
          code,
          fallback,
          variantId: v?.id ?? null,
          status: v?.status ?? null,
          draftChanged: v?.draft_changed ?? false,
          updatedAt: iso(v?.updated_at ?? null),
          behind: v ? new Date(v.updated_at).getTime() < entryChanged : false,
        };
      }),
    };
  }

  /** A new variant in `locale`, its localised values copied from the default locale's or `from`'s. */
  async start(type: ContentType, id: string, locale: string, from: string | undefined, actorId: string) {
    const row = await this.db.transaction().execute(async (trx) => {
      const entry = await this.entryOf(type, id, trx);
      const { settings, others } = await this.domainLocales(entry, trx);
      const defaults = settings.map((d) => d.default_locale);
      if (!others.has(locale)) {
        const known = settings.map(
          (d) => `${d.name}: ${[d.default_locale, ...d.locales.map((l) => l.code)].join(", ")}`,
        );
        const message = defaults.includes(locale)
          ? `${locale} is the default locale: the entry itself is in it`
          : settings.length
            ? `${locale} is not a locale of this entry's domains (${known.join("; ")})`
            : "Add this entry to a domain with locales first";
        throw badRequest(message, [{ field: "locale", message }]);
      }
      const taken = await trx
        .selectFrom("cms_entries")
        .select("id")
        .where("source_id", "=", entry.id)
        .where("locale", "=", locale)
        .executeTakeFirst();
      if (taken)
        throw conflict(`This entry already has its ${locale} version`, [
          { field: "locale", message: `Already started: open the ${locale} version` },
        ]);
      let source = entry.data;
      if (from && !defaults.includes(from)) {
        const other = await trx
          .selectFrom("cms_entries")
          .select("data")
          .where("source_id", "=", entry.id)
          .where("locale", "=", from)
          .executeTakeFirst();
        if (!other) {
          const message = `This entry has no ${from} version to start from`;
          throw badRequest(message, [{ field: "from", message }]);
        }
        source = other.data as EntryRow["data"];
      }
      const props = type.schema.properties;
      const values = await this.entries.checkedValues(
        trx,
        type,
        { source_id: entry.id },
        localisedValues(props, this.entries.current(type, source)),
      );
      await this.entries.checkWrite(trx, type, null, values, entry.domain_ids, locale);
      return this.entries.insertEntry(trx, type, values, entry.domain_ids, actorId, {
        locale,
        sourceId: entry.id,
      });
    });
    this.entries.changed(type, "created", [row.id], actorId);
    return (await this.entries.records(type, [row]))[0];
  }
}

export async function entryLocaleRoutes(
  app: FastifyInstance,
  registry: TypeRegistry,
  locales: EntryLocaleService,
): Promise<void> {
  const config = { access: moduleAccess(MODULE_IDS.cms) };
  const tags = ["cms entries"];
  const security = [{ bearer: [] }];
  const entryType = async (name: string) => {
    const type = (await registry.all()).get(name);
    if (!type || type.kind === "component") throw notFound("Content type not found");
    return type;
  };
  app.get<{ Params: { type: string; id: string } }>(
    "/cms/entries/:type/:id/locales",
    {
      config,
      schema: {
        tags,
        security,
        summary: "The entry's locales: which it has, their state",
        params: entryParams,
      },
    },
    async (request) => locales.list(await entryType(request.params.type), request.params.id),
  );
  app.post<{ Params: { type: string; id: string }; Body: { locale: string; from?: string } }>(
    "/cms/entries/:type/:id/locales",
    {
      // A resend (a lost answer) gets the first answer, not a 409 for the version it made.
      config: { ...config, idempotent: true },
      schema: {
        tags,
        security,
        summary: "Start the entry in another locale, from the default locale's values or another's",
        params: entryParams,
        body: {
          type: "object",
          additionalProperties: false,
          required: ["locale"],
          properties: {
            locale: { type: "string", title: "Locale", maxLength: 35, pattern: BCP47_PATTERN },
            from: { type: "string", title: "Start from", maxLength: 35, pattern: BCP47_PATTERN },
          },
        },
      },
    },
    async (request, reply) => {
      const { locale, from } = request.body;
      const record = await locales.start(
        await entryType(request.params.type),
        request.params.id,
        locale,
        from,
        principalOf(request).userId,
      );
      return reply.status(201).send(record);
    },
  );
}
