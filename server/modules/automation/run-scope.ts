/**
 * What an automation's run knows when a step runs: the trigger's record (the run's context),
 * its client (the subject, read fresh: a later step sees an earlier step's update), and the
 * outputs of the steps done.
 */
import type { Kysely, Selectable, Transaction } from "kysely";
import type { TriggerKind } from "../../../schemas/automation";
import type { Database } from "../../db";
import type { ClientsTable } from "../../db/types-crm";
import type { Run, StepExecutor } from "../../runs";
import type { AutomationStepDef } from "./flow";
import type { RunScope } from "./variables";

/** The context a run starts with. */
export interface AutomationContext {
  trigger: TriggerKind;
  /** The record the trigger is about (a client, an opportunity, a form's answers, a webhook's body). */
  record: Record<string, unknown>;
  /** Who ran it by hand, if someone did. */
  startedBy?: string | null;
}

export type AutomationRun = Run<AutomationContext>;

/** An executor of an automation's steps. */
export type AutomationExecutor = StepExecutor<AutomationStepDef, AutomationContext>;

type Db = Kysely<Database> | Transaction<Database>;

type Client = Selectable<ClientsTable>;

/**
 * The client the kind's exit check read for the step about to run (automation.kind.ts): the
 * step's first clientOf answers it instead of reading it again. Taken once: a later read in the
 * step sees the step's own writes.
 */
const checked = new WeakMap<AutomationRun, Client | null>();

async function readClient(db: Db, id: string): Promise<Client | null> {
  return (await db.selectFrom("clients").selectAll().where("id", "=", id).executeTakeFirst()) ?? null;
}

/** The exit check's read of the run's client (null: gone), kept for the step's first clientOf. */
export async function checkClient(db: Db, run: AutomationRun): Promise<Client | null> {
  if (run.subject?.type !== "client") return null;
  const client = await readClient(db, run.subject.id);
  checked.set(run, client);
  return client;
}

/** The client of a run (null for a run about no client, or one deleted since). */
export async function clientOf(db: Db, run: AutomationRun): Promise<Client | null> {
  if (run.subject?.type !== "client") return null;
  if (checked.has(run)) {
    const client = checked.get(run) ?? null;
    checked.delete(run);
    return client;
  }
  return readClient(db, run.subject.id);
}

export async function scopeOf(db: Db, run: AutomationRun): Promise<RunScope> {
  const client = await clientOf(db, run);
  return {
    trigger: run.context?.record ?? {},
    client: client ? { ...client } : null,
    steps: run.outputs ?? {},
  };
}
