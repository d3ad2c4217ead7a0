/**
 * Sending deliveries (the signed-webhook sender's job, webhooks.ts queues them). A job carries
 * one delivery (`{ deliveryId }`: an event of its own, a job queued before batches) or many
 * (`{ deliveryIds }`: a batch of form answers' deliveries, queued together): each is one signed
 * POST to its hook's URL, a few at a time, and the job's outcome is written for all of them in
 * one statement, so a hundred answers' deliveries cost a few statements, not four a delivery.
 *
 * Attempts are the job's: when any delivery of the job fails, the job fails and the queue runs
 * it again after its backoff, when only the deliveries not yet delivered are sent again (each
 * row's `attempts` is the job's attempt). On the last attempt the ones still failing are marked
 * failed. As before batches, a delivery is sent at least once: one whose answer came but whose
 * row was not written yet (the process stopped) is sent again, and receivers tell by
 * `X-Atelier-Delivery`.
 */
import { createHmac } from "node:crypto";
import { sql } from "kysely";
import type { CoreContext } from "../core-context";
import { outboundCall } from "../http/outbound";
import { eachLimit } from "../parallel";

export const DELIVER_JOB = "webhook.deliver";
export const DELIVERY_ATTEMPTS = 6;
/** Deliveries one job carries at most: a batch's deliveries are split into jobs of this many. */
export const DELIVERIES_PER_JOB = 25;
/** Calls of one job in flight at once. */
const CALLS_AT_ONCE = 4;

export type DeliverPayload = { deliveryId: string } | { deliveryIds: string[] };

/** The deliveries a job's payload names. */
export const deliveriesOf = (payload: DeliverPayload): string[] =>
  "deliveryIds" in payload ? payload.deliveryIds : [payload.deliveryId];

/** The signature header's value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signature(secret: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return `t=${timestamp},v1=${mac}`;
}

type Deps = Pick<CoreContext, "config" | "db">;

interface Outcome {
  id: string;
  status: number | null;
  error: string | null;
}

/** One attempt at each delivery of `ids` not delivered yet; throws when any failed (see the top). */
export async function deliver(deps: Deps, ids: readonly string[], attempt: number): Promise<void> {
  if (!ids.length) return;
  const due = await deps.db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhooks as w", "w.id", "d.webhook_id")
    .select(["d.id", "d.event", "d.payload", "w.url", "w.secret"])
    .where("d.id", "in", [...ids])
    .where("d.state", "<>", "delivered")
    .orderBy("d.id")
    .execute();
  const outcomes: Outcome[] = [];
  await eachLimit(due, CALLS_AT_ONCE, async (delivery) => {
    outcomes.push({ id: delivery.id, ...(await call(deps, delivery)) });
  });
  if (!outcomes.length) return;
  const last = attempt >= DELIVERY_ATTEMPTS;
  await record(deps, outcomes, attempt, last);
  const failed = outcomes.filter((o) => o.error);
  if (!failed.length || last) return;
  const first = failed[0].error as string;
  throw new Error(
    outcomes.length === 1
      ? first
      : `${failed.length} of ${outcomes.length} deliveries failed; the first: ${first}`,
  );
}

async function call(
  deps: Deps,
  delivery: { id: string; event: string; payload: unknown; url: string; secret: string },
): Promise<Omit<Outcome, "id">> {
  const body = typeof delivery.payload === "string" ? delivery.payload : JSON.stringify(delivery.payload);
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const answer = await outboundCall(
      delivery.url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-atelier-event": delivery.event,
          "x-atelier-delivery": delivery.id,
          "x-atelier-signature": signature(delivery.secret, timestamp, body),
        },
        body,
      },
      { allowPrivate: deps.config.outboundAllowPrivate, timeoutMs: 10_000 },
    );
    const ok = answer.status >= 200 && answer.status < 300;
    return { status: answer.status, error: ok ? null : `The endpoint answered ${answer.status}` };
  } catch (e) {
    return { status: null, error: (e as Error).message || "The call failed" };
  }
}

/** Writes an attempt's outcomes, one statement for all. */
async function record(deps: Deps, outcomes: Outcome[], attempt: number, last: boolean): Promise<void> {
  const ids = outcomes.map((o) => o.id);
  const statuses = outcomes.map((o) => o.status);
  const errors = outcomes.map((o) => o.error);
  const unsent = last ? "failed" : "pending";
  await sql`update webhook_deliveries as d
    set attempts = ${attempt}, response_status = u.status, error = u.error,
      state = case when u.error is null then 'delivered' else ${unsent} end,
      delivered_at = case when u.error is null then now() else d.delivered_at end
    from unnest(cast(${ids} as uuid[]), cast(${statuses} as int[]), cast(${errors} as text[]))
      as u(id, status, error)
    where d.id = u.id`.execute(deps.db);
}
