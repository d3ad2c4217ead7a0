/**
 * SMS (issue 16): the provider registry (provider.ts: stored outbox by default, a
 * Twilio-compatible API by configuration) and the service that queues and sends (sms.ts).
 *
 * @example
 * await db.transaction().execute(async (trx) => {
 *   await ctx.sms.queue([{ clientId, to: "+919876543210", body: "Your order is ready" }], trx);
 * });
 */
import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Config } from "../config";
import type { Database } from "../db";
import type { JobQueue } from "../jobs";
import { createSmsProvider } from "./provider";
import { createSmsService, SMS_HOOK_PATHS, type SmsService } from "./sms";

export type { InboundSms, SmsProvider, SmsStatusReport } from "./provider";
export {
  type OutgoingSms,
  SEND_ATTEMPTS,
  SEND_JOB,
  SMS_HOOK_PATHS,
  type SmsService,
  type SmsStatusChange,
  type SmsStatusListener,
  type StoredSms,
} from "./sms";

/** The SMS service the configuration asks for (registers its send job on `jobs`). */
export function createSms(
  config: Config,
  deps: { db: Kysely<Database>; jobs: JobQueue; log: FastifyBaseLogger },
): SmsService {
  const provider = createSmsProvider(config);
  const sms = config.sms;
  return createSmsService({
    ...deps,
    provider,
    statusCallbackUrl: provider.sends ? `${config.publicUrl}${SMS_HOOK_PATHS.status}` : null,
    from: sms.kind === "twilio" ? (sms.from ?? sms.messagingServiceSid ?? "") : "",
  });
}
