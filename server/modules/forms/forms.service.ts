/**
 * A form's definition: the builder's draft (saved with a revision, so two editors never
 * overwrite each other silently), publishing (the draft becomes what the public sees, as a
 * numbered version), versions and restore, and the published form by slug for the public
 * routes, kept in memory until any instance changes a form.
 */
import { sql } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import type { FieldError } from "../../../schemas/error-messages";
import { invalidInputMessage } from "../../../schemas/error-messages";
import { answers, emptyDefinition, type FormDefinition } from "../../../schemas/form-definition";
import { definitionProblems } from "../../../schemas/form-definition-checks";
import type { AppContext } from "../../context";
import { SharedCache } from "../../db/shared-cache";
import { badRequest, conflict, notFound } from "../../http/errors";
import type { AnyDb } from "../../resources/rules";
import { addVersion, getVersion, listVersions, type VersionKind } from "../../versions/versions";

/** Versions of form definitions are stored under this resource name. */
export const FORMS_RESOURCE = "forms";

export interface DraftRecord {
  definition: FormDefinition;
  revision: number;
  updatedAt: string;
}

/** What the public routes need of a published form. */
export interface PublishedForm {
  id: string;
  name: string;
  slug: string;
  accepting: boolean;
  version: number;
  definition: FormDefinition;
  /**
   * Who is told of its answers: the person who created it (null once their account is
   * deleted). Whether they may still read it is checked when they are told (answer-notices.ts).
   */
  ownerId: string | null;
}

const parse = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T;

export class FormsService {
  /** Published forms by slug (`null`: no such published form), until a form changes. */
  readonly published: SharedCache<PublishedForm | null>;
  /**
   * The definition a form's submissions list reads (its published one, else its draft), by
   * form id, until a form changes: the same channel as `published`, so one change clears both.
   */
  readonly listed: SharedCache<FormDefinition | null>;

  constructor(private readonly ctx: AppContext) {
    this.published = new SharedCache(ctx, "atelier_forms", 1000);
    this.listed = new SharedCache(ctx, "atelier_forms", 1000);
    // The engine's writes (rename, slug, accepting, delete) change what the public sees.
    ctx.events.subscribe((change) => {
      if (change.resource === FORMS_RESOURCE) void this.published.changed();
    });
  }

  private get db(): AnyDb {
    return this.ctx.db as unknown as AnyDb;
  }

  /** The form's row, or 404. */
  async form(id: string, db: AnyDb = this.db) {
    const row = await db.selectFrom("forms").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound("Form not found");
    return row as { id: string; name: string; slug: string; accepting: boolean; status: string };
  }

  /** The definitions row, made (empty draft) the first time it is asked for, locked when asked. */
  private async definitions(db: AnyDb, formId: string, lock = false) {
    await this.form(formId, db);
    await db
      .insertInto("form_definitions")
      .values({ form_id: formId, draft: JSON.stringify(emptyDefinition()) })
      .onConflict((oc) => oc.column("form_id").doNothing())
      .execute();
    let q = db.selectFrom("form_definitions").selectAll().where("form_id", "=", formId);
    if (lock) q = q.forUpdate();
    return q.executeTakeFirstOrThrow();
  }

  async draft(formId: string): Promise<DraftRecord> {
    const row = await this.definitions(this.db, formId);
    return toDraft(row);
  }

  /** Replaces the draft; 409 when someone saved since `revision`. */
  async saveDraft(formId: string, definition: FormDefinition, revision: number, actorId: string) {
    const problems = definitionProblems(definition);
    if (problems.length) throw invalid(problems);
    const saved = await this.db.transaction().execute(async (trx) => {
      const row = await this.definitions(trx, formId, true);
      if (row.revision !== revision)
        throw conflict(
          "Someone saved this form since you opened it: reload to see their changes, or save again to overwrite them",
        );
      return this.writeDraft(trx, formId, definition, row.published, "save", actorId);
    });
    this.touched(formId, actorId);
    return saved;
  }

  private async writeDraft(
    trx: AnyDb,
    formId: string,
    definition: FormDefinition,
    published: unknown,
    kind: VersionKind,
    actorId: string,
  ): Promise<DraftRecord> {
    const row = await trx
      .updateTable("form_definitions")
      .set({
        draft: JSON.stringify(definition),
        revision: sql`revision + 1`,
        updated_at: sql`now()`,
        updated_by: actorId,
      })
      .where("form_id", "=", formId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await addVersion(trx, {
      resource: FORMS_RESOURCE,
      recordId: formId,
      number: row.revision,
      kind,
      data: definition,
      actorId,
    });
    const changes = published === null || JSON.stringify(parse(published)) !== JSON.stringify(definition);
    await trx
      .updateTable("forms")
      .set({ has_changes: changes && published !== null, updated_at: sql`now()`, updated_by: actorId })
      .where("id", "=", formId)
      .execute();
    return toDraft(row);
  }

  /** The draft becomes what the public sees, as version `revision + 1`. */
  async publish(formId: string, actorId: string) {
    const result = await this.db.transaction().execute(async (trx) => {
      const row = await this.definitions(trx, formId, true);
      const definition = parse<FormDefinition>(row.draft);
      if (!definition.fields.some(answers))
        throw badRequest("Add at least one field that takes an answer before publishing", [
          { field: "fields", message: "Add at least one field that takes an answer before publishing" },
        ]);
      const problems = definitionProblems(definition);
      if (problems.length) throw invalid(problems);
      const updated = await trx
        .updateTable("form_definitions")
        .set({ published: JSON.stringify(definition), revision: sql`revision + 1`, updated_at: sql`now()` })
        .where("form_id", "=", formId)
        .returning(["revision"])
        .executeTakeFirstOrThrow();
      const version = updated.revision;
      await addVersion(trx, {
        resource: FORMS_RESOURCE,
        recordId: formId,
        number: version,
        kind: "publish",
        data: definition,
        actorId,
      });
      const form = await trx
        .updateTable("forms")
        .set({
          status: "published",
          has_changes: false,
          published_version: version,
          published_at: sql`now()`,
          updated_at: sql`now()`,
          updated_by: actorId,
        })
        .where("id", "=", formId)
        .returning(["published_at"])
        .executeTakeFirstOrThrow();
      return { version, publishedAt: new Date(form.published_at as Date).toISOString() };
    });
    await this.published.changed();
    this.touched(formId, actorId);
    return result;
  }

  async versions(formId: string) {
    await this.form(formId);
    const list = await listVersions(this.db, FORMS_RESOURCE, formId);
    return list.map(({ number, ...rest }) => ({ version: number, ...rest }));
  }

  async version(formId: string, number: number) {
    await this.form(formId);
    const found = await getVersion(this.db, FORMS_RESOURCE, formId, number);
    if (!found) throw notFound("No such version of this form");
    const { number: version, data, ...rest } = found;
    return { version, ...rest, definition: data as unknown as FormDefinition };
  }

  /** A version's definition becomes the draft (recorded as a version of its own). */
  async restore(formId: string, number: number, actorId: string) {
    const { definition } = await this.version(formId, number);
    const saved = await this.db.transaction().execute(async (trx) => {
      const row = await this.definitions(trx, formId, true);
      return this.writeDraft(trx, formId, definition, row.published, "restore", actorId);
    });
    this.touched(formId, actorId);
    return saved;
  }

  /** The published form of a slug (cached), or null. */
  async bySlug(slug: string): Promise<PublishedForm | null> {
    const kept = this.published.get(slug);
    if (kept !== undefined) return kept;
    const generation = this.published.generation;
    const row = await this.db
      .selectFrom("forms as f")
      .innerJoin("form_definitions as d", "d.form_id", "f.id")
      .select([
        "f.id",
        "f.name",
        "f.slug",
        "f.accepting",
        "f.published_version",
        "f.created_by",
        "d.published",
      ])
      .where("f.slug", "=", slug)
      .where("d.published", "is not", null)
      .executeTakeFirst();
    const form: PublishedForm | null = row
      ? {
          id: row.id,
          name: row.name,
          slug: row.slug,
          accepting: row.accepting,
          version: row.published_version ?? 1,
          definition: parse<FormDefinition>(row.published),
          ownerId: row.created_by === null ? null : String(row.created_by),
        }
      : null;
    return this.published.keep(slug, form, generation);
  }

  /** Tells open screens the form changed (status, unpublished changes). */
  private touched(formId: string, actorId: string) {
    this.ctx.events.publish({
      resource: FORMS_RESOURCE,
      moduleID: MODULE_IDS.forms,
      type: "updated",
      ids: [formId],
      actorId,
    });
  }
}

function invalid(problems: FieldError[]) {
  return badRequest(invalidInputMessage(problems), problems);
}

// biome-ignore lint/suspicious/noExplicitAny: a form_definitions row.
function toDraft(row: any): DraftRecord {
  return {
    definition: parse<FormDefinition>(row.draft),
    revision: row.revision,
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
