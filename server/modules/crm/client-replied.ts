/**
 * What follows when a client answers (an email reply, an SMS that is not STOP/START): called in
 * the transaction that stores the reply, once per reply, never for an automatic answer (an
 * out-of-office, a bounce). The client leaves their active sequences (reason "replied"), and
 * their automation runs waiting for a reply on that channel go on (issue 17).
 *
 * Call it before the reply's own writes to the client's row (its timeline entry): the run engine
 * locks runs before a step writes to the client, so taking the same order here cannot deadlock
 * with a step of this client on PostgreSQL.
 */
import type { AppContext } from "../../context";
import { clientReplied } from "../automation/crm-events";
import { exitSequences } from "./sequences/exits";
import type { Db } from "./timeline";

export async function onClientReplied(
  ctx: AppContext,
  trx: Db,
  clientId: string,
  channel: "email" | "sms",
): Promise<void> {
  await exitSequences(ctx, trx, clientId, "replied");
  await clientReplied(ctx, trx, clientId, channel);
}
