/**
 * What each step of an automation does, inside the run engine's step transaction
 * (docs/runs.md): every write goes through `trx`, so the mail queued, the SMS stored, the record
 * written and the step's record commit together or not at all. Texts have their variables filled
 * (variables.ts). The HTTP request is the one step with outside work: it is made in `prepare`,
 * before the transaction, with the step's idempotency key as `Idempotency-Key`, and its response
 * (status, headers, body: JSON when it parses) is the step's output for later steps
 * (http-request.ts). Record actions are in record-actions.ts.
 *
 * A step that cannot succeed however often it is tried (no address, an HTTP 4xx, a record that
 * is gone) throws PermanentStepError: the run fails at once. Anything else is tried again with
 * the kind's backoff.
 */
import type { Transaction } from "kysely";
import type { ActionStep, ConditionStep, DelayStep, WaitForEventStep } from "../../../schemas/automation";
import { matches } from "../../../schemas/conditions";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import { delayEnd, PermanentStepError, untilInstant } from "../../runs";
import { messageSender, queueClientEmail } from "../crm/client-email";
import { waitedEvent } from "./crm-events";
import { httpRequestExecutor } from "./http-request";
import { recordExecutors } from "./record-actions";
import { type AutomationRun, type AutomationExecutor as Executor, forgetClients, scopeOf } from "./run-scope";
import { conditionRecord, fillVariables, variableValues } from "./variables";

/** One email address, nothing around it (no list, no display name). */
const ONE_ADDRESS = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/;

type Trx = Transaction<Database>;

/** Who the automation's messages are from: its owner, else its author. */
async function ownerOf(db: Trx, run: AutomationRun): Promise<string | null> {
  const automation = await db
    .selectFrom("automations")
    .select(["owner_id", "created_by"])
    .where("id", "=", run.ownerKey)
    .executeTakeFirst();
  return automation?.owner_id ?? automation?.created_by ?? null;
}

type EngagementEvent = "email-opened" | "email-clicked";

/** The CRM email the run's latest send_email step sent its client (its timeline entry names it). */
async function lastEmailOf(db: Trx, run: AutomationRun): Promise<string | null> {
  if (run.subject?.type !== "client") return null;
  const sent = await db
    .selectFrom("crm_timeline")
    .select("ref_id")
    .where("client_id", "=", run.subject.id)
    .where("kind", "=", "email_out")
    .where("dedupe_key", "like", `automation:${run.id}:%`)
    .orderBy("occurred_at", "desc")
    .orderBy("id", "desc")
    .executeTakeFirst();
  return sent?.ref_id ?? null;
}

export function automationExecutors(ctx: AppContext): Record<string, Executor> {
  const condition: Executor = async ({ trx, run, step: { step } }) => {
    const { condition: tree } = step as ConditionStep;
    const scope = await scopeOf(trx, run);
    const yes = matches(conditionRecord(scope), [tree]);
    return { input: { condition: tree }, output: { branch: yes ? "yes" : "no" } };
  };

  const delay: Executor = ({ step: { step } }) => {
    const d = step as DelayStep;
    const nextAt =
      d.mode === "until"
        ? untilInstant(d.until ?? "", d.timeZone ?? "UTC")
        : delayEnd(new Date(), { amount: d.amount ?? 0, unit: d.unit ?? "minutes" }, d.timeZone ?? "UTC");
    return { input: { ...d }, output: { until: nextAt.toISOString() }, nextAt };
  };

  const wait: Executor = async ({ trx, run, step: { step } }) => {
    const w = step as WaitForEventStep;
    if (!w.event) throw new PermanentStepError("The step names no event to wait for");
    const timeoutAt = delayEnd(new Date(), {
      amount: w.timeout.amount ?? 1,
      unit: w.timeout.unit ?? "days",
    });
    // "The email is opened": the email this run sent last, when it sent one; else any of the
    // client's CRM emails (crm-events.ts signals both).
    const messageId =
      w.event === "email-opened" || w.event === "email-clicked" ? await lastEmailOf(trx, run) : null;
    return {
      input: { event: w.event, timeoutAt: timeoutAt.toISOString(), ...(messageId ? { messageId } : {}) },
      awaitEvent: {
        event: messageId ? waitedEvent(w.event as EngagementEvent, messageId) : w.event,
        timeoutAt,
      },
    };
  };

  const send_email: Executor = async ({ trx, run, key, step: { step } }) => {
    const { inputs } = step as ActionStep;
    const scope = await scopeOf(trx, run);
    const values = variableValues(scope);
    const to = fillVariables(inputs.to ?? "", values).trim();
    const subject = fillVariables(inputs.subject ?? "", values)
      .replace(/\s+/g, " ")
      .trim();
    const text = fillVariables(inputs.body ?? "", values).trim();
    if (!to) throw new PermanentStepError("The email has no address once its variables are filled");
    // One address: a variable filled from outside (a webhook's body) must not choose a list of them.
    if (!ONE_ADDRESS.test(to))
      throw new PermanentStepError(
        `The email's To must be one email address once its variables are filled, not "${to.slice(0, 120)}"`,
      );
    if (!subject || !text)
      throw new PermanentStepError("The email's subject or message is empty once filled");
    const client = scope.client;
    const dedupeKey = `automation:${run.id}:${key}`;
    // To the run's client: sent as every CRM email (a conversation, the client's timeline), from
    // the automation's owner, and only with their agreement (as a sequence's email).
    if (client && typeof client.email === "string" && client.email.toLowerCase() === to.toLowerCase()) {
      if (!client.consent_email)
        return {
          input: { to, subject, body: text },
          output: { skipped: 'The client has not agreed to receive email ("Agrees to email" is off)' },
        };
      const queued = await queueClientEmail(ctx, trx, {
        client: { id: String(client.id), email: to },
        sender: await messageSender(trx, await ownerOf(trx, run)),
        subject,
        text,
        timelineData: { automationId: run.ownerKey, step: key },
        dedupeKey,
      });
      return {
        input: { to, subject, body: text },
        output: { sent: "email", to, messageId: queued?.id ?? null },
      };
    }
    const [outboxId] = await ctx.mailer.queue([{ to, subject, text }], trx);
    return { input: { to, subject, body: text }, output: { sent: "email", to, outboxId } };
  };

  const send_sms: Executor = async ({ trx, run, step: { step } }) => {
    const { inputs } = step as ActionStep;
    const scope = await scopeOf(trx, run);
    const values = variableValues(scope);
    const to = fillVariables(inputs.to ?? "", values).replace(/[\s()-]/g, "");
    const body = fillVariables(inputs.body ?? "", values).trim();
    if (!scope.client) throw new PermanentStepError("An SMS goes to the run's client: this run has none");
    if (!to || !body)
      throw new PermanentStepError("The SMS has no number or no text once its variables are filled");
    // Skipped, not failed: the client's choice is no fault of the automation's.
    if (scope.client.sms_opted_out_at)
      return { input: { to, body }, output: { skipped: "The client opted out of SMS (texted STOP)" } };
    if (!scope.client.consent_sms)
      return {
        input: { to, body },
        output: { skipped: 'The client has not agreed to receive SMS ("Agrees to SMS" is off)' },
      };
    const [queued] = await ctx.sms.queue(
      [{ clientId: String(scope.client.id), to, body, templateId: inputs.templateId ?? null }],
      trx,
    );
    return { input: { to, body }, output: { sent: "sms", to, smsId: queued.id, status: queued.status } };
  };

  // Steps that write the run's client keep run-scope.ts's reads of it true (or write none);
  // the others may write it through code of other modules: its next read goes to the database.
  const forgetting = (executor: Executor): Executor => {
    const { run, prepare } =
      typeof executor === "function" ? { run: executor, prepare: undefined } : executor;
    return {
      ...(prepare ? { prepare } : {}),
      async run(context) {
        try {
          return await run(context);
        } finally {
          forgetClients(context.trx);
        }
      },
    };
  };
  const { enrol_in_sequence, ...records } = recordExecutors(ctx);
  return {
    condition,
    delay,
    wait,
    ...records,
    send_email: forgetting(send_email),
    send_sms: forgetting(send_sms),
    enrol_in_sequence: forgetting(enrol_in_sequence),
    http_request: forgetting(httpRequestExecutor(ctx)),
  };
}
