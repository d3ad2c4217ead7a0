/**
 * What an automation's run knows when a step runs: the trigger's record (the run's context),
 * its client (the subject, read fresh: a later step sees an earlier step's update), and the
 * outputs of the steps done.
 */
import type { Kysely, Transaction } from "kysely";
import type { TriggerKind } from "../../../schemas/automation";
import type { Database } from "../../db";
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

/** The client of a run (null for a run about no client, or one deleted since). */
export async function clientOf(db: Db, run: AutomationRun) {
  if (run.subject?.type !== "client") return null;
  const client = await db
    .selectFrom("clients")
    .selectAll()
    .where("id", "=", run.subject.id)
    .executeTakeFirst();
  return client ?? null;
}

export async function scopeOf(db: Db, run: AutomationRun): Promise<RunScope> {
  const client = await clientOf(db, run);
  return {
    trigger: run.context?.record ?? {},
    client: client ? { ...client } : null,
    steps: run.outputs ?? {},
  };
}
