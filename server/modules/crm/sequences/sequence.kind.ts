/**
 * Sequences as a kind of run of the run engine (docs/runs.md): an enrolment is a run whose
 * subject is the client, whose owner is the sequence, and whose definition is the sequence's
 * steps at enrolment. The flow is the steps in order, plus holds: a step held while the
 * sequence is paused is done when the sequence is resumed, and the same step then runs again
 * under the key `<key>@<n>` (a run reaches each key once).
 */
import {
  EXIT_REASON_LABELS,
  type ExitReason,
  type SequenceStep,
} from "../../../../schemas/crm-sequence-steps";
import type { AppContext } from "../../../context";
import type { Db, Run, RunFlow, RunKind, RunStep } from "../../../runs";
import { addTimeline } from "../timeline";
import { sequenceExecutors } from "./executors";
import { exitReasonOf } from "./exits";
import {
  baseKey,
  holdNumber,
  SEQUENCE_KIND,
  type SequenceContext,
  type SequenceDefinition,
} from "./kind-names";
import { queueLive } from "./live";

const resumed = (output: unknown) =>
  typeof output === "object" && output !== null && "resumedBy" in (output as object);

/** The steps in order; a held step (its output is the engine's resume) comes again, numbered. */
export const sequenceFlow: RunFlow<SequenceDefinition, SequenceStep> = {
  first: (definition) => definition.steps[0]?.key ?? null,
  next(definition, key, output) {
    const base = baseKey(key);
    if (resumed(output)) return `${base}@${holdNumber(key) + 1}`;
    const index = definition.steps.findIndex((s) => s.key === base);
    return index < 0 ? null : (definition.steps[index + 1]?.key ?? null);
  },
  step: (definition, key) => definition.steps.find((s) => s.key === baseKey(key)),
};

/** How a run's end reads on the client's timeline. */
function endingTitle(run: Run<SequenceContext>, name: string): string {
  switch (run.status) {
    case "finished":
      return `Finished the sequence ${name}`;
    case "exited":
      return `Left the sequence ${name}: ${EXIT_REASON_LABELS[run.exitReason as ExitReason] ?? run.exitReason}`;
    case "cancelled":
      return `Taken out of the sequence ${name}`;
    default:
      return `The sequence ${name} stopped on an error`;
  }
}

export function sequenceKind(ctx: AppContext): RunKind<SequenceDefinition, SequenceStep, SequenceContext> {
  return {
    flow: sequenceFlow,
    executors: sequenceExecutors(ctx),
    exitCheck: (trx, run) => exitReasonOf(trx, run),

    async onRunEnded(db: Db, run) {
      const clientId = run.subject?.id;
      const sequence = await db
        .selectFrom("crm_sequences")
        .select(["id", "name"])
        .where("id", "=", run.ownerKey)
        .executeTakeFirst();
      // A deleted client has no timeline to write on; a deleted sequence's runs go with it.
      if (!clientId || !sequence || run.exitReason === "client_deleted") return;
      const client = await db
        .selectFrom("clients")
        .select("id")
        .where("id", "=", clientId)
        .executeTakeFirst();
      if (!client) return;
      await addTimeline(db, [
        {
          clientId,
          kind: "sequence",
          title: endingTitle(run, sequence.name),
          body: run.status === "failed" ? run.error : null,
          data: {
            sequenceId: sequence.id,
            sequence: sequence.name,
            status: run.status,
            exitReason: run.exitReason,
          },
          refId: run.id,
          dedupeKey: `sequence:${run.id}:end`,
        },
      ]);
      await queueLive(ctx, db, { sequenceId: sequence.id, clientIds: [clientId] });
    },

    // Never a silent failure: the sequence's author and the client's owner are told.
    async onRunFailed(trx, run, step: RunStep) {
      const sequence = await trx
        .selectFrom("crm_sequences")
        .select(["id", "name", "created_by"])
        .where("id", "=", run.ownerKey)
        .executeTakeFirst();
      const client = await trx
        .selectFrom("clients")
        .select(["id", "name", "owner_id"])
        .where("id", "=", run.subject?.id ?? "")
        .executeTakeFirst();
      if (!sequence || !client) return;
      const userIds = [sequence.created_by, client.owner_id].filter((u): u is string => Boolean(u));
      if (!userIds.length) return;
      await ctx.notifications.notify(trx, {
        userIds: [...new Set(userIds)],
        kind: "crm.sequence_failed",
        title: `${sequence.name} stopped for ${client.name}`,
        body: step.error ?? run.error ?? undefined,
        link: `/crm/sequences/show/${sequence.id}`,
        data: { sequenceId: sequence.id, clientId: client.id, runId: run.id, step: step.key },
        dedupeKey: `crm.sequence_failed:${run.id}:${step.key}`,
      });
    },
  };
}

export function registerSequenceKind(ctx: AppContext): void {
  ctx.runs.registerKind(SEQUENCE_KIND, sequenceKind(ctx));
}
