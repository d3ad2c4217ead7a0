/**
 * A Twilio-compatible SMS provider (SMS_PROVIDER=twilio): Twilio itself, or any provider that
 * speaks its Messages API (TWILIO_API_URL). The shapes used are written down in docs/crm-api.md
 * ("SMS"):
 * - send: `POST {api}/2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded `To`, `From`
 *   or `MessagingServiceSid`, `Body`, `StatusCallback`; HTTP Basic auth AccountSid:AuthToken;
 *   201 with the Message as JSON (`sid`, `status`, …), or an error as JSON (`code`, `message`,
 *   `more_info`, `status`);
 * - webhooks (inbound SMS, status callbacks): form posts signed in `X-Twilio-Signature` =
 *   base64(HMAC-SHA1(AuthToken, full URL + each POST parameter's name and value, sorted by name)).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { SmsStatus } from "../../schemas/sms";
import type { SmsConfig } from "../config";
import { OutboundRefused, outboundCall } from "../http/outbound";
import type { SignedRequest, SmsProvider, SmsSendResult } from "./contract";

type TwilioConfig = Extract<SmsConfig, { kind: "twilio" }>;

/**
 * The signature Twilio puts in `X-Twilio-Signature` for a request to `url` with these POST
 * parameters (a repeated parameter: each value, in order of value).
 *
 * @example
 * twilioSignature("12345", "https://mycompany.com/myapp.php?foo=1&bar=2", { CallSid: "CA1", To: "+1800" });
 */
export function twilioSignature(
  authToken: string,
  url: string,
  params: Readonly<Record<string, string | readonly string[]>>,
): string {
  let data = url;
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    const values = typeof value === "string" ? [value] : [...value].sort();
    for (const v of values) data += key + v;
  }
  return createHmac("sha1", authToken).update(Buffer.from(data, "utf8")).digest("base64");
}

/**
 * Twilio's message statuses in ours. Twilio's own queue (`accepted`, `queued`, `scheduled`,
 * `sending`) is "sent" for us: the message left our hands. `read` (WhatsApp, RCS) was delivered.
 */
export function statusFromTwilio(status: string | undefined): SmsStatus | null {
  switch (status) {
    case "accepted":
    case "queued":
    case "scheduled":
    case "sending":
    case "sent":
      return "sent";
    case "delivered":
    case "read":
      return "delivered";
    case "undelivered":
      return "undelivered";
    case "failed":
    case "canceled":
      return "failed";
    default:
      return null;
  }
}

/** Twilio's commonest delivery error codes, in words (www.twilio.com/docs/api/errors). */
const DELIVERY_ERRORS: Readonly<Record<string, string>> = {
  "21610": "The number has opted out of messages from this sender (texted STOP)",
  "30003": "The phone is switched off or out of reach",
  "30004": "The message was blocked by the phone's owner or carrier",
  "30005": "The number is unknown to its carrier or no longer in service",
  "30006": "The number is a landline or its carrier cannot take SMS",
  "30007": "The carrier filtered the message",
  "30008": "The carrier could not deliver the message",
};

/** A delivery report's error code as a person reads it. */
export function deliveryErrorWords(code: string | null): string {
  if (!code) return "The carrier could not deliver the message";
  return `${DELIVERY_ERRORS[code] ?? "The carrier could not deliver the message"} (error ${code})`;
}

/** Twilio's error body, when the answer is one. */
function twilioError(body: string): { code: string | null; message: string | null } {
  try {
    const parsed = JSON.parse(body) as { code?: unknown; message?: unknown };
    return {
      code: parsed.code === undefined || parsed.code === null ? null : String(parsed.code),
      message: typeof parsed.message === "string" ? parsed.message : null,
    };
  } catch {
    return { code: null, message: null };
  }
}

const first = (v: string | readonly string[] | undefined): string | undefined =>
  typeof v === "string" ? v : v?.[0];

/**
 * The message's id: MessageSid, else SmsSid (an empty or blank one is none). It keys the
 * callback's record of events, so a blank id would make every such callback one event.
 */
const sidOf = (params: Record<string, string | readonly string[] | undefined>): string | undefined =>
  first(params.MessageSid)?.trim() || first(params.SmsSid)?.trim() || undefined;

export function createTwilioProvider(config: TwilioConfig, options: { allowPrivate: boolean }): SmsProvider {
  const endpoint = `${config.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`;
  const auth = `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString("base64")}`;

  return {
    name: "twilio",
    sends: true,

    async send(message): Promise<SmsSendResult> {
      const form = new URLSearchParams({ To: message.to, Body: message.body });
      if (config.messagingServiceSid) form.set("MessagingServiceSid", config.messagingServiceSid);
      if (config.from) form.set("From", config.from);
      if (message.statusCallback) form.set("StatusCallback", message.statusCallback);
      let answer: Awaited<ReturnType<typeof outboundCall>>;
      try {
        answer = await outboundCall(
          endpoint,
          {
            method: "POST",
            headers: {
              authorization: auth,
              accept: "application/json",
              "content-type": "application/x-www-form-urlencoded",
            },
            body: form.toString(),
          },
          { allowPrivate: options.allowPrivate, timeoutMs: 15_000 },
        );
      } catch (error) {
        const words = error instanceof Error ? error.message : String(error);
        // A refused address is the configuration's fault: trying again changes nothing.
        return { ok: false, retry: !(error instanceof OutboundRefused), error: words, errorCode: null };
      }
      if (answer.status >= 200 && answer.status < 300) {
        let parsed: { sid?: unknown; status?: unknown; from?: unknown };
        try {
          parsed = JSON.parse(answer.body);
        } catch {
          parsed = {};
        }
        if (typeof parsed.sid !== "string" || !parsed.sid) {
          // It may have been taken: sending again could text the client twice.
          return {
            ok: false,
            retry: false,
            error: `The provider answered ${answer.status} without a message sid`,
            errorCode: null,
          };
        }
        return {
          ok: true,
          providerId: parsed.sid,
          status: statusFromTwilio(typeof parsed.status === "string" ? parsed.status : undefined) ?? "sent",
          from: typeof parsed.from === "string" ? parsed.from : (config.from ?? null),
        };
      }
      const { code, message: words } = twilioError(answer.body);
      return {
        ok: false,
        // Twilio's 429 (too many requests) and its 5xx pass; every other 4xx is a verdict on this message.
        retry: answer.status === 429 || answer.status >= 500,
        error: words ?? `The provider answered ${answer.status}`,
        errorCode: code,
      };
    },

    verify({ url, params, signature }: SignedRequest): boolean {
      if (!signature) return false;
      const expected = Buffer.from(twilioSignature(config.authToken, url, params));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },

    inbound(params) {
      const providerId = sidOf(params);
      const from = first(params.From);
      if (!providerId || !from) return null;
      // Twilio's Advanced Opt-Out names the keyword it matched; the body is read as well.
      const optOutType = first(params.OptOutType)?.toUpperCase();
      return {
        providerId,
        from,
        to: first(params.To) ?? null,
        body: first(params.Body) ?? "",
        keyword: optOutType === "STOP" ? "opt_out" : optOutType === "START" ? "opt_in" : null,
      };
    },

    statusReport(params) {
      const providerId = sidOf(params);
      const status = statusFromTwilio(first(params.MessageStatus) ?? first(params.SmsStatus));
      if (!providerId || !status) return null;
      const errorCode = first(params.ErrorCode) || null;
      const failed = status === "failed" || status === "undelivered";
      return { providerId, status, errorCode, error: failed ? deliveryErrorWords(errorCode) : null };
    },
  };
}
