/**
 * The SMS service (issue 16), a shared service like the mailer: `queue(messages, trx)` stores
 * SMS in the caller's transaction. Without a provider (the default) they stay `stored`, readable
 * in the SMS outbox; with one (SMS_PROVIDER=twilio) each gets a durable `sms.send` job that
 * hands it to the provider: 5xx, 429 and network failures are tried again with the queue's
 * growing waits, a 4xx fails the message with the provider's words. Delivery reports (status
 * callbacks) move it on to delivered or undelivered.
 *
 * At least once: a crash between the provider taking an SMS and our record of it sends it again
 * on the retry (the Messages API has no idempotency key to stop that).
 */
import type { FastifyBaseLogger } from "fastify";
import { type Kysely, sql, type Transaction } from "kysely";
import { FINAL_SMS_STATUSES, type SmsStatus } from "../../schemas/sms";
import { countSms } from "../../schemas/sms-segments";
import type { Database } from "../db";
import type { SmsMeta } from "../db/types-crm-sms";
import type { JobQueue } from "../jobs";
import type { SmsProvider, SmsStatusReport } from "./provider";

export const SEND_JOB = "sms.send";
/** Attempts of one SMS: waits of 2, 4, 8, 16 and 32 s between them (server/jobs/retry.ts). */
export const SEND_ATTEMPTS = 6;

/** Public paths of the provider's webhooks (the CRM serves them: server/modules/crm/sms-hooks.routes.ts). */
export const SMS_HOOK_PATHS = { inbound: "/crm/hooks/sms/inbound", status: "/crm/hooks/sms/status" } as const;

type Db = Kysely<Database> | Transaction<Database>;

/** An SMS to a client. */
export interface OutgoingSms {
  clientId: string;
  /** E.164 number. */
  to: string;
  body: string;
  templateId?: string | null;
  actorId?: string | null;
}

/** An SMS as stored. */
export interface StoredSms {
  id: string;
  clientId: string;
  to: string;
  body: string;
  status: SmsStatus;
  error: string | null;
  segments: number;
  encoding: "GSM-7" | "UCS-2";
}

/** An outgoing SMS whose status moved (the send job's outcome, or a delivery report). */
export interface SmsStatusChange {
  id: string;
  clientId: string;
  to: string;
  status: SmsStatus;
  error: string | null;
}

/** Told of every status change: `applied` inside its transaction, `committed` after it. */
export interface SmsStatusListener {
  applied(trx: Transaction<Database>, change: SmsStatusChange): Promise<void>;
  committed?(change: SmsStatusChange): void;
}

export interface SmsService {
  readonly provider: SmsProvider;
  /** Stores SMS in the caller's transaction (`trx`); they exist, and are sent, only if it commits. */
  queue(messages: readonly OutgoingSms[], trx: Db): Promise<StoredSms[]>;
  /** Applies a provider's delivery report in `trx`; null when it names no SMS of ours or changes nothing. */
  applyReport(trx: Transaction<Database>, report: SmsStatusReport): Promise<SmsStatusChange | null>;
  /** Tells `listener` of status changes (the CRM puts them on the client's timeline). */
  onStatusChange(listener: SmsStatusListener): void;
  /** Listeners' after-commit half, for callers that applied a report in their own transaction. */
  committed(change: SmsStatusChange): void;
}

export interface SmsServiceOptions {
  db: Kysely<Database>;
  jobs: JobQueue;
  log: FastifyBaseLogger;
  provider: SmsProvider;
  /** Where the provider posts delivery reports (PUBLIC_URL + SMS_HOOK_PATHS.status). */
  statusCallbackUrl: string | null;
  /** The sender shown on stored rows: the configured number or messaging service ("" for none). */
  from: string;
}

/**
 * Whether a report may move an SMS from `current` to `next`: never back from a final verdict,
 * never from `sent` back to the provider's own queue.
 */
export function reportApplies(current: SmsStatus, next: SmsStatus): boolean {
  if (current === next || current === "received" || current === "stored") return false;
  if (FINAL_SMS_STATUSES.includes(current)) return false;
  return next !== "queued";
}

export function createSmsService(options: SmsServiceOptions): SmsService {
  const { db, jobs, log, provider } = options;
  const listeners: SmsStatusListener[] = [];

  async function changed(change: SmsStatusChange, trx: Transaction<Database>) {
    for (const l of listeners) await l.applied(trx, change);
  }
  function committed(change: SmsStatusChange) {
    for (const l of listeners) {
      try {
        l.committed?.(change);
      } catch (err) {
        log.warn({ err, smsId: change.id }, "SMS status listener failed after commit");
      }
    }
  }

  /** Records an attempt's outcome; listeners see the change in the same transaction. */
  async function record(
    id: string,
    set: { status: SmsStatus; error: string | null; messageId?: string; meta: SmsMeta },
  ): Promise<SmsStatusChange | null> {
    const change = await db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable("crm_messages")
        .set({
          status: set.status,
          error: set.error,
          ...(set.messageId ? { message_id: set.messageId } : {}),
          meta: sql`meta || ${JSON.stringify(set.meta)}::jsonb` as never,
          updated_at: sql`now()` as never,
        })
        .where("id", "=", id)
        .where("channel", "=", "sms")
        .where("status", "=", "queued")
        .returning(["id", "client_id", "to_address", "status", "error"])
        .executeTakeFirst();
      if (!row) return null;
      const c: SmsStatusChange = {
        id: row.id,
        clientId: row.client_id,
        to: row.to_address,
        status: row.status,
        error: row.error,
      };
      if (set.status !== "queued") await changed(c, trx);
      return c;
    });
    if (change && change.status !== "queued") committed(change);
    return change;
  }

  async function send(id: string, attempt: number): Promise<void> {
    const row = await db
      .selectFrom("crm_messages")
      .select(["id", "to_address", "body", "status"])
      .where("id", "=", id)
      .where("channel", "=", "sms")
      .where("direction", "=", "out")
      .executeTakeFirst();
    // Sent already (a job run again after a crash), or gone with its client.
    if (row?.status !== "queued") return;
    const result = await provider.send({
      id: row.id,
      to: row.to_address,
      body: row.body,
      statusCallback: options.statusCallbackUrl,
    });
    if (result.ok) {
      await record(id, {
        status: result.status,
        error: null,
        messageId: result.providerId,
        meta: { attempts: attempt, sentAt: new Date().toISOString(), errorCode: null },
      });
      return;
    }
    const giveUp = !result.retry || attempt >= SEND_ATTEMPTS;
    await record(id, {
      status: giveUp ? "failed" : "queued",
      error: result.error,
      meta: { attempts: attempt, errorCode: result.errorCode },
    });
    if (!giveUp) throw new Error(`SMS not taken by the provider (attempt ${attempt}): ${result.error}`);
    log.warn({ smsId: id, attempt, err: result.error, code: result.errorCode }, "SMS failed");
  }

  if (provider.sends) {
    jobs.register<{ smsId: string }>(SEND_JOB, (job) => send(job.payload.smsId, job.attempt), {
      concurrency: 4,
      maxAttempts: SEND_ATTEMPTS,
    });
  }

  return {
    provider,

    async queue(messages, trx) {
      if (!messages.length) return [];
      const status: SmsStatus = provider.sends ? "queued" : "stored";
      const rows = await trx
        .insertInto("crm_messages")
        .values(
          messages.map((m) => {
            const count = countSms(m.body);
            const meta: SmsMeta = {
              segments: count.segments,
              encoding: count.encoding,
              provider: provider.name,
              attempts: 0,
            };
            return {
              channel: "sms" as const,
              direction: "out" as const,
              client_id: m.clientId,
              body: m.body,
              // Plain text already: what searches and previews of crm_messages read.
              body_text: m.body,
              from_address: options.from,
              to_address: m.to,
              status,
              template_id: m.templateId ?? null,
              actor_id: m.actorId ?? null,
              meta: JSON.stringify(meta),
            };
          }),
        )
        .returning(["id", "client_id", "to_address", "body", "status", "error", "meta"])
        .execute();
      if (provider.sends) {
        await jobs.enqueueMany(
          SEND_JOB,
          rows.map((r) => ({ smsId: r.id })),
          { db: trx },
        );
      }
      return rows.map((r) => {
        const meta = (typeof r.meta === "string" ? JSON.parse(r.meta) : r.meta) as SmsMeta;
        return {
          id: r.id,
          clientId: r.client_id,
          to: r.to_address,
          body: r.body,
          status: r.status,
          error: r.error,
          segments: meta.segments ?? 0,
          encoding: meta.encoding ?? "GSM-7",
        };
      });
    },

    async applyReport(trx, report) {
      const row = await trx
        .selectFrom("crm_messages")
        .select(["id", "client_id", "to_address", "status"])
        .where("channel", "=", "sms")
        .where("message_id", "=", report.providerId)
        .where("direction", "=", "out")
        .forUpdate()
        .executeTakeFirst();
      if (!row || !reportApplies(row.status, report.status)) return null;
      const failed = report.status === "failed" || report.status === "undelivered";
      const meta: SmsMeta = { errorCode: report.errorCode };
      if (report.status === "delivered") meta.deliveredAt = new Date().toISOString();
      const error = failed ? report.error : null;
      await trx
        .updateTable("crm_messages")
        .set({
          status: report.status,
          error,
          meta: sql`meta || ${JSON.stringify(meta)}::jsonb` as never,
          updated_at: sql`now()` as never,
        })
        .where("id", "=", row.id)
        .execute();
      const change: SmsStatusChange = {
        id: row.id,
        clientId: row.client_id,
        to: row.to_address,
        status: report.status,
        error,
      };
      await changed(change, trx);
      return change;
    },

    onStatusChange(listener) {
      listeners.push(listener);
    },

    committed,
  };
}
