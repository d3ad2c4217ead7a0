/**
 * What a message's merge fields are filled with on the server (schemas/merge-fields.ts): the
 * client, the sending user, and the client's custom fields. Email, SMS and sequence steps all
 * ask here, so a template reads the same whichever channel sends it.
 */
import { type MergeClient, type MergeValues, mergeValuesOf } from "../../../schemas/merge-fields";
import type { Db } from "./timeline";

/**
 * The keys of the clients' custom fields, defined by admins at run time: a template may use
 * `{{client.<key>}}` for each, even for a client without a value (it renders empty, or its
 * fallback). Until the custom-fields service is wired here, a client's own values are the
 * custom fields its messages know.
 */
export async function clientCustomFieldKeys(_db: Db): Promise<string[]> {
  return [];
}

/** The merge values of a message to `client` sent by `userId` (null: sent by the system). */
export async function messageMergeValues(
  db: Db,
  client: MergeClient,
  userId: string | null,
): Promise<MergeValues> {
  const user = userId
    ? await db
        .selectFrom("users")
        .select(["first_name", "last_name", "email"])
        .where("id", "=", userId)
        .executeTakeFirst()
    : undefined;
  return mergeValuesOf(client, user ?? null, await clientCustomFieldKeys(db));
}
