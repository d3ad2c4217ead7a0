/**
 * When a run fails (issue 30, docs/automation-api.md "When a run fails"): what the automation's
 * settings ask for, in the transaction that ends the run as failed (the kind's onRunFailed), and
 * running failed runs again, from their failed step or as a new run from the start.
 *
 * - `notify_on_failure` (default on): the owner (else the author) and the admins get an
 *   `automation.failed` notification through the notification centre, and a mail when their
 *   preferences ask for that kind.
 * - `failure_automation_id`: that automation starts, if it is active and its published trigger is
 *   "Another automation failed", with the failed run's trigger, step and error as its record
 *   (`FailedRunRecord`), about the same client, and the failed run as its parent: the run engine's
 *   chain rules refuse a failure automation already in the chain (A's failure starts B, B's
 *   failure names A or B: not started, logged) and chains past MAX_RUN_DEPTH.
 */
import type { Transaction } from "kysely";
import { ROLES } from "../../../schemas/auth";
import type { AutomationDefinition } from "../../../schemas/automation";
import type { FailedRunRecord, RetryFrom } from "../../../schemas/automation-failures";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import { conflict, notFound } from "../../http/errors";
import type { Run, RunStep } from "../../runs";
import type { AutomationContext, AutomationRun } from "./run-scope";
import { AUTOMATION_KIND, dispatchTrigger } from "./triggers";

/** Where the app shows a run: the automation's page with the run open. */
export const runLink = (automationId: string, runId: string) =>
  `/automation/automations/show/${automationId}?run=${runId}`;

/** The failure's consequences, in the transaction that ends the run (never throws on a refusal). */
export async function runFailed(
  ctx: AppContext,
  trx: Transaction<Database>,
  run: AutomationRun,
  step: RunStep,
  stepName: string,
): Promise<void> {
  const automation = await trx
    .updateTable("automations")
    .set((eb) => ({ failed_runs: eb("failed_runs", "+", 1) }))
    .where("id", "=", run.ownerKey)
    .returning(["id", "name", "owner_id", "created_by", "notify_on_failure", "failure_automation_id"])
    .executeTakeFirst();
  if (!automation) return;
  const error = step.error ?? run.error ?? "";
  if (automation.notify_on_failure) {
    const admins = await trx.selectFrom("users").select("id").where("role", "=", ROLES.admin).execute();
    const userIds = [automation.owner_id ?? automation.created_by, ...admins.map((a) => a.id)].filter(
      (u): u is string => Boolean(u),
    );
    if (userIds.length) {
      await ctx.notifications.notify(trx, {
        userIds: [...new Set(userIds)],
        kind: "automation.failed",
        title: `${automation.name}: a run failed at "${stepName}"`,
        body: error || undefined,
        link: runLink(automation.id, run.id),
        data: { automationId: automation.id, runId: run.id, step: step.key },
        // Per failure: a run retried by hand restarts its attempts at 1, and its next failure is news too.
        dedupeKey: `automation.failed:${run.id}:${step.key}:${step.attempt}:${(step.startedAt ?? step.dueAt).getTime()}`,
      });
    }
  }
  if (automation.failure_automation_id) {
    const record: FailedRunRecord = {
      automationId: automation.id,
      automationName: automation.name,
      runId: run.id,
      runLink: `/manage${runLink(automation.id, run.id)}`,
      step: step.key,
      stepName,
      error,
      failedAt: (run.finishedAt ?? new Date()).toISOString(),
      triggerKind: run.context.trigger,
      trigger: run.context.record ?? {},
    };
    // Only if active with that trigger (dispatch's rules); a chain refusal is logged, not thrown.
    const started = await dispatchTrigger(ctx, trx, {
      kind: "automation-failed",
      record: record as unknown as Record<string, unknown>,
      subject: run.subject,
      parent: run,
      automationId: automation.failure_automation_id,
    });
    if (!started.length) {
      ctx.log.info(
        { automationId: automation.id, runId: run.id, failureAutomationId: automation.failure_automation_id },
        "failure automation not started: not active with the trigger “Another automation failed”, or a loop",
      );
    }
  }
}

/** A failed run of this automation, locked for its retry; 404 / 409 in words. */
async function failedRunOf(
  ctx: AppContext,
  trx: Transaction<Database>,
  automationId: string | null,
  runId: string,
) {
  const found = await ctx.runs.get(runId, trx);
  if (!found || found.kind !== AUTOMATION_KIND || (automationId && found.ownerKey !== automationId))
    throw notFound("Run not found");
  if (found.status !== "failed") {
    throw conflict(`This run is ${found.status}, not failed: only a failed run can be run again`);
  }
  return found;
}

/**
 * Runs a failed run again, in the caller's transaction: from its failed step (the same run, fresh
 * attempts), or from the start (a new run of the same version, trigger record and client; the
 * failed run is ended as cancelled with the reason `retried`, its failed step and error kept).
 * Either way the automation's failed-runs count goes down by one. Answers the run that goes on.
 */
export async function retryRun(
  ctx: AppContext,
  trx: Transaction<Database>,
  runId: string,
  from: RetryFrom,
  automationId: string | null = null,
): Promise<Run> {
  const failed = await failedRunOf(ctx, trx, automationId, runId);
  let run: Run;
  if (from === "failed-step") {
    run = await ctx.runs.retryFromFailed(runId, trx);
  } else {
    const context = failed.context as AutomationContext;
    // The failed run ends first (its lock): a second retry of it at once is a 409, not a second run.
    await ctx.runs.cancel(runId, trx, "retried");
    const started = await ctx.runs.start<AutomationDefinition, AutomationContext>(trx, {
      kind: AUTOMATION_KIND,
      ownerKey: failed.ownerKey,
      version: failed.version,
      definition: failed.definition as AutomationDefinition,
      subject: failed.subject,
      context: { ...context, retryOf: failed.id },
    });
    run = started.run;
  }
  await trx
    .updateTable("automations")
    .set((eb) => ({ failed_runs: eb.fn("greatest", [eb.lit(0), eb("failed_runs", "-", 1)]) }))
    .where("id", "=", failed.ownerKey)
    .execute();
  return run;
}

/** One id's outcome in a bulk retry. */
export interface RetryOutcome {
  id: string;
  outcome: "retried" | "refused" | "not-found";
  /** The run that goes on (the same one from the failed step, a new one from the start). */
  runId?: string;
  message?: string;
}

/** Runs each failed run of the automation again, each in its own transaction: a refusal is per id. */
export async function retryRuns(
  ctx: AppContext,
  automationId: string,
  ids: readonly string[],
  from: RetryFrom,
): Promise<{ retried: number; refused: number; notFound: number; results: RetryOutcome[] }> {
  const results: RetryOutcome[] = [];
  for (const id of [...new Set(ids)]) {
    try {
      const run = await ctx.db.transaction().execute((trx) => retryRun(ctx, trx, id, from, automationId));
      results.push({ id, outcome: "retried", runId: run.id });
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (status !== 404 && status !== 409) throw error;
      results.push({
        id,
        outcome: status === 404 ? "not-found" : "refused",
        message: (error as Error).message,
      });
    }
  }
  const count = (o: RetryOutcome["outcome"]) => results.filter((r) => r.outcome === o).length;
  return { retried: count("retried"), refused: count("refused"), notFound: count("not-found"), results };
}
