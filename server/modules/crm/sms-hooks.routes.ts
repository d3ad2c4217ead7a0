/**
 * The SMS provider's webhooks (public, no sign-in; docs/crm-api.md, "SMS"):
 * - `POST /crm/hooks/sms/inbound`: an SMS a client sent us; answered with an empty TwiML
 *   `<Response/>` (Twilio then sends no reply of its own);
 * - `POST /crm/hooks/sms/status`: a delivery report of an SMS we sent.
 *
 * Both are form posts signed by the provider (Twilio: `X-Twilio-Signature`), checked against the
 * URL the provider was given, PUBLIC_URL + the path (never the request's Host, which a proxy or
 * a forger chooses): a bad or missing signature is a 403 and changes nothing. Without a provider
 * (the SMS outbox) nothing can sign, so both answer 404.
 *
 * The provider retries a callback it heard no answer to: each is one event for a week
 * (server/http/inbound-events.ts), an inbound SMS by its MessageSid, a report by its MessageSid
 * and status; a retry is answered as the first was and does nothing.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { markScopePublic } from "../../auth/access";
import type { AppContext } from "../../context";
import { badRequest, forbidden, notFound } from "../../http/errors";
import { createInboundEvents, sendInbound } from "../../http/inbound-events";
import { SMS_HOOK_PATHS } from "../../sms";
import { receiveSms } from "./sms-inbound";

/** Largest webhook body (Twilio's inbound SMS with all its fields is a few KB). */
const MAX_HOOK_BYTES = 64 * 1024;
/** TwiML that asks Twilio to do nothing more (no auto-reply). */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
const TWIML_TYPE = "text/xml; charset=utf-8";

type Params = Record<string, string | string[]>;

/** The form-encoded body as fields; a repeated name becomes a list. */
function parseForm(text: string): Params {
  const out: Params = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const had = out[key];
    out[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

const hookSchema = (summary: string) => ({
  tags: ["crm sms"],
  summary,
  description:
    "Form-encoded (application/x-www-form-urlencoded) as the provider posts it, signed in X-Twilio-Signature.",
  headers: {
    type: "object",
    properties: { "x-twilio-signature": { type: "string", maxLength: 200 } },
  },
});

export async function smsHookRoutes(app: FastifyInstance, ctx: AppContext) {
  const events = createInboundEvents(ctx.db);
  /** The request's fields once its signature is checked (404 without a provider, 403 when bad). */
  function verified(request: FastifyRequest): Params {
    const provider = ctx.sms.provider;
    if (!provider.sends) throw notFound("SMS webhooks are off: no SMS provider is configured (SMS_PROVIDER)");
    const params = (request.body ?? {}) as Params;
    if (typeof params !== "object" || Array.isArray(params))
      throw badRequest("Send the provider's fields form-encoded");
    const header = request.headers["x-twilio-signature"];
    const ok = provider.verify({
      url: `${ctx.config.publicUrl}${request.url}`,
      params,
      signature: typeof header === "string" ? header : undefined,
    });
    if (!ok) throw forbidden("The request's signature does not match: it did not come from the SMS provider");
    return params;
  }

  await app.register(async (scope) => {
    markScopePublic(scope);
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: MAX_HOOK_BYTES },
      (_request, body, done) => done(null, parseForm(body as string)),
    );

    scope.post(
      SMS_HOOK_PATHS.inbound,
      {
        bodyLimit: MAX_HOOK_BYTES,
        config: { secrets: { headers: ["x-twilio-signature"] } },
        schema: hookSchema("An SMS sent to our number (the provider's inbound webhook)"),
      },
      async (request, reply) => {
        const inbound = ctx.sms.provider.inbound(verified(request));
        if (!inbound) throw badRequest("This is not an inbound SMS: MessageSid and From are required");
        const outcome = await events.once("sms:inbound", inbound.providerId, async () => {
          await receiveSms(ctx, inbound);
          return { status: 200, type: TWIML_TYPE, body: EMPTY_TWIML };
        });
        return sendInbound(reply, outcome);
      },
    );

    scope.post(
      SMS_HOOK_PATHS.status,
      {
        bodyLimit: MAX_HOOK_BYTES,
        config: { secrets: { headers: ["x-twilio-signature"] } },
        schema: hookSchema("A delivery report of an SMS we sent (status callback)"),
      },
      async (request, reply) => {
        const report = ctx.sms.provider.statusReport(verified(request));
        if (!report)
          throw badRequest("This is not a status report: MessageSid and MessageStatus are required");
        // One report per message and status: the provider's retry of it does nothing.
        const outcome = await events.once("sms:status", `${report.providerId}:${report.status}`, async () => {
          const change = await ctx.db.transaction().execute((trx) => ctx.sms.applyReport(trx, report));
          if (change) ctx.sms.committed(change);
          return { status: 204, body: null };
        });
        return sendInbound(reply, outcome);
      },
    );
  });
}
