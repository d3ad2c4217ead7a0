/**
 * Per-user preferences: read, write and forget one key of the signed-in user. Every query is
 * scoped by the caller's user id, so no route can reach another user's rows.
 */
import { sql } from "kysely";
import {
  PREFERENCE_VALUE_MAX_BYTES,
  PREFERENCES_PER_USER_MAX,
  type PreferenceRecord,
} from "../../../schemas/preferences";
import type { AppContext } from "../../context";
import { badRequest, conflict, type FieldError } from "../../http/errors";

/**
 * What is wrong with a value before it is stored: missing (null: forgetting is DELETE), or
 * larger than PREFERENCE_VALUE_MAX_BYTES once written as JSON.
 *
 * @example
 * preferenceValueErrors({ hidden: ["status"] }); // []
 * preferenceValueErrors(null); // [{ field: "value", message: "Value is required (to forget a preference, delete it)" }]
 */
export function preferenceValueErrors(value: unknown): FieldError[] {
  if (value === null || value === undefined) {
    return [{ field: "value", message: "Value is required (to forget a preference, delete it)" }];
  }
  const bytes = Buffer.byteLength(JSON.stringify(value), "utf8");
  if (bytes > PREFERENCE_VALUE_MAX_BYTES) {
    const kb = PREFERENCE_VALUE_MAX_BYTES / 1024;
    const size = bytes.toLocaleString("en-US");
    return [
      { field: "value", message: `Value must be at most ${kb} KB as JSON (this one is ${size} bytes)` },
    ];
  }
  return [];
}

const toRecord = (row: { key: string; value: unknown; updated_at: Date }): PreferenceRecord => ({
  key: row.key,
  value: row.value,
  updated_at: row.updated_at.toISOString(),
});

/** The user's value for `key`; `value: null` when never set (not an error: every user starts so). */
export async function getPreference(ctx: AppContext, userId: string, key: string): Promise<PreferenceRecord> {
  const row = await ctx.db
    .selectFrom("user_preferences")
    .select(["key", "value", "updated_at"])
    .where("user_id", "=", userId)
    .where("key", "=", key)
    .executeTakeFirst();
  return row ? toRecord(row) : { key, value: null };
}

/** Sets the user's value for `key`, replacing the last one. */
export async function putPreference(
  ctx: AppContext,
  userId: string,
  key: string,
  value: unknown,
): Promise<PreferenceRecord> {
  const errors = preferenceValueErrors(value);
  if (errors.length) throw badRequest("Invalid body: please correct the highlighted fields", errors);
  const json = JSON.stringify(value);
  const updated = await ctx.db
    .updateTable("user_preferences")
    .set({ value: json, updated_at: sql`now()` })
    .where("user_id", "=", userId)
    .where("key", "=", key)
    .returning(["key", "value", "updated_at"])
    .executeTakeFirst();
  if (updated) return toRecord(updated);
  await refusePastTheCap(ctx, userId);
  const row = await ctx.db
    .insertInto("user_preferences")
    .values({ user_id: userId, key, value: json })
    // Two first writes of one key at once: the later one wins, as two updates would.
    .onConflict((oc) => oc.columns(["user_id", "key"]).doUpdateSet({ value: json, updated_at: sql`now()` }))
    .returning(["key", "value", "updated_at"])
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

/** Forgets the user's value for `key`; true when there was one. */
export async function deletePreference(ctx: AppContext, userId: string, key: string): Promise<boolean> {
  const result = await ctx.db
    .deleteFrom("user_preferences")
    .where("user_id", "=", userId)
    .where("key", "=", key)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

async function refusePastTheCap(ctx: AppContext, userId: string) {
  const { count } = await ctx.db
    .selectFrom("user_preferences")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= PREFERENCES_PER_USER_MAX) {
    throw conflict(
      `You have ${PREFERENCES_PER_USER_MAX} saved preferences, the most one user may keep: delete one first`,
    );
  }
}
