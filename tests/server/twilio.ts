/**
 * A loopback stand-in for Twilio's Messages API, following its published shapes
 * (docs/crm-api.md, "SMS"), for the SMS tests:
 * - `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded, HTTP Basic auth
 *   AccountSid:AuthToken: 201 with a Message resource as JSON; errors as Twilio's
 *   `{ code, message, more_info, status }` (20003 bad credentials, 21604 no To, 21603 no From,
 *   21602 no Body, 21211 a To that is not E.164, 21610 an unsubscribed number);
 * - scripted failures (`failNext`: 500, 429, …) to exercise retries;
 * - Twilio's side of the webhooks: form posts signed in `X-Twilio-Signature`, computed here on
 *   its own (not with the server's code), so a wrong algorithm on either side fails the tests.
 */
import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface TwilioRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  params: Record<string, string>;
}

export interface TwilioMessage {
  sid: string;
  to: string;
  from: string | null;
  messaging_service_sid: string | null;
  body: string;
  status: string;
  status_callback: string | null;
}

export interface LoopbackTwilio {
  url: string;
  accountSid: string;
  authToken: string;
  from: string;
  /** Every request to the Messages API, in order (refused ones too). */
  requests: TwilioRequest[];
  /** Messages taken. */
  messages: TwilioMessage[];
  /** The next `count` sends answer `status` (a Twilio error body) instead of taking the message. */
  failNext(count: number, status: number): void;
  /** Numbers that texted STOP to Twilio: a send to one answers 400 code 21610. */
  unsubscribed: Set<string>;
  /** The env that points the server at this stand-in. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

/** X-Twilio-Signature, as Twilio computes it: HMAC-SHA1 over URL + sorted name/value pairs, base64. */
export function signTwilio(authToken: string, url: string, params: Record<string, string>): string {
  const names = Object.keys(params).sort();
  const data = url + names.map((n) => n + params[n]).join("");
  return createHmac("sha1", authToken).update(data, "utf8").digest("base64");
}

const ERRORS: Record<number, { status: number; message: string }> = {
  20003: { status: 401, message: "Authenticate" },
  20429: { status: 429, message: "Too Many Requests" },
  20500: { status: 500, message: "An internal server error has occurred" },
  21602: { status: 400, message: "Message body is required." },
  21603: { status: 400, message: "A 'From' phone number is required." },
  21604: { status: 400, message: "A 'To' phone number is required." },
  21610: { status: 400, message: "Attempt to send to unsubscribed recipient" },
};

function errorBody(code: number, message?: string) {
  const known = ERRORS[code];
  return {
    status: known?.status ?? 400,
    body: {
      code,
      message: message ?? known?.message ?? "Error",
      more_info: `https://www.twilio.com/docs/errors/${code}`,
      status: known?.status ?? 400,
    },
  };
}

const sid = (prefix: string) => `${prefix}${randomBytes(16).toString("hex")}`;

export async function startLoopbackTwilio(): Promise<LoopbackTwilio> {
  const accountSid = sid("AC");
  const authToken = randomBytes(16).toString("hex");
  const from = "+15005550006";
  const requests: TwilioRequest[] = [];
  const messages: TwilioMessage[] = [];
  const failures: number[] = [];
  const unsubscribed = new Set<string>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
      const path = (req.url ?? "").split("?")[0];
      requests.push({
        method: req.method ?? "",
        path,
        authorization: req.headers.authorization,
        contentType: req.headers["content-type"],
        params,
      });
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      const fail = (code: number, message?: string) => {
        const e = errorBody(code, message);
        answer(e.status, e.body);
      };
      const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(path);
      if (!match || req.method !== "POST") return fail(20404, "The requested resource was not found");
      const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`;
      if (req.headers.authorization !== expected || match[1] !== accountSid) return fail(20003);
      if (!String(req.headers["content-type"]).startsWith("application/x-www-form-urlencoded"))
        return fail(20001, "Content-Type must be application/x-www-form-urlencoded");
      const failure = failures.shift();
      if (failure === 429) return fail(20429);
      if (failure && failure >= 500) {
        const e = errorBody(20500);
        return answer(failure, e.body);
      }
      if (failure) return answer(failure, { ...errorBody(20001, "Scripted failure").body, status: failure });
      if (!params.To) return fail(21604);
      if (!params.From && !params.MessagingServiceSid) return fail(21603);
      if (!params.Body) return fail(21602);
      if (!/^\+[1-9]\d{6,14}$/.test(params.To))
        return fail(21211, `The 'To' number ${params.To} is not a valid phone number.`);
      if (unsubscribed.has(params.To)) return fail(21610);
      const now = new Date().toUTCString().replace("GMT", "+0000");
      const message: TwilioMessage = {
        sid: sid("SM"),
        to: params.To,
        from: params.From ?? null,
        messaging_service_sid: params.MessagingServiceSid ?? null,
        body: params.Body,
        // Through a messaging service Twilio answers `accepted` (a sender is picked later).
        status: params.MessagingServiceSid ? "accepted" : "queued",
        status_callback: params.StatusCallback ?? null,
      };
      messages.push(message);
      answer(201, {
        account_sid: accountSid,
        api_version: "2010-04-01",
        body: message.body,
        date_created: now,
        date_sent: null,
        date_updated: now,
        direction: "outbound-api",
        error_code: null,
        error_message: null,
        from: message.from,
        messaging_service_sid: message.messaging_service_sid,
        num_media: "0",
        num_segments: "1",
        price: null,
        price_unit: "USD",
        sid: message.sid,
        status: message.status,
        subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${message.sid}/Media.json` },
        to: message.to,
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${message.sid}.json`,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    accountSid,
    authToken,
    from,
    requests,
    messages,
    unsubscribed,
    failNext(count, status) {
      for (let i = 0; i < count; i++) failures.push(status);
    },
    env: () => ({
      SMS_PROVIDER: "twilio",
      TWILIO_ACCOUNT_SID: accountSid,
      TWILIO_AUTH_TOKEN: authToken,
      TWILIO_FROM: from,
      TWILIO_API_URL: url,
      // The stand-in is on loopback, which outbound calls refuse unless allowed.
      OUTBOUND_ALLOW_PRIVATE: "true",
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Posts a webhook as Twilio does: form-encoded to `target` (the server's real address),
 * signed for `publicUrl` (the address Twilio was given, PUBLIC_URL + path).
 */
export async function postTwilioWebhook(
  target: string,
  publicUrl: string,
  authToken: string,
  params: Record<string, string>,
  options: { signature?: string } = {},
): Promise<{ status: number; body: string; contentType: string | null; replayed: boolean }> {
  const res = await fetch(target, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": options.signature ?? signTwilio(authToken, publicUrl, params),
      "user-agent": "TwilioProxy/1.1",
    },
    body: new URLSearchParams(params).toString(),
  });
  return {
    status: res.status,
    body: await res.text(),
    contentType: res.headers.get("content-type"),
    replayed: res.headers.get("idempotent-replayed") === "true",
  };
}

/** An inbound SMS's fields, as Twilio posts them to the messaging webhook. */
export function inboundSmsParams(
  accountSid: string,
  from: string,
  to: string,
  body: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  const messageSid = sid("SM");
  return {
    ToCountry: "US",
    ToState: "CA",
    SmsMessageSid: messageSid,
    NumMedia: "0",
    ToCity: "",
    FromZip: "",
    SmsSid: messageSid,
    FromState: "",
    SmsStatus: "received",
    FromCity: "",
    Body: body,
    FromCountry: "IN",
    To: to,
    MessagingServiceSid: "",
    ToZip: "",
    NumSegments: "1",
    MessageSid: messageSid,
    AccountSid: accountSid,
    From: from,
    ApiVersion: "2010-04-01",
    ...extra,
  };
}

/** A status callback's fields, as Twilio posts them to a message's StatusCallback. */
export function statusCallbackParams(
  accountSid: string,
  message: Pick<TwilioMessage, "sid" | "to" | "from">,
  status: string,
  errorCode?: string,
): Record<string, string> {
  return {
    AccountSid: accountSid,
    ApiVersion: "2010-04-01",
    From: message.from ?? "",
    MessageSid: message.sid,
    MessageStatus: status,
    SmsSid: message.sid,
    SmsStatus: status,
    To: message.to,
    ...(errorCode ? { ErrorCode: errorCode } : {}),
  };
}
