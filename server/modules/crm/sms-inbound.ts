/**
 * An SMS a client sent us (the provider's inbound webhook): matched to clients by phone
 * (E.164), stored once per provider id, and put on the timeline.
 *
 * - STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT (the whole text, any case): every client with
 *   that number is opted out (`clients.sms_opted_out_at`) and leaves their sequences (even one
 *   opted out already: they said STOP again);
 * - START, YES, UNSTOP: opted back in;
 * - anything else is a reply: on the timeline of the client last texted from that number (else
 *   the one most recently active), whose sequences are told they answered.
 *
 * An SMS from a number no client has is logged and dropped.
 */
import { sql } from "kysely";
import { MODULE_IDS } from "../../../resources/modules";
import { SMS_MAX_LENGTH, smsKeyword } from "../../../schemas/sms";
import type { AppContext } from "../../context";
import type { InboundSms } from "../../sms";
import { onClientOptedOut } from "./client-opted-out";
import { onClientReplied } from "./client-replied";
import { addTimeline, type TimelineInput, timelineChanged } from "./timeline";

export type InboundOutcome =
  | { kind: "unknown_sender" | "duplicate" }
  | { kind: "message" | "opt_out" | "opt_in"; clientIds: string[]; messageId: string };

const firstLine = (text: string) => {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
};

export async function receiveSms(ctx: AppContext, inbound: InboundSms): Promise<InboundOutcome> {
  const keyword = inbound.keyword ?? smsKeyword(inbound.body);
  const body = Array.from(inbound.body).slice(0, SMS_MAX_LENGTH).join("");
  const outcome = await ctx.db
    .transaction()
    .execute(async (trx): Promise<InboundOutcome & { changed?: string[] }> => {
      const ids = (
        await trx.selectFrom("clients").select("id").where("phone", "=", inbound.from).orderBy("id").execute()
      ).map((c) => c.id);
      if (!ids.length) return { kind: "unknown_sender" };
      // The conversation is with the client we last texted at this number, else the most active.
      const lastTexted = await trx
        .selectFrom("crm_messages")
        .select("client_id")
        .where("channel", "=", "sms")
        .where("to_address", "=", inbound.from)
        .where("direction", "=", "out")
        .where("client_id", "in", ids)
        .orderBy("created_at", "desc")
        .limit(1)
        .executeTakeFirst();
      const main =
        lastTexted?.client_id ??
        (
          await trx
            .selectFrom("clients")
            .select("id")
            .where("id", "in", ids)
            .orderBy(sql`coalesce(last_activity_at, updated_at)`, "desc")
            .limit(1)
            .executeTakeFirstOrThrow()
        ).id;
      const stored = await trx
        .insertInto("crm_messages")
        .values({
          channel: "sms",
          direction: "in",
          client_id: main,
          body,
          body_text: body,
          from_address: inbound.from,
          to_address: inbound.to ?? "",
          status: "received",
          message_id: inbound.providerId,
          meta: JSON.stringify(keyword ? { keyword } : {}),
        })
        .onConflict((oc) => oc.columns(["channel", "message_id"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      // The provider posted it twice (a retried webhook): handled the first time.
      if (!stored) return { kind: "duplicate" };

      // Sequences first, before the clients' rows are locked: the run engine locks a run before
      // its step writes to the client, and the same order here cannot deadlock with it.
      if (keyword === "opt_out") for (const id of ids) await onClientOptedOut(ctx, trx, id);
      else if (!keyword) await onClientReplied(ctx, trx, main, "sms");
      // Locked: a send to this number (sendSms) waits for this STOP, or this STOP for the send.
      const clients = await trx
        .selectFrom("clients")
        .select(["id", "sms_opted_out_at"])
        .where("id", "in", ids)
        .orderBy("id")
        .forUpdate()
        .execute();

      const data = { from: inbound.from, to: inbound.to, messageId: stored.id };
      const entry = (
        clientId: string,
        title: string,
        extra: Record<string, unknown> = {},
      ): TimelineInput => ({
        clientId,
        kind: "sms_in",
        title,
        body,
        data: { ...data, ...extra },
        refId: stored.id,
        dedupeKey: `sms_in:${inbound.providerId}:${clientId}`,
      });

      if (keyword === "opt_out") {
        const changed = clients.filter((c) => !c.sms_opted_out_at).map((c) => c.id);
        if (changed.length) {
          await trx
            .updateTable("clients")
            .set({ sms_opted_out_at: sql`now()` as never, updated_at: sql`now()` as never })
            .where("id", "in", changed)
            .execute();
        }
        await addTimeline(
          trx,
          ids.map((id) =>
            entry(
              id,
              changed.includes(id)
                ? `Texted ${firstLine(body)}: opted out of SMS`
                : `Texted ${firstLine(body)} (already opted out of SMS)`,
              { keyword },
            ),
          ),
        );
        return { kind: "opt_out", clientIds: ids, messageId: stored.id, changed };
      }
      if (keyword === "opt_in") {
        const changed = clients.filter((c) => c.sms_opted_out_at).map((c) => c.id);
        if (changed.length) {
          await trx
            .updateTable("clients")
            .set({ sms_opted_out_at: null, updated_at: sql`now()` as never })
            .where("id", "in", changed)
            .execute();
        }
        await addTimeline(
          trx,
          ids.map((id) =>
            entry(
              id,
              changed.includes(id)
                ? `Texted ${firstLine(body)}: opted back in to SMS`
                : `SMS from ${inbound.from}`,
              {
                keyword,
              },
            ),
          ),
        );
        return { kind: "opt_in", clientIds: ids, messageId: stored.id, changed };
      }
      await addTimeline(trx, [entry(main, `SMS from ${inbound.from}: ${firstLine(body)}`)]);
      return { kind: "message", clientIds: [main], messageId: stored.id };
    });

  if (outcome.kind === "unknown_sender")
    ctx.log.info({ providerId: inbound.providerId }, "SMS from a number no client has: not stored");
  if ("clientIds" in outcome) {
    timelineChanged(ctx, outcome.clientIds, null);
    if (outcome.changed?.length)
      ctx.events.publish({
        resource: "clients",
        moduleID: MODULE_IDS.crm,
        type: "updated",
        ids: outcome.changed,
        actorId: null,
      });
    const { changed: _changed, ...rest } = outcome;
    return rest;
  }
  return outcome;
}
