/**
 * The CRM's SMS calls (docs/crm-api.md, "SMS") over the CRM service base: text a client, and
 * where SMS go (a provider, or the SMS outbox). The outbox list goes through Refine's data
 * provider (`sms/outbox` on the `crm` base).
 */
import { createServiceClient } from "../../../providers/http";
import type { SmsMessage, SmsSettings } from "../../../schemas/sms";

const client = createServiceClient("crm");

/** The outbox as a Refine resource of the `crm` data provider: `GET /crm/sms/outbox`. */
export const SMS_OUTBOX_RESOURCE = "sms/outbox";

export const smsKeys = { settings: ["crm", "sms", "settings"] as const };

export async function getSmsSettings(): Promise<SmsSettings> {
  return (await client.get<SmsSettings>("/sms/settings")).data;
}

export async function sendSms(input: {
  clientId: string;
  body: string;
  templateId?: string | null;
}): Promise<SmsMessage> {
  return (await client.post<SmsMessage>("/messages/sms", input, { idempotent: true })).data;
}
