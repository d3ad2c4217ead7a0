/**
 * Partial answers (issue 29): what a visitor has answered so far, kept on each Next (and on a
 * first answer), so a return within the form's resume window continues where they left. Keyed
 * by the SHA-256 of a random resume token the browser keeps (localStorage, or a cookie without
 * JavaScript): the token is a secret, never stored nor logged. The rows are written by the
 * submission writer's batches (submission-writer.ts `savePartial`), together with the funnel's
 * counts in `form_stats` (starts, pages reached); a stored submission deletes its partial in its
 * own transaction; the recurring sweep below deletes those whose window has passed.
 */
import { createHash, randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { AppContext } from "../../context";
import type { AnyDb } from "../../resources/rules";
import type { PublishedForm } from "./forms.service";
import type { Tracking } from "./tracking";

/** The recurring job that deletes expired partial answers, and how often it runs. */
export const PARTIALS_SWEEP_JOB = "forms.partials.sweep";
const SWEEP_EVERY_MS = 60 * 60 * 1000;
const SWEEP_BATCH = 1000;

/** The cookie that keeps the resume token of the page without JavaScript (one per form path). */
export const RESUME_COOKIE = "atf_resume";
/** The header that carries the resume token (the script's reads). */
export const RESUME_HEADER = "x-atelier-resume";
const TOKEN = /^[A-Za-z0-9_-]{32,64}$/;

/** A new resume token: 32 random bytes, base64url. */
export const newResumeToken = () => randomBytes(32).toString("base64url");
/** Whether text looks like a resume token (anything else is never looked up). */
export const isResumeToken = (v: unknown): v is string => typeof v === "string" && TOKEN.test(v);
/** What is stored of a token. */
export const hashResumeToken = (token: string) => createHash("sha256").update(token).digest("hex");

export interface NewPartial {
  form: PublishedForm;
  /** The known fields' answers as given (not yet checked: the visitor is still answering). */
  answers: Record<string, unknown>;
  /** The page the visitor is on now (0 for the first). */
  page: number;
  tracking: Tracking;
  token: string;
  ip: string;
}

export interface SavedPartial {
  expiresAt: string;
}

export interface StoredPartial {
  answers: Record<string, unknown>;
  page: number;
  expiresAt: string;
}

type Delta = { formId: string; source: string; starts: number; reached: number[] };

/**
 * Writes partial answers in the batch's transaction: one upsert each, then the funnel's counts
 * of the day: a start for a new partial answer, a page reached for each page past the furthest
 * one the visitor had reached (Back and Next again count nothing twice; skipped ones not at all).
 */
export async function writePartials(
  trx: AnyDb,
  items: ReadonlyArray<NewPartial & { days: number }>,
): Promise<SavedPartial[]> {
  const hashes = items.map((i) => hashResumeToken(i.token));
  const before = hashes.length
    ? await trx
        .selectFrom("form_partials")
        .select(["token_hash", "form_id", "furthest"])
        .where("token_hash", "in", hashes)
        .forUpdate()
        .execute()
    : [];
  const known = new Map(before.map((r) => [r.token_hash, r]));
  const deltas = new Map<string, Delta>();
  const out: SavedPartial[] = [];
  for (const [i, item] of items.entries()) {
    const hash = hashes[i];
    const earlier = known.get(hash);
    // A token of another form is not this visitor's answer to this one: it starts afresh.
    const same = earlier?.form_id === item.form.id ? earlier : undefined;
    const furthest = Math.max(item.page, same?.furthest ?? 0);
    const source = item.tracking.parameters.utm_source ?? "";
    const row = await trx
      .insertInto("form_partials")
      .values({
        form_id: item.form.id,
        token_hash: hash,
        version: item.form.version,
        answers: JSON.stringify(item.answers),
        page: item.page,
        furthest,
        tracking: JSON.stringify(item.tracking),
        utm_source: source,
        expires_at: sql<Date>`now() + make_interval(days => ${item.days}::integer)`,
      })
      .onConflict((oc) =>
        oc.column("token_hash").doUpdateSet((eb) => ({
          form_id: eb.ref("excluded.form_id"),
          version: eb.ref("excluded.version"),
          answers: eb.ref("excluded.answers"),
          page: eb.ref("excluded.page"),
          furthest: eb.ref("excluded.furthest"),
          updated_at: sql`now()`,
          expires_at: eb.ref("excluded.expires_at"),
        })),
      )
      .returning(
        sql<string>`to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`.as("expires"),
      )
      .executeTakeFirstOrThrow();
    out.push({ expiresAt: row.expires });
    const key = `${item.form.id}\u0000${source}`;
    const d = deltas.get(key) ?? { formId: item.form.id, source, starts: 0, reached: [] };
    if (!same) d.starts++;
    // A page counts when first reached; a page skipped on the way (its rules) is not reached.
    if (item.page > (same?.furthest ?? 0)) d.reached[item.page] = (d.reached[item.page] ?? 0) + 1;
    deltas.set(key, d);
    known.set(hash, { token_hash: hash, form_id: item.form.id, furthest });
  }
  await countFunnel(trx, [...deltas.values()]);
  return out;
}

/** Adds starts and pages reached to the day's rows (element by element for the pages). */
async function countFunnel(trx: AnyDb, deltas: Delta[]) {
  const rows = deltas
    .filter((d) => d.starts || d.reached.some(Boolean))
    .sort((a, b) => (a.formId + a.source < b.formId + b.source ? -1 : 1));
  if (!rows.length) return;
  await trx
    .insertInto("form_stats")
    .values(
      rows.map((d) => ({
        form_id: d.formId,
        day: sql`current_date`,
        utm_source: d.source,
        starts: d.starts,
        // Position k (arrays count from 1) holds page k; page 0 is the start itself.
        reached: Array.from({ length: d.reached.length }, (_, k) => d.reached[k] ?? 0).slice(1),
      })),
    )
    .onConflict((oc) =>
      oc.columns(["form_id", "day", "utm_source"]).doUpdateSet({
        starts: sql`form_stats.starts + excluded.starts`,
        reached: sql`array(
          select coalesce(form_stats.reached[i], 0) + coalesce(excluded.reached[i], 0)
          from generate_series(1, greatest(cardinality(form_stats.reached), cardinality(excluded.reached))) as i
        )`,
      }),
    )
    .execute();
}

/** Deletes the partial answers of stored submissions (their tokens' hashes), in their transaction. */
export async function deletePartials(trx: AnyDb, byForm: ReadonlyArray<{ formId: string; hash: string }>) {
  if (!byForm.length) return;
  await trx
    .deleteFrom("form_partials")
    .where(({ eb, or, and }) =>
      or(byForm.map((p) => and([eb("form_id", "=", p.formId), eb("token_hash", "=", p.hash)]))),
    )
    .execute();
}

/** A visitor's partial answer to this form, if their token names one still in its window. */
export async function loadPartial(
  ctx: Pick<AppContext, "db">,
  formId: string,
  token: string,
): Promise<StoredPartial | null> {
  if (!isResumeToken(token)) return null;
  const db = ctx.db as unknown as AnyDb;
  const row = await db
    .selectFrom("form_partials")
    .select([
      "answers",
      "page",
      sql<string>`to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`.as("expires"),
    ])
    .where("form_id", "=", formId)
    .where("token_hash", "=", hashResumeToken(token))
    .where("expires_at", ">", sql<Date>`now()`)
    .executeTakeFirst();
  if (!row) return null;
  const answers = typeof row.answers === "string" ? JSON.parse(row.answers) : row.answers;
  return { answers: answers as Record<string, unknown>, page: row.page, expiresAt: row.expires };
}

/** Registers the sweep: partial answers past their window go, a thousand at a time. */
export function sweepPartials(ctx: AppContext) {
  const db = ctx.db as unknown as AnyDb;
  ctx.jobs.recurring<null>(PARTIALS_SWEEP_JOB, SWEEP_EVERY_MS, null, async () => {
    let swept = 0;
    for (;;) {
      const result = await db
        .deleteFrom("form_partials")
        .where(
          "id",
          "in",
          db
            .selectFrom("form_partials")
            .select("id")
            .where("expires_at", "<=", sql<Date>`now()`)
            .limit(SWEEP_BATCH),
        )
        .executeTakeFirst();
      const n = Number(result.numDeletedRows);
      swept += n;
      if (n < SWEEP_BATCH) break;
    }
    if (swept) ctx.log.info({ swept }, "expired partial form answers deleted");
    return null;
  });
}
