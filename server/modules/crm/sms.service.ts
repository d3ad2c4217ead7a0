/**
 * SMS from a client's page (issue 16, spec §3 `smsModal`): the text (from a template or
 * written) with its merge fields filled from the client and the sender, refused for a client
 * without a phone, without SMS consent, or opted out (texted STOP), then queued through the SMS
 * service (server/sms) and put on the timeline in one transaction. A status change of the SMS
 * (sent, delivered, failed) rewrites its timeline entry.
 */
import { sql } from "kysely";
import { asSentence, invalidInputMessage } from "../../../schemas/error-messages";
import { mergeValuesOf, renderMergeFields, unknownMergeFields } from "../../../schemas/merge-fields";
import { SMS_MAX_LENGTH, type SmsStatus, smsRefusal } from "../../../schemas/sms";
import type { AppContext } from "../../context";
import { badRequest, conflict, type FieldError, notFound } from "../../http/errors";
import type { SmsStatusChange, StoredSms } from "../../sms";
import { addTimeline, type Db, timelineChanged } from "./timeline";

export interface SendSmsRequest {
  clientId: string;
  /** The text; merge fields are filled per client. Without it, the template's body. */
  body?: string;
  templateId?: string | null;
}

/** How a sent SMS's timeline entry reads at each status. */
export function smsOutTitle(status: SmsStatus, to: string, error?: string | null): string {
  switch (status) {
    case "stored":
      return `SMS to ${to} kept in the SMS outbox`;
    case "queued":
      return `SMS to ${to} is being sent`;
    case "sent":
      return `SMS sent to ${to}`;
    case "delivered":
      return `SMS delivered to ${to}`;
    case "undelivered":
      return `SMS not delivered to ${to}${error ? `: ${error}` : ""}`;
    default:
      return `SMS to ${to} failed${error ? `: ${error}` : ""}`;
  }
}

/** A 400 naming each field: one field's own sentence, or how many need correcting. */
const invalid = (errors: FieldError[]) =>
  badRequest(errors.length === 1 ? asSentence(errors[0]) : invalidInputMessage(errors), errors);

async function smsTemplate(db: Db, templateId: string | null | undefined) {
  if (!templateId) return null;
  const template = await db
    .selectFrom("crm_templates")
    .select(["id", "channel", "body"])
    .where("id", "=", templateId)
    .executeTakeFirst();
  if (!template) throw invalid([{ field: "templateId", message: "This template no longer exists" }]);
  if (template.channel !== "sms")
    throw invalid([{ field: "templateId", message: "This is an email template: choose an SMS template" }]);
  return template;
}

/** The text as the client gets it; unknown merge fields and an empty or too long result are 400s. */
function renderSms(text: string, values: Record<string, string | null>): string {
  const unknown = unknownMergeFields(text, values);
  if (unknown.length) {
    const which = unknown.map((k) => `{{${k}}}`).join(", ");
    throw invalid([
      {
        field: "body",
        message: `has ${unknown.length === 1 ? "an unknown merge field" : "unknown merge fields"}: ${which}`,
      },
    ]);
  }
  const out = renderMergeFields(text, values).trim();
  if (!out) throw invalid([{ field: "body", message: "is empty once its merge fields are filled" }]);
  if (Array.from(out).length > SMS_MAX_LENGTH)
    throw invalid([
      {
        field: "body",
        message: `is longer than ${SMS_MAX_LENGTH} characters once its merge fields are filled`,
      },
    ]);
  return out;
}

/** Sends an SMS to a client (see the file's comment); answers the stored message. */
export async function sendSms(ctx: AppContext, input: SendSmsRequest, userId: string): Promise<StoredSms> {
  const stored = await ctx.db.transaction().execute(async (trx) => {
    // Locked: a STOP arriving meanwhile waits for this send, or this send sees it.
    const client = await trx
      .selectFrom("clients")
      .select([
        "id",
        "name",
        "email",
        "phone",
        "company",
        "job_title",
        "custom",
        "consent_sms",
        "sms_opted_out_at",
      ])
      .where("id", "=", input.clientId)
      .forUpdate()
      .executeTakeFirst();
    if (!client) throw notFound("Client not found");
    const refusal = smsRefusal(client);
    if (refusal) throw conflict(refusal, [{ field: "clientId", message: refusal }]);
    const template = await smsTemplate(trx, input.templateId);
    const text = input.body ?? template?.body;
    if (!text?.trim()) throw invalid([{ field: "body", message: "is required" }]);
    const sender = await trx
      .selectFrom("users")
      .select(["first_name", "last_name", "email"])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    const custom = typeof client.custom === "string" ? JSON.parse(client.custom) : client.custom;
    const body = renderSms(text, mergeValuesOf({ ...client, custom }, sender));
    const phone = client.phone as string;
    const [sms] = await ctx.sms.queue(
      [{ clientId: client.id, to: phone, body, templateId: template?.id ?? null, actorId: userId }],
      trx,
    );
    await addTimeline(trx, [
      {
        clientId: client.id,
        kind: "sms_out",
        title: smsOutTitle(sms.status, phone),
        body,
        data: {
          to: phone,
          status: sms.status,
          segments: sms.segments,
          encoding: sms.encoding,
          messageId: sms.id,
        },
        refId: sms.id,
        actorId: userId,
      },
    ]);
    return sms;
  });
  timelineChanged(ctx, [stored.clientId], userId);
  return stored;
}

/** Keeps a sent SMS's timeline entry in step with its status (the send job, delivery reports). */
export function smsTimelineListener(ctx: AppContext) {
  return {
    async applied(trx: Db, change: SmsStatusChange) {
      await trx
        .updateTable("crm_timeline")
        .set({
          title: smsOutTitle(change.status, change.to, change.error).slice(0, 300),
          data: sqlMerge({ status: change.status, error: change.error }),
        })
        .where("ref_id", "=", change.id)
        .where("kind", "=", "sms_out")
        .execute();
    },
    committed(change: SmsStatusChange) {
      timelineChanged(ctx, [change.clientId], null);
    },
  };
}

/** `data || {...}` for a jsonb column. */
const sqlMerge = (value: Record<string, unknown>) => sql`data || ${JSON.stringify(value)}::jsonb` as never;
