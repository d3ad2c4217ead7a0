/**
 * What follows when a client opts out of SMS (texts STOP): called in the transaction that stores
 * the STOP and sets `clients.sms_opted_out_at`, once per STOP received. The client leaves their
 * active sequences (reason "opted_out").
 *
 * Call it before locking or writing the client's row: the run engine locks runs before a step
 * writes to the client, so taking the same order here cannot deadlock with a step of this client
 * on PostgreSQL.
 */
import type { AppContext } from "../../context";
import { exitSequences } from "./sequences/exits";
import type { Db } from "./timeline";

export async function onClientOptedOut(ctx: AppContext, trx: Db, clientId: string): Promise<void> {
  await exitSequences(ctx, trx, clientId, "opted_out");
}
