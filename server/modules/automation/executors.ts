/**
 * What each step of an automation does, inside the run engine's step transaction
 * (docs/runs.md): every write goes through `trx`, so the mail queued, the SMS stored, the record
 * written and the step's record commit together or not at all. Texts have their variables filled
 * (variables.ts). The HTTP request is the one step with outside work: it is made in `prepare`,
 * before the transaction, with the step's idempotency key as `Idempotency-Key`, and its response
 * (status, headers, body: JSON when it parses) is the step's output for later steps.
 *
 * A step that cannot succeed however often it is tried (no address, an HTTP 4xx, a record that
 * is gone) throws PermanentStepError: the run fails at once. Anything else is tried again with
 * the kind's backoff.
 */
import type { Transaction } from "kysely";
import type {
  ActionStep,
  ConditionStep,
  DelayStep,
  RecordResource,
  WaitForEventStep,
} from "../../../schemas/automation";
import { matches } from "../../../schemas/conditions";
import type { EntitySchema } from "../../../schemas/contract";
import { clientSchema } from "../../../schemas/crm-clients";
import { opportunitySchema } from "../../../schemas/crm-opportunities";
import { taskSchema } from "../../../schemas/crm-tasks";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import { OutboundRefused, outboundCall } from "../../http/outbound";
import { delayEnd, PermanentStepError, type StepExecutor, type StepOutcome, untilInstant } from "../../runs";
import { messageSender, queueClientEmail } from "../crm/client-email";
import { enrolClients } from "../crm/sequences/enrolments";
import { opportunityMoved } from "./crm-events";
import type { AutomationStepDef } from "./flow";
import { type AutomationContext, type AutomationRun, scopeOf } from "./run-scope";
import { dispatchTrigger } from "./triggers";
import { conditionRecord, fillVariables, variableValues } from "./variables";

type Trx = Transaction<Database>;
type Executor = StepExecutor<AutomationStepDef, AutomationContext>;

const RECORDS: Readonly<
  Record<RecordResource, { table: "clients" | "opportunities" | "crm_tasks"; schema: EntitySchema }>
> = {
  client: { table: "clients", schema: clientSchema },
  opportunity: { table: "opportunities", schema: opportunitySchema },
  task: { table: "crm_tasks", schema: taskSchema },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who the automation's messages are from: its owner, else its author. */
async function ownerOf(db: Trx, run: AutomationRun): Promise<string | null> {
  const automation = await db
    .selectFrom("automations")
    .select(["owner_id", "created_by"])
    .where("id", "=", run.ownerKey)
    .executeTakeFirst();
  return automation?.owner_id ?? automation?.created_by ?? null;
}

async function valuesFor(db: Trx, run: AutomationRun) {
  return variableValues(await scopeOf(db, run));
}

/**
 * A record's fields from the action's texts: only the resource's writable fields, each read as
 * its type wants (numbers, yes/no, lists split on commas); an empty text is no value.
 */
function recordValues(resource: RecordResource, fields: Record<string, string>, fill: (t: string) => string) {
  const { schema } = RECORDS[resource];
  const values: Record<string, unknown> = {};
  for (const [key, text] of Object.entries(fields)) {
    const property = schema.properties[key] as { type?: string | string[]; readOnly?: boolean } | undefined;
    if (!property || property.readOnly || key === "id")
      throw new PermanentStepError(`A ${resource} has no field "${key}" that an automation can set`);
    const filled = fill(text).trim();
    const types = ([] as string[]).concat(property.type ?? "string");
    if (!filled) values[key] = null;
    else if (types.includes("integer") || types.includes("number")) {
      const n = Number(filled);
      if (!Number.isFinite(n)) throw new PermanentStepError(`"${filled}" is not a number (field ${key})`);
      values[key] = n;
    } else if (types.includes("boolean")) values[key] = /^(true|yes|1|on)$/i.test(filled);
    else if (types.includes("array"))
      values[key] = JSON.stringify(
        filled
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      );
    else values[key] = filled;
  }
  return values;
}

/** A new record's fields with the schema's defaults for those not set (the table has none). */
function withDefaults(resource: RecordResource, values: Record<string, unknown>): Record<string, unknown> {
  const out = { ...values };
  for (const [key, property] of Object.entries(RECORDS[resource].schema.properties)) {
    const fallback = (property as { default?: unknown }).default;
    if (key in out || fallback === undefined) continue;
    out[key] = typeof fallback === "object" && fallback !== null ? JSON.stringify(fallback) : fallback;
  }
  return out;
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

  const wait: Executor = ({ step: { step } }) => {
    const w = step as WaitForEventStep;
    if (!w.event) throw new PermanentStepError("The step names no event to wait for");
    const timeoutAt = delayEnd(new Date(), {
      amount: w.timeout.amount ?? 1,
      unit: w.timeout.unit ?? "days",
    });
    return {
      input: { event: w.event, timeoutAt: timeoutAt.toISOString() },
      awaitEvent: { event: w.event, timeoutAt },
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

  const create_record: Executor = async ({ trx, run, step: { step } }) => {
    const { inputs } = step as ActionStep;
    const resource = inputs.resource as RecordResource;
    const values = await valuesFor(trx, run);
    const fields = withDefaults(
      resource,
      recordValues(resource, inputs.fields ?? {}, (t) => fillVariables(t, values)),
    );
    const { table } = RECORDS[resource];
    const made = (await trx
      .insertInto(table)
      // biome-ignore lint/suspicious/noExplicitAny: fields checked against the resource's schema above.
      .values(fields as any)
      .returningAll()
      .executeTakeFirstOrThrow()) as Record<string, unknown>;
    // What this step made may start other automations, never this one again (the engine's lineage).
    if (resource === "client")
      await dispatchTrigger(ctx, trx, {
        kind: "client-created",
        record: made,
        subject: { type: "client", id: String(made.id) },
        parent: run,
      });
    return { input: { resource, fields }, output: { id: made.id, resource } };
  };

  const update_record: Executor = async ({ trx, run, step: { step } }) => {
    const { inputs } = step as ActionStep;
    const resource = inputs.resource as RecordResource;
    const values = await valuesFor(trx, run);
    const id = fillVariables(inputs.recordId ?? "", values).trim();
    if (!UUID.test(id)) throw new PermanentStepError(`"${id}" is not the ID of a record`);
    const fields = recordValues(resource, inputs.fields ?? {}, (t) => fillVariables(t, values));
    const { table } = RECORDS[resource];
    const before =
      resource === "opportunity"
        ? await trx.selectFrom("opportunities").select("stage").where("id", "=", id).executeTakeFirst()
        : undefined;
    const updated = await trx
      .updateTable(table)
      // biome-ignore lint/suspicious/noExplicitAny: fields checked against the resource's schema above.
      .set({ ...(fields as any), updated_at: new Date() })
      .where("id", "=", id)
      .returning("id")
      .executeTakeFirst();
    if (!updated) throw new PermanentStepError(`The ${resource} ${id} does not exist (deleted?)`);
    // A stage this step changed starts other automations (never this one again: lineage).
    if (before && "stage" in fields && fields.stage !== before.stage) {
      const opportunity = await trx
        .selectFrom("opportunities")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      await opportunityMoved(ctx, trx, opportunity, before.stage, run);
    }
    return { input: { resource, id, fields }, output: { id, resource } };
  };

  const add_tag: Executor = async ({ trx, run, step: { step } }) => {
    const { inputs } = step as ActionStep;
    const scope = await scopeOf(trx, run);
    if (!scope.client) throw new PermanentStepError("A tag is added to the run's client: this run has none");
    const tag = fillVariables(inputs.tag ?? "", variableValues(scope)).trim();
    if (!tag) throw new PermanentStepError("The tag is empty once its variables are filled");
    const tags = Array.isArray(scope.client.tags) ? (scope.client.tags as string[]) : [];
    if (!tags.includes(tag))
      await trx
        .updateTable("clients")
        .set({ tags: JSON.stringify([...tags, tag]), updated_at: new Date() })
        .where("id", "=", String(scope.client.id))
        .execute();
    return { input: { tag }, output: { tag, added: !tags.includes(tag) } };
  };

  const enrol_in_sequence: Executor = async ({ trx, run, step: { step } }) => {
    const { inputs } = step as ActionStep;
    if (run.subject?.type !== "client")
      throw new PermanentStepError("Only a client can be enrolled: this run has none");
    if (!inputs.sequenceId) throw new PermanentStepError("The step names no sequence");
    const result = await enrolClients(ctx, trx, {
      sequenceId: inputs.sequenceId,
      clientIds: [run.subject.id],
      actorId: run.context?.startedBy ?? null,
      source: "automation",
    }).catch((error: unknown) => {
      // A sequence deleted or emptied since the publish: trying again will not help.
      throw new PermanentStepError(error instanceof Error ? error.message : String(error));
    });
    return { input: { sequenceId: inputs.sequenceId }, output: { sequenceId: inputs.sequenceId, ...result } };
  };

  interface HttpPrepared {
    request: { method: string; url: string; headers: Record<string, string>; body?: string };
    response: { status: number; headers: Record<string, unknown>; body: unknown };
  }

  const http_request: Executor = {
    async prepare({ run, step: { step }, idempotencyKey, signal }): Promise<HttpPrepared> {
      const { inputs } = step as ActionStep;
      const values = variableValues(await scopeOf(ctx.db, run));
      const url = fillVariables(inputs.url ?? "", values).trim();
      const method = inputs.method ?? "GET";
      const headers: Record<string, string> = { "idempotency-key": idempotencyKey };
      for (const h of inputs.headers ?? []) headers[h.name.toLowerCase()] = fillVariables(h.value, values);
      const body = inputs.body?.trim() ? fillVariables(inputs.body, values) : undefined;
      if (body !== undefined) headers["content-type"] ??= "application/json";
      if (signal.aborted) throw new Error("The app is stopping");
      let answer: Awaited<ReturnType<typeof outboundCall>>;
      try {
        answer = await outboundCall(
          url,
          { method, headers, body },
          { allowPrivate: ctx.config.outboundAllowPrivate },
        );
      } catch (error) {
        if (error instanceof OutboundRefused || error instanceof TypeError)
          throw new PermanentStepError(`${url}: ${(error as Error).message}`);
        throw error;
      }
      const message = `${method} ${url} answered ${answer.status}`;
      if (answer.status >= 500 || answer.status === 429) throw new Error(message);
      if (answer.status >= 400) throw new PermanentStepError(message);
      let parsed: unknown = answer.body;
      try {
        parsed = answer.body ? JSON.parse(answer.body) : null;
      } catch {}
      return {
        request: { method, url, headers, body },
        response: {
          status: answer.status,
          headers: { "content-type": answer.headers["content-type"] ?? null },
          body: parsed,
        },
      };
    },
    run: ({ prepared }): StepOutcome => {
      const p = prepared as HttpPrepared;
      return { input: p.request, output: p.response };
    },
  };

  return {
    condition,
    delay,
    wait,
    send_email,
    send_sms,
    create_record,
    update_record,
    add_tag,
    enrol_in_sequence,
    http_request,
  };
}
