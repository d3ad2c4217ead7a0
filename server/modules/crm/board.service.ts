/**
 * The pipeline board (issue 16): open opportunities as columns by stage, with each column's
 * count and totals per currency computed in SQL, and the cards in column order; and the move
 * of a card to a place in a column, which goes through the opportunity rules like any other
 * write (a stage change lands on the client's timeline in the same transaction).
 */
import { sql } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import {
  type Board,
  type BoardColumn,
  type BoardQuery,
  boardMinor,
  boardTotalOf,
  type MoveTarget,
  NO_OWNER,
} from "../../../schemas/crm-board";
import { opportunitySchema } from "../../../schemas/crm-opportunities";
import type { AppContext } from "../../context";
import { badRequest, conflict, notFound } from "../../http/errors";
import { escapeLike } from "../../http/list-filter-sql";
import { type Row, toRecord } from "../../resources/records";
import { comesBefore, type Place, POSITION_GAP, positionBetween } from "./board-positions";
import { opportunityRules } from "./opportunity.rules";
import { type Db, timelineChanged } from "./timeline";

/** The most cards one board answer carries; the columns' counts and totals always cover all. */
export const MAX_BOARD_CARDS = 10_000;

/** The open opportunities the filters let through (joined with their clients, for the search). */
function matching(db: Db, query: BoardQuery) {
  let q = db
    .selectFrom("opportunities as o")
    .innerJoin("clients as c", "c.id", "o.client_id")
    .where("o.status", "=", "open");
  if (query.owner === NO_OWNER) q = q.where("o.owner_id", "is", null);
  else if (query.owner) q = q.where("o.owner_id", "=", query.owner);
  if (query.from) q = q.where("o.expected_close", ">=", query.from);
  if (query.to) q = q.where("o.expected_close", "<=", query.to);
  const text = query.q?.trim();
  if (text) {
    const pattern = `%${escapeLike(text)}%`;
    q = q.where((eb) =>
      eb.or([
        eb("o.title", "ilike", pattern),
        eb("c.name", "ilike", pattern),
        eb("c.company", "ilike", pattern),
      ]),
    );
  }
  return q;
}

/** The board: columns in stage order with counts and totals, and the cards in column order. */
export async function readBoard(db: Db, query: BoardQuery): Promise<Board> {
  const [stages, sums, cardRows, owners] = await Promise.all([
    db
      .selectFrom("crm_dropdowns")
      .select(["value", "label", "probability", "color", "archived"])
      .where("list", "=", "stage")
      .orderBy("position")
      .orderBy("label")
      .execute(),
    matching(db, query)
      .select([
        "o.stage",
        "o.currency",
        sql<number>`count(*)::int`.as("count"),
        // The exact sum, as text: the money module reads it without a binary float.
        sql<string>`sum(o.value)::text`.as("total"),
      ])
      .groupBy(["o.stage", "o.currency"])
      .orderBy("o.currency")
      .execute(),
    (query.ids ? matching(db, query).where("o.id", "in", query.ids) : matching(db, query))
      .select([
        "o.id",
        "o.title",
        "o.stage",
        sql<number>`o.value::float8`.as("value"),
        "o.currency",
        "o.client_id",
        "c.name as client_name",
        "c.company as client_company",
        "o.owner_id",
        sql<string | null>`to_char(o.expected_close, 'YYYY-MM-DD')`.as("expected_close"),
        "o.position",
      ])
      .orderBy("o.position")
      .orderBy("o.id")
      .limit(MAX_BOARD_CARDS + 1)
      .execute(),
    db
      .selectFrom("users")
      .select(["id", sql<string>`trim(first_name || ' ' || last_name)`.as("name")])
      .where(
        "id",
        "in",
        db
          .selectFrom("opportunities")
          .select("owner_id")
          .where("status", "=", "open")
          .where("owner_id", "is not", null),
      )
      .orderBy("first_name")
      .orderBy("last_name")
      .execute(),
  ]);

  const byStage = new Map<string, { count: number; totals: Array<{ currency: string; minor: number }> }>();
  for (const s of sums) {
    const column = byStage.get(s.stage) ?? { count: 0, totals: [] };
    column.count += s.count;
    column.totals.push({ currency: s.currency, minor: boardMinor(s.total) });
    byStage.set(s.stage, column);
  }
  const columnOf = (
    stage: string,
    label: string,
    probability: number | null,
    color: string | null,
    retired: boolean,
  ): BoardColumn => {
    const found = byStage.get(stage);
    byStage.delete(stage);
    return {
      stage,
      label,
      probability,
      color,
      retired,
      count: found?.count ?? 0,
      totals: (found?.totals ?? []).map((t) => boardTotalOf(t.currency, t.minor, probability)),
    };
  };
  const columns = stages
    .filter((s) => !s.archived)
    .map((s) => columnOf(s.value, s.label, s.probability, s.color, false));
  // Cards left in an archived stage, or one no option names, keep a column until they move on.
  const options = new Map(stages.map((s) => [s.value, s]));
  for (const stage of [...byStage.keys()].sort()) {
    const option = options.get(stage);
    columns.push(
      columnOf(stage, option?.label ?? stage, option?.probability ?? null, option?.color ?? null, true),
    );
  }

  return {
    columns,
    cards: cardRows.slice(0, MAX_BOARD_CARDS).map((r) => ({ ...r, position: Number(r.position) })),
    owners,
    truncated: cardRows.length > MAX_BOARD_CARDS,
  };
}

const STAGE_UNKNOWN = "Choose one of the board's stages";
const NEIGHBOUR_GONE = "That card is no longer in this column; reload the board and try again";

/** The open cards of a column other than the one moving. */
const columnCards = (db: Db, stage: string, movingId: string) =>
  db
    .selectFrom("opportunities")
    .select(["id", "position"])
    .where("stage", "=", stage)
    .where("status", "=", "open")
    .where("id", "<>", movingId);

/** The card right after (`next`) or right before `place` in its column. */
async function neighbourOf(db: Db, stage: string, movingId: string, place: Place, side: "next" | "previous") {
  const next = side === "next";
  const row = await columnCards(db, stage, movingId)
    .where((eb) =>
      eb.or([
        eb("position", next ? ">" : "<", place.position),
        eb.and([eb("position", "=", place.position), eb("id", next ? ">" : "<", place.id)]),
      ]),
    )
    .orderBy("position", next ? "asc" : "desc")
    .orderBy("id", next ? "asc" : "desc")
    .limit(1)
    .executeTakeFirst();
  return row && { id: row.id, position: Number(row.position) };
}

/**
 * Gives the column's cards (but the moving one) positions POSITION_GAP apart in their order.
 * Positions are the board's own bookkeeping, so this is no change to the records: no
 * `updated_at`, no event (every open board keeps its order).
 */
async function renumberColumn(db: Db, stage: string, movingId: string): Promise<void> {
  await sql`
    update opportunities as o set position = r.n * ${POSITION_GAP}
    from (
      select id, row_number() over (order by position, id) as n
      from opportunities where stage = ${stage} and status = 'open' and id <> ${movingId}
    ) as r
    where o.id = r.id`.execute(db);
}

/** The open card `id` of the target column, or a 400 on `field` (a board older than the column). */
async function anchorOf(db: Db, id: string, stage: string, field: "after" | "before"): Promise<Place> {
  const row = await db
    .selectFrom("opportunities")
    .select(["id", "position", "stage", "status"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row || row.stage !== stage || row.status !== "open")
    throw badRequest(NEIGHBOUR_GONE, [{ field, message: NEIGHBOUR_GONE }]);
  return { id: row.id, position: Number(row.position) };
}

/**
 * Puts an open opportunity at a place in a stage's column, in one transaction: its neighbours
 * found, the column renumbered if they sit too close, the row written with the opportunity
 * rules around it (the stage move's timeline entry). Moves into one column take turns (a lock
 * per stage), so two cards dropped into one gap at once get two positions. Answers the record.
 */
export async function moveOpportunity(ctx: AppContext, id: string, target: MoveTarget, actorId: string) {
  const { stage } = target;
  for (const field of ["after", "before"] as const)
    if (target[field] === id)
      throw badRequest("A card cannot go next to itself", [
        { field, message: "Choose another card than the one moving" },
      ]);
  const option = await ctx.db
    .selectFrom("crm_dropdowns")
    .select("value")
    .where("list", "=", "stage")
    .where("value", "=", stage)
    .where("archived", "=", false)
    .executeTakeFirst();
  if (!option) throw badRequest(STAGE_UNKNOWN, [{ field: "stage", message: STAGE_UNKNOWN }]);

  const result = await ctx.db.transaction().execute(async (trx) => {
    const existing = (await trx
      .selectFrom("opportunities")
      .selectAll()
      .where("id", "=", id)
      .forUpdate()
      .executeTakeFirst()) as Row | undefined;
    if (!existing) throw notFound("Opportunity not found");
    if (existing.status !== "open")
      throw conflict("Only open opportunities are on the board: reopen this one first");
    await sql`select pg_advisory_xact_lock(hashtextextended(${`crm-board:${stage}`}, 0))`.execute(trx);

    let lower: Place | undefined;
    let upper: Place | undefined;
    const find = async () => {
      if (target.after) {
        lower = await anchorOf(trx, target.after, stage, "after");
        upper = await neighbourOf(trx, stage, id, lower, "next");
      } else if (target.before) {
        upper = await anchorOf(trx, target.before, stage, "before");
        lower = await neighbourOf(trx, stage, id, upper, "previous");
      } else {
        const last = await columnCards(trx, stage, id)
          .orderBy("position", "desc")
          .orderBy("id", "desc")
          .limit(1)
          .executeTakeFirst();
        lower = last && { id: last.id, position: Number(last.position) };
        upper = undefined;
      }
    };
    await find();
    const here: Place = { id, position: Number(existing.position) };
    const inPlace =
      existing.stage === stage &&
      (!lower || comesBefore(lower, here)) &&
      (!upper || comesBefore(here, upper));
    if (inPlace) return { row: existing, moved: false, restaged: false };

    let position = positionBetween(lower, upper);
    if (position === null) {
      await renumberColumn(trx, stage, id);
      await find();
      position = positionBetween(lower, upper) as number;
    }

    const values: Row = { stage };
    const set: Row = {};
    await opportunityRules.beforeWrite?.({ db: trx, existing, values, set });
    const row = (await trx
      .updateTable("opportunities")
      .set({ ...set, stage, position, updated_by: actorId, updated_at: sql`now()` as never })
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow()) as Row;
    await opportunityRules.afterWrite?.({ db: trx, existing, row, actorId, app: ctx });
    return { row, moved: true, restaged: existing.stage !== stage };
  });

  if (result.moved) {
    ctx.events.publish({
      resource: "opportunities",
      moduleID: MODULE_IDS.crm,
      type: "updated",
      ids: [id],
      actorId,
    });
    // The rules put the stage change on the client's timeline: open client pages show it.
    if (result.restaged) timelineChanged(ctx, [String(result.row.client_id)], actorId);
  }
  return toRecord(opportunitySchema, result.row);
}
