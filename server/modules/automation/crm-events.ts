/**
 * The CRM's events as automation triggers (issue 17), called by the CRM's resource rules in the
 * write's transaction: a client created (by hand, by a CSV import, from a form's answer), an
 * opportunity moved to another stage, a client's reply (email or SMS).
 */
import type { AppContext } from "../../context";
import type { Db, Run } from "../../runs";
import { AUTOMATION_KIND, dispatchTrigger } from "./triggers";

type Row = Record<string, unknown>;

export async function clientCreated(ctx: AppContext, db: Db, client: Row): Promise<void> {
  await dispatchTrigger(ctx, db, {
    kind: "client-created",
    record: client,
    subject: { type: "client", id: String(client.id) },
  });
}

export async function opportunityMoved(
  ctx: AppContext,
  db: Db,
  opportunity: Row,
  fromStage: unknown,
  /** The run whose step moved it. */
  parent: Run | null = null,
) {
  const subject = { type: "client", id: String(opportunity.client_id) };
  const record = { ...opportunity, fromStage };
  await ctx.runs.signal(db, {
    event: "opportunity-stage-changed",
    subject,
    kind: AUTOMATION_KIND,
    data: record,
  });
  await dispatchTrigger(ctx, db, { kind: "opportunity-stage-changed", record, subject, parent });
}

/** A client's reply resumes their runs waiting for `email-replied` / `sms-replied`. */
export async function clientReplied(ctx: AppContext, db: Db, clientId: string, channel: "email" | "sms") {
  await ctx.runs.signal(db, {
    event: `${channel}-replied`,
    subject: { type: "client", id: clientId },
    kind: AUTOMATION_KIND,
  });
}
