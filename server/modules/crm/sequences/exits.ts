/**
 * When a client leaves a sequence before its end: they replied, opted out, or an opportunity of
 * theirs was won or lost. Two ways in, so an exit is never missed:
 * - at once, from the event's own transaction: `exitSequences` ends the client's active
 *   enrolments through the run engine. Called by the reply hook (`onClientReplied`: an email
 *   reply over the inbound SMTP listener, an inbound SMS), the opt-out hook (`onClientOptedOut`:
 *   STOP) and the opportunity rules (won, lost);
 * - before every step, `exitReasonOf` looks for the same facts since the enrolment began, so a
 *   reply stored by a path that did not call the hook still stops the next step.
 */
import { sql } from "kysely";
import type { ExitReason } from "../../../../schemas/crm-sequence-steps";
import type { AppContext } from "../../../context";
import type { Run, Db as RunDb } from "../../../runs";
import type { Db } from "../timeline";
import { SEQUENCE_KIND, type SequenceContext } from "./kind-names";

/**
 * Ends the client's active enrolments in every sequence, in the caller's transaction; answers
 * how many. Their timeline says why (the kind's onRunEnded).
 *
 * @example
 * await exitSequences(ctx, trx, clientId, "replied"); // in the transaction storing the reply
 */
export async function exitSequences(
  ctx: AppContext,
  trx: Db,
  clientId: string,
  reason: ExitReason,
): Promise<number> {
  const ended = await ctx.runs.exit(trx as RunDb, {
    subject: { type: "client", id: clientId },
    kind: SEQUENCE_KIND,
    reason,
  });
  return ended.length;
}

/**
 * Why the enrolment must end before its next step, or null. Looks only at what happened since
 * it began: an opportunity lost last year does not stop this year's sequence. Withdrawing a
 * consent given at enrolment is an opt-out; never having given it only skips that channel's
 * steps (the executors).
 */
export async function exitReasonOf(trx: Db, run: Run<SequenceContext>): Promise<string | null> {
  const clientId = run.subject?.id;
  if (!clientId) return "client_deleted";
  const since = run.startedAt;
  const client = await trx
    .selectFrom("clients")
    .select(["sms_opted_out_at", "consent_email", "consent_sms"])
    .where("id", "=", clientId)
    .executeTakeFirst();
  if (!client) return "client_deleted";
  const sequence = await trx
    .selectFrom("crm_sequences")
    .select("id")
    .where("id", "=", run.ownerKey)
    .executeTakeFirst();
  if (!sequence) return "sequence_deleted";
  const consent = run.context?.consent;
  if (client.sms_opted_out_at && new Date(client.sms_opted_out_at) >= since) return "opted_out";
  if ((consent?.email && !client.consent_email) || (consent?.sms && !client.consent_sms)) return "opted_out";
  // A reply: a mail or text from the client, not an automatic answer, not STOP/START.
  const reply = await trx
    .selectFrom("crm_timeline")
    .select("id")
    .where("client_id", "=", clientId)
    .where("kind", "in", ["email_in", "sms_in"])
    .where("occurred_at", ">=", since)
    .where(sql<boolean>`coalesce(data->>'automatic', 'false') <> 'true' and data->>'keyword' is null`)
    .limit(1)
    .executeTakeFirst();
  if (reply) return "replied";
  const closed = await trx
    .selectFrom("opportunities")
    .select("status")
    .where("client_id", "=", clientId)
    .where("status", "in", ["won", "lost"])
    .where("closed_at", ">=", since)
    .orderBy("closed_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return closed ? closed.status : null;
}
