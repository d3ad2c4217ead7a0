/**
 * The rules of an entry's write that a schema cannot hold: its domains exist, a single has one
 * entry per domain, slugs are unique per domain and unique fields per type (both among the
 * entries of one locale), and references point at what exists.
 */
import { sql } from "kysely";
import { badRequest, conflict } from "../../http/errors";
import type { AnyDb } from "../../resources/rules";
import type { Values } from "./entry-record";
import { referencesOf } from "./entry-values";
import type { ContentType, TypeRegistry } from "./type-registry";

/** Rules a schema cannot hold: domains exist, one single per domain, unique fields and slugs, references. */
export async function checkEntryWrite(
  db: AnyDb,
  registry: TypeRegistry,
  type: ContentType,
  id: string | null,
  values: Values,
  domainIds: string[],
  locale: string | null = null,
): Promise<void> {
  // Uniqueness is checked by reading; two writes of one type checking at once could both find
  // a slug free. A lock per type, held to the end of the transaction, makes them take turns.
  const fields = Object.values(type.schema.properties);
  if (type.kind === "single" || fields.some((f) => f["x-kind"] === "slug" || f["x-unique"]))
    await sql`select pg_advisory_xact_lock(hashtextextended(${`cms-entries:${type.id}`}, 0))`.execute(db);
  if (domainIds.length) {
    const found = await db.selectFrom("cms_domains").select("id").where("id", "in", domainIds).execute();
    if (found.length !== new Set(domainIds).size)
      throw badRequest("A chosen domain does not exist", [
        { field: "domain_ids", message: "A chosen domain does not exist" },
      ]);
  }
  // Slugs and unique fields are unique among the entries of one locale (slugs may differ per locale).
  const others = () => {
    let q = db
      .selectFrom("cms_entries")
      .select("id")
      .where("type_id", "=", type.id)
      .where(locale === null ? sql<boolean>`locale is null` : sql<boolean>`locale = ${locale}`);
    if (id) q = q.where("id", "<>", id);
    return q;
  };
  const overlapping = <Q extends ReturnType<typeof others>>(q: Q) =>
    domainIds.length
      ? q.where(sql<boolean>`domain_ids && ${sql.val(domainIds)}::uuid[]`)
      : q.where(sql<boolean>`cardinality(domain_ids) = 0`);
  if (type.kind === "single" && locale === null) {
    if (domainIds.length !== 1)
      throw badRequest(`${type.name} is a single: choose exactly one domain`, [
        { field: "domain_ids", message: "Choose exactly one domain" },
      ]);
    if (await overlapping(others()).executeTakeFirst())
      throw conflict(`${type.name} already has its entry in this domain`, [
        { field: "domain_ids", message: "This domain already has its entry" },
      ]);
  }
  for (const [name, f] of Object.entries(type.schema.properties)) {
    const value = values[name];
    if (value === null || value === undefined) continue;
    if (f["x-kind"] === "slug") {
      const taken = await overlapping(others().where("slug", "=", value as string)).executeTakeFirst();
      if (taken)
        throw conflict(`Another ${type.name} entry in the same domain has this ${f.title}`, [
          { field: name, message: `${f.title} is already in use in this domain` },
        ]);
    } else if (f["x-unique"]) {
      const taken = await others()
        .where(sql<boolean>`data -> ${name} = ${JSON.stringify(value)}::jsonb`)
        .executeTakeFirst();
      if (taken)
        throw conflict(`Another ${type.name} entry has this ${f.title}`, [
          { field: name, message: `${f.title} is already in use` },
        ]);
    }
  }
  await checkReferences(db, registry, type, values);
}

async function checkReferences(
  db: AnyDb,
  registry: TypeRegistry,
  type: ContentType,
  values: Values,
): Promise<void> {
  const refs = referencesOf(type.schema.properties, values, registry);
  const types = await registry.all();
  for (const ref of refs) {
    let found: unknown;
    if (ref.kind === "media") {
      found = await db.selectFrom("dam_assets").select("id").where("id", "=", ref.id).executeTakeFirst();
    } else if (types.has(ref.target)) {
      const target = types.get(ref.target)!;
      found = await db
        .selectFrom("cms_entries")
        .select("id")
        .where("id", "=", ref.id)
        .where("type_id", "=", target.id)
        .executeTakeFirst();
    } else if (ref.target === "products") {
      found = await db.selectFrom("products").select("id").where("id", "=", ref.id).executeTakeFirst();
    }
    if (!found) {
      const what =
        ref.kind === "media" ? "media item" : (types.get(ref.target)?.name ?? ref.target).toLowerCase();
      const message = `The chosen ${what} does not exist`;
      throw badRequest(message, [{ field: ref.path, message }]);
    }
  }
}
