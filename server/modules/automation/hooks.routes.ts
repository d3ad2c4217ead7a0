/**
 * The incoming webhook trigger (public, no sign-in; docs/automation-api.md, "Webhook"):
 * `POST /hooks/automations/{id}/{secret}` with a JSON object starts a run of the automation,
 * the body being the trigger's record (`{{trigger.<field>}}`). The secret is random per
 * automation and compared in constant time; a wrong one is a 404, as an unknown automation is,
 * so the answer tells nothing about which automations exist. A call with an `Idempotency-Key`
 * header is one event for a week (server/http/inbound-events.ts): a retry answers the first
 * call's answer and starts no run.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { UUID } from "../../../schemas/uuid";
import { markScopePublic } from "../../auth/access";
import type { AppContext } from "../../context";
import { conflict, notFound } from "../../http/errors";
import { idempotencyKeyOf } from "../../http/idempotency";
import { createInboundEvents, jsonAnswer, sendInbound } from "../../http/inbound-events";
import { dispatchTrigger } from "./triggers";

/** Largest webhook body. */
const MAX_HOOK_BYTES = 256 * 1024;

/** Equal secrets, in a time that does not depend on where they differ (hashes: equal lengths). */
export function sameSecret(given: string, stored: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(stored));
}

export async function automationHookRoutes(app: FastifyInstance, ctx: AppContext) {
  const events = createInboundEvents(ctx.db);
  await app.register(async (scope) => {
    markScopePublic(scope);
    scope.post<{ Params: { id: string; secret: string }; Body: unknown }>(
      "/hooks/automations/:id/:secret",
      {
        bodyLimit: MAX_HOOK_BYTES,
        config: { secrets: { params: ["secret"] } },
        schema: {
          tags: ["automations"],
          summary: "Incoming webhook: start a run with the posted JSON object as its record",
          params: {
            type: "object",
            required: ["id", "secret"],
            properties: { id: { type: "string", maxLength: 64 }, secret: { type: "string", maxLength: 256 } },
          },
        },
      },
      async (request, reply) => {
        const { id, secret } = request.params;
        const unknown = () => notFound("No automation listens at this address");
        if (!UUID.test(id)) throw unknown();
        const body = request.body ?? {};
        const record =
          typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : { body };
        const key = idempotencyKeyOf(request);
        // The secret before the record of events: a caller without it must not hear the answer
        // kept for someone's Idempotency-Key (a run's id, and that the automation exists).
        const listening = await ctx.db
          .selectFrom("automation_definitions")
          .select("webhook_secret")
          .where("automation_id", "=", id)
          .executeTakeFirst();
        if (!listening || !sameSecret(secret, listening.webhook_secret)) throw unknown();
        const start = async () => {
          const run = await ctx.db.transaction().execute(async (trx) => {
            const row = await trx
              .selectFrom("automation_definitions as d")
              .innerJoin("automations as a", "a.id", "d.automation_id")
              .select(["d.webhook_secret", "a.status", "a.trigger_kind"])
              .where("d.automation_id", "=", id)
              .executeTakeFirst();
            if (!row || !sameSecret(secret, row.webhook_secret)) throw unknown();
            if (row.trigger_kind !== "webhook" || row.status !== "active")
              throw conflict("This automation is not active with an incoming webhook trigger");
            const [started] = await dispatchTrigger(ctx, trx, { kind: "webhook", record, automationId: id });
            return started ?? null;
          });
          return jsonAnswer(202, { runId: run?.id ?? null });
        };
        // With an Idempotency-Key, a call is one event for a week: its retry answers the first
        // run's id and starts none. A refusal (thrown) keeps no record.
        return sendInbound(
          reply,
          key === null
            ? { answer: await start(), replayed: false }
            : await events.once(`automation:${id}`, key, start),
        );
      },
    );
  });
}
