/**
 * What a message's merge fields are filled with on the server (schemas/merge-fields.ts): the
 * client, the sending user, and the client's custom fields. Email, SMS and sequence steps all
 * ask here, so a template reads the same whichever channel sends it.
 */

import type { Kysely, Transaction } from "kysely";
import { clientSchema } from "../../../schemas/crm-clients";
import { type MergeClient, type MergeValues, mergeValuesOf } from "../../../schemas/merge-fields";
import type { AppContext } from "../../context";
import type { Database } from "../../db/types";
import { customFields } from "../../resources/custom-fields";

type Ctx = Pick<AppContext, "db" | "broadcast" | "log">;
type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The keys of the clients' custom fields, as admins defined them: a template may use
 * `{{client.<key>}}` for each, even for a client without a value (it renders empty, or its
 * fallback). Read from the custom field catalogue (cached, shared by every instance).
 */
export async function clientCustomFieldKeys(ctx: Ctx, db?: Executor): Promise<string[]> {
  const entity = clientSchema["x-custom"];
  return (await customFields(ctx).fieldsOf(entity, db)).map((f) => f.key);
}

/**
 * The merge values of a message to `client` sent by `userId` (null: sent by the system); `db`
 * is the caller's transaction when it has one.
 */
export async function messageMergeValues(
  ctx: Ctx,
  client: MergeClient,
  userId: string | null,
  db: Executor = ctx.db,
): Promise<MergeValues> {
  const user = userId
    ? await db
        .selectFrom("users")
        .select(["first_name", "last_name", "email"])
        .where("id", "=", userId)
        .executeTakeFirst()
    : undefined;
  return mergeValuesOf(client, user ?? null, await clientCustomFieldKeys(ctx, db));
}
