/**
 * The CRM's events as automation triggers (issue 17), called by the CRM's resource rules in the
 * write's transaction: a client created (by hand, by a CSV import, from a form's answer), an
 * opportunity moved to another stage, a client's reply (email or SMS), a CRM email's first open
 * and the first click of each of its links (crm/email-tracking.ts).
 */
import type { AppContext } from "../../context";
import type { Db, Run } from "../../runs";
import { AUTOMATION_KIND, dispatchTrigger, dispatchTriggers } from "./triggers";

type Row = Record<string, unknown>;

export function clientCreated(ctx: AppContext, db: Db, client: Row): Promise<void> {
  return clientsCreated(ctx, db, [client]);
}

/** Clients made at once (a batch of form answers): the automations are read once for all. */
export async function clientsCreated(ctx: AppContext, db: Db, clients: readonly Row[]): Promise<void> {
  await dispatchTriggers(
    ctx,
    db,
    clients.map((client) => ({
      kind: "client-created" as const,
      record: client,
      subject: { type: "client", id: String(client.id) },
    })),
  );
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

/** An email's open or a link's click, as its trigger's record reads it (`{{trigger.subject}}`). */
export interface EmailEngagement {
  clientId: string;
  /** The `crm_messages` row. */
  messageId: string;
  subject: string;
  /** A click: the link's address. */
  url?: string;
  at: Date;
}

/**
 * An email opened or a link in it clicked, once per event (the first open of a mail, the first
 * click of each link): the client's runs waiting for it on that mail (`email-opened:<message>`,
 * the mail they sent last) or on any of the client's mail go on, and the automations it triggers
 * start.
 */
export async function emailEngaged(
  ctx: AppContext,
  db: Db,
  kind: "email-opened" | "email-clicked",
  event: EmailEngagement,
): Promise<void> {
  const subject = { type: "client", id: event.clientId };
  const record = {
    clientId: event.clientId,
    messageId: event.messageId,
    subject: event.subject,
    ...(event.url ? { url: event.url } : {}),
    at: event.at.toISOString(),
  };
  for (const name of [waitedEvent(kind, event.messageId), kind]) {
    await ctx.runs.signal(db, { event: name, subject, kind: AUTOMATION_KIND, data: record });
  }
  await dispatchTrigger(ctx, db, { kind, record, subject });
}

/** The event a wait for an open or click of one mail awaits. */
export const waitedEvent = (kind: "email-opened" | "email-clicked", messageId: string) =>
  `${kind}:${messageId}`;
