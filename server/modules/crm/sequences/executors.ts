/**
 * What each step of a sequence does, inside the run engine's step transaction (docs/runs.md):
 * every write goes through `trx`, so the mail or SMS queued, the task made and the timeline
 * entry commit with the step's record, or not at all, and a restart never repeats them.
 *
 * - email: the step's subject and text with their merge fields filled, sent as the CRM sends
 *   every email (`queueClientEmail`): a conversation of its own with its reply address, a
 *   message, the mail in the outbox; a reply comes back to the client's page and ends the run;
 * - sms: the text, queued to the SMS service (`ctx.sms`: the provider, else the SMS outbox);
 * - task: a task for the client's owner or a chosen user, due some days later;
 * - wait: nothing but the next step's time.
 *
 * A step the client cannot receive (no address, no consent, opted out before enrolling) is
 * skipped with the reason on their timeline; the run goes on. While the sequence is paused an
 * action step is held: it awaits the resume event and then runs again as `<key>@<n>`.
 */
import type { Transaction } from "kysely";
import type {
  EmailStep,
  SequenceStep,
  SmsStep,
  TaskStep,
  WaitStep,
} from "../../../../schemas/crm-sequence-steps";
import { stepLabel } from "../../../../schemas/crm-sequence-steps";
import { renderMergeFields } from "../../../../schemas/merge-fields";
import type { AppContext } from "../../../context";
import type { Database } from "../../../db";
import { parsedJson } from "../../../db/json";
import { delayEnd, PermanentStepError, type Run, type StepExecutor, type StepOutcome } from "../../../runs";
import { messageSender, queueClientEmail } from "../client-email";
import { messageMergeValues } from "../merge-values";
import { smsOutTitle } from "../sms.service";
import { addTimeline } from "../timeline";
import { HOLD_RECHECK_MS, RESUMED_EVENT, type SequenceContext } from "./kind-names";
import { queueLive } from "./live";

type Trx = Transaction<Database>;
type Executor = StepExecutor<SequenceStep, SequenceContext>;

/** How much of a message its timeline entry shows. */
const TIMELINE_BODY_MAX = 2000;

async function load(trx: Trx, run: Run<SequenceContext>) {
  const sequence = await trx
    .selectFrom("crm_sequences")
    .select(["id", "name", "status", "created_by"])
    .where("id", "=", run.ownerKey)
    .executeTakeFirst();
  const client = await trx
    .selectFrom("clients")
    .select([
      "id",
      "name",
      "email",
      "phone",
      "company",
      "job_title",
      "custom",
      "owner_id",
      "consent_email",
      "consent_sms",
      "sms_opted_out_at",
    ])
    .where("id", "=", run.subject?.id ?? "")
    .executeTakeFirst();
  // The exit check before the step saw both; only a delete between the two reads gets here.
  if (!sequence || !client) throw new PermanentStepError("The sequence or the client was deleted");
  return {
    sequence,
    client: { ...client, custom: parsedJson<Record<string, unknown>>(client.custom ?? {}) },
  };
}
type Loaded = Awaited<ReturnType<typeof load>>;

/** Who a message is from (its `{{user.…}}` fields): the client's owner, else who enrolled them. */
const senderOf = (run: Run<SequenceContext>, { client, sequence }: Loaded) =>
  client.owner_id ?? run.context?.enrolledBy ?? sequence.created_by;

/** Fills merge fields; one the values do not know (a custom field removed since) reads empty. */
async function renderer(ctx: AppContext, trx: Trx, run: Run<SequenceContext>, loaded: Loaded) {
  const values: Record<string, string | null> = {
    ...(await messageMergeValues(ctx, loaded.client, senderOf(run, loaded), trx)),
  };
  return (template: string) => {
    const filled = renderMergeFields(template, values);
    return filled.replace(
      /\{\{\s*[A-Za-z_][\w.]*\s*(?:\|([^{}]*))?\}\}/g,
      (_m, fallback?: string) => fallback?.trim() ?? "",
    );
  };
}

/** The step waits for its sequence to be active again (docs/crm-api.md, "Pausing"). */
const hold = (): StepOutcome => ({
  awaitEvent: { event: RESUMED_EVENT, timeoutAt: new Date(Date.now() + HOLD_RECHECK_MS) },
  input: { held: "The sequence is paused" },
});

const cut = (text: string) =>
  text.length > TIMELINE_BODY_MAX ? `${text.slice(0, TIMELINE_BODY_MAX - 3)}...` : text;

const entryData = (loaded: Loaded, step: SequenceStep, extra: Record<string, unknown> = {}) => ({
  sequenceId: loaded.sequence.id,
  sequence: loaded.sequence.name,
  step: stepLabel(step),
  ...extra,
});

/** A step the client cannot receive: said on their timeline, and the run goes on. */
async function skip(
  ctx: AppContext,
  trx: Trx,
  run: Run<SequenceContext>,
  key: string,
  loaded: Loaded,
  step: SequenceStep,
  why: string,
): Promise<StepOutcome> {
  await addTimeline(trx, [
    {
      clientId: loaded.client.id,
      kind: "sequence",
      title: `${loaded.sequence.name}: ${stepLabel(step)} skipped`,
      body: `${loaded.client.name} ${why}.`,
      data: entryData(loaded, step, { skipped: true }),
      refId: run.id,
      dedupeKey: `sequence:${run.id}:${key}`,
    },
  ]);
  await queueLive(ctx, trx, { sequenceId: loaded.sequence.id, clientIds: [loaded.client.id] });
  return { output: { skipped: why } };
}

export function sequenceExecutors(ctx: AppContext): Record<SequenceStep["type"], Executor> {
  const email: Executor = async ({ trx, run, key, step: raw }) => {
    const step = raw as EmailStep;
    const loaded = await load(trx, run);
    if (loaded.sequence.status === "paused") return hold();
    const { client } = loaded;
    if (!client.email) return skip(ctx, trx, run, key, loaded, step, "has no email address");
    if (!client.consent_email)
      return skip(
        ctx,
        trx,
        run,
        key,
        loaded,
        step,
        'has not agreed to receive email ("Agrees to email" is off)',
      );
    const render = await renderer(ctx, trx, run, loaded);
    const subject = render(step.subject).replace(/\s+/g, " ").trim();
    const text = render(step.body).trim();
    if (!subject || !text)
      throw new PermanentStepError(
        "The email's subject or message is empty once its merge fields are filled",
      );
    // The step's key guards the send as well: were the step ever run again after its commit,
    // the entry holding the key already would stop a second mail (`queued` null).
    const queued = await queueClientEmail(ctx, trx, {
      client: { id: client.id, email: client.email },
      sender: await messageSender(trx, senderOf(run, loaded)),
      subject,
      text,
      timelineData: entryData(loaded, step),
      dedupeKey: `sequence:${run.id}:${key}`,
    });
    await queueLive(ctx, trx, { sequenceId: loaded.sequence.id, clientIds: [client.id] });
    return {
      input: { to: client.email, subject },
      output: { sent: "email", to: client.email, messageId: queued?.id, threadId: queued?.threadId },
    };
  };

  const sms: Executor = async ({ trx, run, key, step: raw }) => {
    const step = raw as SmsStep;
    const loaded = await load(trx, run);
    if (loaded.sequence.status === "paused") return hold();
    const { client } = loaded;
    if (!client.phone) return skip(ctx, trx, run, key, loaded, step, "has no phone number");
    if (client.sms_opted_out_at)
      return skip(ctx, trx, run, key, loaded, step, "opted out of SMS (texted STOP)");
    if (!client.consent_sms)
      return skip(ctx, trx, run, key, loaded, step, 'has not agreed to receive SMS ("Agrees to SMS" is off)');
    const render = await renderer(ctx, trx, run, loaded);
    const body = render(step.body).trim();
    if (!body) throw new PermanentStepError("The SMS is empty once its merge fields are filled");
    const sender = await messageSender(trx, senderOf(run, loaded));
    const [queued] = await ctx.sms.queue(
      [
        {
          clientId: client.id,
          to: client.phone,
          body,
          templateId: step.templateId ?? null,
          actorId: sender?.id ?? null,
        },
      ],
      trx,
    );
    await addTimeline(trx, [
      {
        clientId: client.id,
        kind: "sms_out",
        // The CRM's listener keeps an entry whose ref is the SMS up to date with its status.
        title: smsOutTitle(queued.status, client.phone),
        body: cut(body),
        data: entryData(loaded, step, {
          to: client.phone,
          status: queued.status,
          segments: queued.segments,
          encoding: queued.encoding,
          messageId: queued.id,
        }),
        refId: queued.id,
        dedupeKey: `sequence:${run.id}:${key}`,
      },
    ]);
    await queueLive(ctx, trx, { sequenceId: loaded.sequence.id, clientIds: [client.id] });
    return {
      input: { to: client.phone, body },
      output: { sent: "sms", to: client.phone, smsId: queued.id },
    };
  };

  const task: Executor = async ({ trx, run, key, step: raw }) => {
    const step = raw as TaskStep;
    const loaded = await load(trx, run);
    if (loaded.sequence.status === "paused") return hold();
    const { client, sequence } = loaded;
    const render = await renderer(ctx, trx, run, loaded);
    const title = render(step.title).replace(/\s+/g, " ").trim().slice(0, 200) || stepLabel(step);
    const wanted = step.assignee === "user" ? step.assigneeId : (client.owner_id ?? run.context?.enrolledBy);
    // A user deleted since the step was written leaves the task unassigned, not undone.
    const assignee = wanted
      ? ((await trx.selectFrom("users").select("id").where("id", "=", wanted).executeTakeFirst())?.id ?? null)
      : null;
    const made = await trx
      .insertInto("crm_tasks")
      .values({
        title,
        notes: step.notes ? render(step.notes).slice(0, 4000) : null,
        client_id: client.id,
        due_at: delayEnd(new Date(), { amount: step.dueInDays, unit: "days" }),
        assignee_id: assignee,
        created_by: run.context?.enrolledBy ?? null,
        updated_by: run.context?.enrolledBy ?? null,
      })
      .returning(["id", "due_at"])
      .executeTakeFirstOrThrow();
    await addTimeline(trx, [
      {
        clientId: client.id,
        kind: "task",
        title: `Task: ${title}`,
        body: `Made by the sequence ${sequence.name}`,
        data: entryData(loaded, step, { taskId: made.id, dueAt: made.due_at }),
        refId: made.id,
        dedupeKey: `sequence:${run.id}:${key}`,
      },
    ]);
    if (assignee)
      await ctx.notifications.notify(trx, {
        userIds: [assignee],
        kind: "crm.assigned",
        title: `New task for ${client.name}: ${title}`,
        body: `From the sequence ${sequence.name}`,
        link: `/crm/tasks/show/${made.id}`,
        data: { taskId: made.id, clientId: client.id, sequenceId: sequence.id },
        dedupeKey: `crm.assigned:task:${made.id}`,
      });
    await queueLive(ctx, trx, { sequenceId: sequence.id, clientIds: [client.id], taskIds: [made.id] });
    return { input: { title, assigneeId: assignee }, output: { taskId: made.id } };
  };

  // Time runs on while a sequence is paused: the step after the wait is the one held.
  const wait: Executor = ({ step: raw }) => {
    const step = raw as WaitStep;
    const nextAt = delayEnd(new Date(), step);
    return { nextAt, output: { until: nextAt.toISOString() } };
  };

  return { email, sms, task, wait };
}
