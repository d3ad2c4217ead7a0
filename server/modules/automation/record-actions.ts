/**
 * An automation's record actions (issue 17), in the step's transaction: create or update a
 * client, opportunity or task (only the resource's writable fields, typed from the texts), add a
 * tag to the run's client, enrol it in a sequence. A client created or an opportunity moved here
 * triggers other automations with this run as parent (never this automation again: lineage).
 */
import type { Transaction } from "kysely";
import { type ActionStep, RECORD_RESOURCES, type RecordResource } from "../../../schemas/automation";
import type { EntitySchema } from "../../../schemas/contract";
import { clientSchema } from "../../../schemas/crm-clients";
import { opportunitySchema } from "../../../schemas/crm-opportunities";
import { taskSchema } from "../../../schemas/crm-tasks";
import { UUID } from "../../../schemas/uuid";
import { withArticle } from "../../../src/lib/text";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import { StatementCache } from "../../db/statements";
import { PermanentStepError } from "../../runs";
import { notifyAssignment } from "../crm/assignments";
import { enrolClients } from "../crm/sequences/enrolments";
import { opportunityMoved } from "./crm-events";
import { entityExecutors } from "./entity-actions";
import {
  type AutomationRun,
  type Client,
  clientReadIn,
  type AutomationExecutor as Executor,
  rememberClient,
  scopeOf,
} from "./run-scope";
import { dispatchTrigger } from "./triggers";
import { fillVariables, variableValues } from "./variables";

type Trx = Transaction<Database>;

const RECORDS: Readonly<
  Record<RecordResource, { table: "clients" | "opportunities" | "crm_tasks"; schema: EntitySchema }>
> = {
  client: { table: "clients", schema: clientSchema },
  opportunity: { table: "opportunities", schema: opportunitySchema },
  task: { table: "crm_tasks", schema: taskSchema },
};

/**
 * The actions' statements by shape (table and fields set): sent by every run of a flow, they are
 * compiled once and run as prepared statements (server/db/statements.ts).
 */
const statements = new StatementCache();

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
      throw new PermanentStepError(
        `${withArticle(resource, true)} has no field "${key}" that an automation can set`,
      );
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

/** A CRM record named by its first name (`client`): the path flows published before issue 30 take. */
const isCrmRecord = (resource: string | undefined): resource is RecordResource =>
  (RECORD_RESOURCES as readonly string[]).includes(resource ?? "");

export function recordExecutors(ctx: AppContext): Record<string, Executor> {
  // Any other entity (a resource, a CMS type) through its own service: entity-actions.ts.
  const entities = entityExecutors(ctx);
  const create_record: Executor = async (context) => {
    const { inputs } = context.step.step as ActionStep;
    if (!isCrmRecord(inputs.resource)) return entities.create(context);
    const { trx, run } = context;
    const resource = inputs.resource;
    const values = await valuesFor(trx, run);
    const fields = withDefaults(
      resource,
      recordValues(resource, inputs.fields ?? {}, (t) => fillVariables(t, values)),
    );
    const { table } = RECORDS[resource];
    const insert = statements.query(`insert ${table} ${Object.keys(fields)}`, Object.values(fields), () =>
      trx
        .insertInto(table)
        // biome-ignore lint/suspicious/noExplicitAny: fields checked against the resource's schema above.
        .values(fields as any)
        .returningAll(),
    );
    const made = (await trx.executeQuery(insert)).rows[0] as Record<string, unknown>;
    await notifyAssignment({ db: trx, existing: null, row: made, actorId: null, app: ctx }, resource);
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

  const update_record: Executor = async (context) => {
    const { inputs } = context.step.step as ActionStep;
    if (!isCrmRecord(inputs.resource)) return entities.update(context);
    const { trx, run } = context;
    const resource = inputs.resource;
    const values = await valuesFor(trx, run);
    const id = fillVariables(inputs.recordId ?? "", values).trim();
    if (!UUID.test(id)) throw new PermanentStepError(`"${id}" is not the ID of a record`);
    const fields = recordValues(resource, inputs.fields ?? {}, (t) => fillVariables(t, values));
    const { table } = RECORDS[resource];
    // The run's client as this transaction read it already (its exit check, the variables).
    const known = resource === "client" ? clientReadIn(trx, id) : undefined;
    const read = () =>
      statements.query(`select ${table}`, [id], () => trx.selectFrom(table).selectAll().where("id", "=", id));
    const before = (known ?? (await trx.executeQuery(read())).rows[0]) as Record<string, unknown> | undefined;
    const set = { ...fields, updated_at: new Date() };
    const update = statements.query(
      `update ${table} ${Object.keys(fields)}`,
      [...Object.values(set), id],
      () =>
        trx
          .updateTable(table)
          // biome-ignore lint/suspicious/noExplicitAny: fields checked against the resource's schema above.
          .set(set as any)
          .where("id", "=", id)
          .returningAll(),
    );
    const updated = (await trx.executeQuery(update)).rows[0] as Record<string, unknown> | undefined;
    if (!updated || !before) throw new PermanentStepError(`The ${resource} ${id} does not exist (deleted?)`);
    if (resource === "client") rememberClient(trx, updated as unknown as Client);
    await notifyAssignment({ db: trx, existing: before, row: updated, actorId: null, app: ctx }, resource);
    // A stage this step changed starts other automations (never this one again: lineage).
    if (resource === "opportunity" && "stage" in fields && fields.stage !== before.stage) {
      const opportunity = await trx
        .selectFrom("opportunities")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      await opportunityMoved(ctx, trx, opportunity, String(before.stage), run);
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
    if (!tags.includes(tag)) {
      const updatedAt = new Date();
      const set = { tags: JSON.stringify([...tags, tag]), updated_at: updatedAt };
      const id = String(scope.client.id);
      await trx.executeQuery(
        statements.query("add_tag", [set.tags, updatedAt, id], () =>
          trx.updateTable("clients").set(set).where("id", "=", id),
        ),
      );
      // The row as it is now, for the next steps of this transaction (run-scope.ts).
      rememberClient(trx, {
        ...scope.client,
        tags: [...tags, tag],
        updated_at: updatedAt,
      } as unknown as Client);
    }
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

  return { create_record, update_record, find_record: entities.find, add_tag, enrol_in_sequence };
}
