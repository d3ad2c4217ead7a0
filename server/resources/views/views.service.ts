/**
 * Saved views of a resource's list (issue 31; docs/resource-api.md "Saved views"): named
 * filters, sort, columns and page size, personal or shared with everyone who has the module,
 * and each person's default view per list.
 *
 * Who may do what: everyone with the module sees the shared views and their own; only the
 * owner sees, changes or deletes a personal view; a shared view is changed or deleted by the
 * person who made it or by an administrator. A view another person may not see answers 404.
 * A view's state is checked against the schema when saved (fields the list can filter, sort
 * and show), and pruned against the schema now when read (schemas/saved-views.ts).
 */
import { type Kysely, sql } from "kysely";
import type { ResourceDefinition } from "../../../resources/contract";
import type { EntitySchema } from "../../../schemas/contract";
import type { FieldError } from "../../../schemas/error-messages";
import { fieldTitle, invalidInputMessage } from "../../../schemas/error-messages";
import {
  filterFieldsOf,
  pruneViewState,
  type SavedView,
  type SavedViewInput,
  type SavedViewList,
  type SavedViewState,
  VIEWS_PER_PERSON_MAX,
  type ViewFields,
} from "../../../schemas/saved-views";
import type { Principal } from "../../auth/principal";
import type { AppContext } from "../../context";
import { badRequest, forbidden, notFound } from "../../http/errors";
import { parseFilters } from "../../http/list-query";
import { listOptionsOf } from "../list-options";

interface ViewRow {
  id: string;
  resource: string;
  name: string;
  owner_id: string;
  shared: boolean;
  state: SavedViewState;
  created_at: Date;
  updated_at: Date;
  owner_name: string | null;
}

/** The tables of this file (migration 0046), beside the app's one Database interface. */
interface ViewsDb {
  saved_views: {
    id: string;
    resource: string;
    name: string;
    owner_id: string;
    shared: boolean;
    state: string;
    created_at: Date;
    updated_at: Date;
  };
  saved_view_defaults: { user_id: string; resource: string; view_id: string };
  users: { id: string; first_name: string; last_name: string };
}

/** The fields a list of this schema shows, filters and sorts by. */
export function viewFieldsOf(schema: EntitySchema): ViewFields {
  const options = listOptionsOf(schema);
  return {
    columns: new Set(Object.keys(schema.properties)),
    filters: new Set(Object.keys(options.filterFields ?? {})),
    sorts: new Set(options.sortFields ?? []),
  };
}

export class SavedViews {
  constructor(
    private readonly ctx: AppContext,
    private readonly def: ResourceDefinition,
    private readonly schemaNow: () => Promise<EntitySchema> | EntitySchema,
  ) {}

  private get db(): Kysely<ViewsDb> {
    return this.ctx.db as unknown as Kysely<ViewsDb>;
  }

  private select() {
    return this.db
      .selectFrom("saved_views as v")
      .leftJoin("users as u", "u.id", "v.owner_id")
      .select([
        "v.id",
        "v.resource",
        "v.name",
        "v.owner_id",
        "v.shared",
        "v.state",
        "v.created_at",
        "v.updated_at",
        sql<string>`u.first_name || ' ' || u.last_name`.as("owner_name"),
      ])
      .where("v.resource", "=", this.def.name);
  }

  /** The views this person sees: the shared ones and their own, shared first, then by name. */
  async list(who: Principal): Promise<SavedViewList> {
    const rows = (await this.select()
      .where((eb) => eb.or([eb("v.shared", "=", true), eb("v.owner_id", "=", who.userId)]))
      .orderBy("v.shared", "desc")
      .orderBy(sql`lower(v.name)`)
      .orderBy("v.id")
      .execute()) as unknown as ViewRow[];
    const fields = viewFieldsOf(await this.schemaNow());
    const chosen = await this.db
      .selectFrom("saved_view_defaults")
      .select("view_id")
      .where("user_id", "=", who.userId)
      .where("resource", "=", this.def.name)
      .executeTakeFirst();
    const data = rows.map((r) => this.toView(r, who, fields));
    const defaultId = chosen && data.some((v) => v.id === chosen.view_id) ? chosen.view_id : null;
    return { data, defaultId };
  }

  /** One view this person sees (404 otherwise). */
  private async visible(id: string, who: Principal): Promise<ViewRow> {
    const row = (await this.select().where("v.id", "=", id).executeTakeFirst()) as ViewRow | undefined;
    if (!row || (!row.shared && row.owner_id !== who.userId)) throw notFound("View not found");
    return row;
  }

  /** One view this person may change: its owner, or an administrator for a shared one. */
  private async editable(id: string, who: Principal): Promise<ViewRow> {
    const row = await this.visible(id, who);
    if (!this.mayEdit(row, who))
      throw forbidden("Only the person who shared this view or an administrator may change it");
    return row;
  }

  private mayEdit(row: Pick<ViewRow, "owner_id" | "shared">, who: Principal): boolean {
    return row.owner_id === who.userId || (row.shared && who.isAdmin);
  }

  async create(input: SavedViewInput, who: Principal): Promise<SavedView> {
    const name = await this.checkName(input.name, who, null);
    const state = this.checkState(input.state, await this.schemaNow());
    const own = await this.db
      .selectFrom("saved_views")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("resource", "=", this.def.name)
      .where("owner_id", "=", who.userId)
      .executeTakeFirstOrThrow();
    if (Number(own.n) >= VIEWS_PER_PERSON_MAX)
      throw badRequest(`You have ${VIEWS_PER_PERSON_MAX} views of this list already; delete one first`, [
        { field: "name", message: `You may keep at most ${VIEWS_PER_PERSON_MAX} views of a list` },
      ]);
    const made = await this.unique(() =>
      this.db
        .insertInto("saved_views")
        .values({
          resource: this.def.name,
          name,
          owner_id: who.userId,
          shared: input.shared,
          state: JSON.stringify(state),
        } as never)
        .returning("id")
        .executeTakeFirstOrThrow(),
    );
    return this.get(made.id, who);
  }

  async get(id: string, who: Principal): Promise<SavedView> {
    return this.toView(await this.visible(id, who), who, viewFieldsOf(await this.schemaNow()));
  }

  async update(id: string, input: Partial<SavedViewInput>, who: Principal): Promise<SavedView> {
    await this.editable(id, who);
    const set: Record<string, unknown> = { updated_at: sql`now()` };
    if (input.name !== undefined) set.name = await this.checkName(input.name, who, id);
    if (input.shared !== undefined) set.shared = input.shared;
    if (input.state !== undefined)
      set.state = JSON.stringify(this.checkState(input.state, await this.schemaNow()));
    await this.unique(() =>
      this.db
        .updateTable("saved_views")
        .set(set as never)
        .where("id", "=", id)
        .execute(),
    );
    return this.get(id, who);
  }

  async remove(id: string, who: Principal): Promise<void> {
    await this.editable(id, who);
    await this.db.deleteFrom("saved_views").where("id", "=", id).execute();
  }

  /** Chooses the view this person's list opens with (null: the plain list). */
  async setDefault(id: string | null, who: Principal): Promise<{ defaultId: string | null }> {
    const forget = this.db
      .deleteFrom("saved_view_defaults")
      .where("user_id", "=", who.userId)
      .where("resource", "=", this.def.name);
    if (id === null) {
      await forget.execute();
      return { defaultId: null };
    }
    const row = await this.select().where("v.id", "=", id).executeTakeFirst();
    if (!row || (!row.shared && row.owner_id !== who.userId))
      throw badRequest("There is no such view of this list", [
        { field: "id", message: "is not a view of this list" },
      ]);
    await this.db
      .insertInto("saved_view_defaults")
      .values({ user_id: who.userId, resource: this.def.name, view_id: id })
      .onConflict((oc) => oc.columns(["user_id", "resource"]).doUpdateSet({ view_id: id }))
      .execute();
    return { defaultId: id };
  }

  private toView(row: ViewRow, who: Principal, fields: ViewFields): SavedView {
    const { state, notices } = pruneViewState(row.state, fields);
    return {
      id: row.id,
      name: row.name,
      shared: row.shared,
      state,
      notices,
      ownerId: row.owner_id,
      ownerName: row.owner_name ?? "",
      canEdit: this.mayEdit(row, who),
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  }

  /**
   * A name that is not empty and not the name of another view this person sees (theirs or a
   * shared one; a shared view's name also against everyone's shared views).
   */
  private async checkName(raw: string, who: Principal, self: string | null): Promise<string> {
    const name = raw.trim();
    if (!name) throw badRequest("Name the view", [{ field: "name", message: "Name must not be empty" }]);
    let query = this.db
      .selectFrom("saved_views")
      .select("id")
      .where("resource", "=", this.def.name)
      .where(sql`lower(name)`, "=", name.toLowerCase())
      .where((eb) => eb.or([eb("shared", "=", true), eb("owner_id", "=", who.userId)]));
    if (self) query = query.where("id", "!=", self);
    if (await query.executeTakeFirst()) throw this.duplicate(name);
    return name;
  }

  private duplicate(name: string) {
    return badRequest(`A view named '${name}' exists already`, [
      { field: "name", message: `A view named '${name}' exists already; choose another name` },
    ]);
  }

  /** Runs a write; a unique index refusal (two saves of one name at once) is the duplicate answer. */
  private async unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if ((error as { code?: string }).code === "23505") throw this.duplicate("this name");
      throw error;
    }
  }

  /**
   * A state the list can apply now: filters well formed and on fields the list filters by,
   * a sort on fields it sorts by, columns of the schema. Labels are the fields' titles now.
   */
  private checkState(state: SavedViewState, schema: EntitySchema): SavedViewState {
    const fields = viewFieldsOf(schema);
    const details: FieldError[] = [];
    try {
      parseFilters(JSON.stringify(state.filters));
    } catch (error) {
      const inner = (error as { details?: FieldError[] }).details ?? [];
      details.push(...inner.map((d) => ({ field: "state.filters", message: d.message })));
    }
    const filterFields = details.length ? [] : filterFieldsOf(state.filters);
    for (const field of new Set(filterFields))
      if (field !== "q" && field !== "id" && !fields.filters.has(field))
        details.push({ field: "state.filters", message: `The list cannot be filtered by '${field}'` });
    const sorts = state.sort
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    for (const s of sorts)
      if (!fields.sorts.has(s.replace(/^-/, "")))
        details.push({
          field: "state.sort",
          message: `The list cannot be sorted by '${s.replace(/^-/, "")}'`,
        });
    for (const column of state.columns ?? [])
      if (!fields.columns.has(column))
        details.push({ field: "state.columns", message: `'${column}' is not a column of this list` });
    if (details.length) throw badRequest(invalidInputMessage(details), details);
    const named = new Set([
      ...filterFields,
      ...sorts.map((s) => s.replace(/^-/, "")),
      ...(state.columns ?? []),
    ]);
    const labels: Record<string, string> = {};
    for (const field of named) if (field in schema.properties) labels[field] = fieldTitle(schema, field);
    return {
      filters: state.filters,
      sort: sorts.join(","),
      columns: state.columns,
      pageSize: state.pageSize,
      labels,
    };
  }
}
