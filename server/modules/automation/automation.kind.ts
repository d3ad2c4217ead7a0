/**
 * Automations as a kind of run of the run engine (docs/runs.md): a run's owner is the
 * automation, its definition the published flow it started on (pinned by the engine, so a later
 * publish never changes a run in flight), its subject the client the trigger is about, if any.
 * A run that fails is never silent: the automation's failed-runs count goes up (the list's
 * badge), and as its settings ask its owner and the admins are told through the notification
 * centre and another automation starts (failures.ts).
 */
import { sql, type Transaction } from "kysely";
import { ACTION_LABELS, type AutomationDefinition, STEP_KIND_LABELS } from "../../../schemas/automation";
import { isUuid } from "../../../schemas/uuid";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import type { RunKind, RunStep } from "../../runs";
import { automationExecutors } from "./executors";
import { runFailed } from "./failures";
import { type AutomationStepDef, automationFlow } from "./flow";
import { publishLive } from "./live";
import { type AutomationContext, type AutomationRun, checkClient, lockedClient } from "./run-scope";
import { AUTOMATION_KIND } from "./triggers";

export function automationKind(
  ctx: AppContext,
): RunKind<AutomationDefinition, AutomationStepDef, AutomationContext> {
  return {
    flow: automationFlow,
    executors: automationExecutors(ctx),
    // Steps mostly wait on the database: more at once keep its connections busy (the jobs' pool).
    concurrency: 16,
    // A run about a client ends when the client is gone (deleted, merged into another).
    async exitCheck(trx, run) {
      if (run.subject?.type !== "client") return null;
      return (await checkClient(trx, run)) ? null : "client-deleted";
    },

    // The run's client comes with the run's lock: the exit check and the steps read it from there.
    subjectRead: {
      subjectType: "client",
      table: "clients",
      idType: "uuid",
      locked: (trx, run, row) => lockedClient(trx, run.subject?.id ?? "", row),
    },

    // After the moves committed, about once a second: the list's "last run", and open pages.
    async onRunsChanged(db, moved) {
      const ids = moved.map((m) => m.ownerKey).filter(isUuid);
      if (!ids.length) return;
      await sql`
        update automations a set last_run_at = m.started
        from unnest(cast(${ids} as uuid[]), cast(${moved.filter((m) => isUuid(m.ownerKey)).map((m) => m.lastStartedAt.toISOString())} as timestamptz[])) as m(id, started)
        where a.id = m.id and a.last_run_at is distinct from m.started
      `.execute(db);
      for (const id of ids) publishLive(ctx, id);
    },

    // The badge, the owner's notification and the failure automation, as the automation asks.
    async onRunFailed(trx, run: AutomationRun, step: RunStep) {
      await runFailed(ctx, trx, run, step, await stepTitle(trx, run, step.key));
    },
  };
}

/** How the canvas names a step: its name, else what it does ("Send email"), else its kind. */
async function stepTitle(trx: Transaction<Database>, run: AutomationRun, key: string): Promise<string> {
  const pinned = await trx
    .selectFrom("run_definitions")
    .select("definition")
    .where("hash", "=", run.definitionHash)
    .executeTakeFirst();
  const step = pinned && automationFlow.step(pinned.definition as AutomationDefinition, key)?.step;
  if (!step) return key;
  return (
    step.name ||
    (step.kind === "action" && step.type && ACTION_LABELS[step.type]) ||
    STEP_KIND_LABELS[step.kind]
  );
}

export function registerAutomationKind(ctx: AppContext): void {
  ctx.runs.registerKind(AUTOMATION_KIND, automationKind(ctx));
}
