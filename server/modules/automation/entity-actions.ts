/**
 * Record steps on any entity (issue 30): "create record", "update record" and "find record" on
 * every engine resource ("products") and CMS type ("cms:article"), through the entity's own
 * service (server/resources/record-events.ts): its validation and rules, its versions and live
 * events, as the system (no person's permission), in the step's transaction. What such a step
 * writes may start other automations (the record triggers), with this run as their parent, so
 * an automation never starts itself again (the engine's lineage).
 *
 * The CRM's records named by their first names (`client`, `opportunity`, `task`: flows
 * published before) keep their own path (record-actions.ts).
 */
import type { Transaction } from "kysely";
import type { ActionStep } from "../../../schemas/automation";
import type { EntitySchema } from "../../../schemas/contract";
import { UUID } from "../../../schemas/uuid";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import { HttpError } from "../../http/errors";
import { type Entity, entityNamed } from "../../resources/record-events";
import { PermanentStepError } from "../../runs";
import { type AutomationExecutor, type AutomationRun, forgetClients, scopeOf } from "./run-scope";
import { fillVariables, variableValues } from "./variables";

type Trx = Transaction<Database>;
type Row = Record<string, unknown>;

async function entityOf(ctx: AppContext, name: string | undefined): Promise<Entity> {
  const entity = name ? await entityNamed(ctx, name) : undefined;
  if (!entity) throw new PermanentStepError(`There is no kind of record "${name ?? ""}" (was it removed?)`);
  return entity;
}

const typesOf = (property: { type?: string | string[] }) =>
  ([] as string[]).concat(property.type ?? "string");

/**
 * A value typed as its field wants it, from the step's text (variables filled): a number, yes or
 * no, a list (split on commas), an object (JSON); an empty text is no value (null when the field
 * may be empty, else left out).
 */
function typed(entity: Entity, schema: EntitySchema, key: string, text: string): { value: unknown } | null {
  const property = schema.properties[key] as { type?: string | string[]; readOnly?: boolean } | undefined;
  if (!property)
    throw new PermanentStepError(`${entity.singular} has no field "${key}" (was it removed or renamed?)`);
  const types = typesOf(property);
  const filled = text.trim();
  if (!filled) return types.includes("null") ? { value: null } : null;
  if (types.includes("integer") || types.includes("number")) {
    const n = Number(filled);
    if (!Number.isFinite(n)) throw new PermanentStepError(`"${filled}" is not a number (field ${key})`);
    return { value: n };
  }
  if (types.includes("boolean")) return { value: /^(true|yes|1|on)$/i.test(filled) };
  if (types.includes("array")) {
    if (filled.startsWith("[")) {
      try {
        return { value: JSON.parse(filled) };
      } catch {}
    }
    return {
      value: filled
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    };
  }
  if (types.includes("object")) {
    try {
      return { value: JSON.parse(filled) };
    } catch {
      throw new PermanentStepError(`The field ${key} takes JSON: "${filled.slice(0, 80)}" is not`);
    }
  }
  return { value: filled };
}

/** The step's field texts as the entity's values: only fields a person may set. */
function valuesOf(
  entity: Entity,
  schema: EntitySchema,
  texts: Record<string, string>,
  fill: (t: string) => string,
) {
  const values: Row = {};
  for (const [key, text] of Object.entries(texts)) {
    const property = schema.properties[key] as { readOnly?: boolean } | undefined;
    if (property?.readOnly || key === "id")
      throw new PermanentStepError(`${entity.singular} has no field "${key}" that an automation can set`);
    const value = typed(entity, schema, key, fill(text));
    if (value) values[key] = value.value;
  }
  return values;
}

/** The entity's refusal (a 400 per field, a 404, a 409) as a step's failure, in its words. */
function asStepError(error: unknown, entity: Entity): never {
  // Its message names the fields already (invalidInputMessage); trying again changes nothing.
  if (error instanceof HttpError)
    throw new PermanentStepError(`${entity.singular} not saved: ${error.message}`);
  throw error;
}

async function valuesFor(db: Trx, run: AutomationRun) {
  return variableValues(await scopeOf(db, run));
}

/** A step executor as a plain function (the run engine's `run`), so record-actions.ts can call it. */
type Executor = Extract<AutomationExecutor, (...args: never[]) => unknown>;

export function entityExecutors(ctx: AppContext): Record<"create" | "update" | "find", Executor> {
  const create: Executor = async ({ trx, run, step: { step } }) => {
    const { inputs } = step as ActionStep;
    const entity = await entityOf(ctx, inputs.resource);
    const values = await valuesFor(trx, run);
    const body = valuesOf(entity, await entity.schema(), inputs.fields ?? {}, (t) =>
      fillVariables(t, values),
    );
    const made = await entity
      .create(body, { db: trx, actorId: null, actor: `automation:${run.ownerKey}`, cause: run })
      .catch((error: unknown) => asStepError(error, entity));
    // It may have written the run's client (clients are an entity too): read it afresh.
    forgetClients(trx);
    return {
      input: { resource: entity.name, fields: body },
      output: { id: made.id, resource: entity.name, record: made },
    };
  };

  const update: Executor = async ({ trx, run, step: { step } }) => {
    const { inputs } = step as ActionStep;
    const entity = await entityOf(ctx, inputs.resource);
    const values = await valuesFor(trx, run);
    const id = fillVariables(inputs.recordId ?? "", values).trim();
    if (!UUID.test(id)) throw new PermanentStepError(`"${id}" is not the ID of a record`);
    const body = valuesOf(entity, await entity.schema(), inputs.fields ?? {}, (t) =>
      fillVariables(t, values),
    );
    const updated = await entity
      .update(id, body, { db: trx, actorId: null, actor: `automation:${run.ownerKey}`, cause: run })
      .catch((error: unknown) => asStepError(error, entity));
    forgetClients(trx);
    return {
      input: { resource: entity.name, id, fields: body },
      output: { id, resource: entity.name, record: updated },
    };
  };

  const find: Executor = async ({ trx, run, step: { step } }) => {
    const { inputs } = step as ActionStep;
    const entity = await entityOf(ctx, inputs.resource);
    const values = await valuesFor(trx, run);
    const schema = await entity.schema();
    const match: Row = {};
    for (const [key, text] of Object.entries(inputs.match ?? {})) {
      const filled = fillVariables(text, values);
      if (key === "id") match.id = filled.trim();
      else match[key] = typed(entity, schema, key, filled)?.value ?? null;
    }
    if ("id" in match && !UUID.test(String(match.id)))
      return { input: { resource: entity.name, match }, output: { found: false, id: null, record: null } };
    const found = await entity.find(trx, match);
    return {
      input: { resource: entity.name, match },
      output: { found: Boolean(found), id: found?.id ?? null, record: found },
    };
  };

  return { create, update, find };
}
