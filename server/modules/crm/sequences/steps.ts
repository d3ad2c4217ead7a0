/**
 * A sequence's steps as stored (crm_sequence_steps): read, and saved by the builder. A save
 * names the version it was edited from, so two people editing one sequence never overwrite each
 * other unseen (409), and each save is the next version: enrolments started before keep
 * following the steps they started with (the run engine pins them by content).
 */

import {
  cleanStep,
  type SequenceStep,
  type SequenceSteps,
  stepProblems,
} from "../../../../schemas/crm-sequence-steps";
import { asSentence, invalidInputMessage } from "../../../../schemas/error-messages";
import type { AppContext } from "../../../context";
import { parsedJson } from "../../../db/json";
import { badRequest, conflict, type FieldError, notFound } from "../../../http/errors";
import { clientCustomFieldKeys } from "../merge-values";
import type { Db } from "../timeline";

const invalid = (errors: FieldError[]) =>
  badRequest(errors.length === 1 ? asSentence(errors[0]) : invalidInputMessage(errors), errors);

/** The steps of a sequence (none until the builder first saves), with its version. */
export async function readSteps(db: Db, sequenceId: string): Promise<SequenceSteps> {
  const row = await db
    .selectFrom("crm_sequences as s")
    .leftJoin("crm_sequence_steps as st", "st.sequence_id", "s.id")
    .select(["s.version", "st.steps"])
    .where("s.id", "=", sequenceId)
    .executeTakeFirst();
  if (!row) throw notFound("Sequence not found");
  return { version: row.version, steps: row.steps ? parsedJson<SequenceStep[]>(row.steps) : [] };
}

/** Templates a step names must exist and be of the step's channel. */
async function templateProblems(db: Db, steps: readonly SequenceStep[]): Promise<FieldError[]> {
  const ids = [
    ...new Set(
      steps.flatMap((s) => ((s.type === "email" || s.type === "sms") && s.templateId ? [s.templateId] : [])),
    ),
  ];
  const users = [
    ...new Set(
      steps.flatMap((s) =>
        s.type === "task" && s.assignee === "user" && s.assigneeId ? [s.assigneeId] : [],
      ),
    ),
  ];
  const templates = ids.length
    ? await db.selectFrom("crm_templates").select(["id", "channel"]).where("id", "in", ids).execute()
    : [];
  const known = users.length
    ? new Set((await db.selectFrom("users").select("id").where("id", "in", users).execute()).map((u) => u.id))
    : new Set<string>();
  const channel = new Map(templates.map((t) => [t.id, t.channel]));
  const problems: FieldError[] = [];
  steps.forEach((step, i) => {
    if ((step.type === "email" || step.type === "sms") && step.templateId) {
      const found = channel.get(step.templateId);
      if (!found)
        problems.push({
          field: `steps.${i}.templateId`,
          message: `Step ${i + 1}: this template no longer exists`,
        });
      else if (found !== step.type)
        problems.push({
          field: `steps.${i}.templateId`,
          message: `Step ${i + 1}: choose ${step.type === "email" ? "an email" : "an SMS"} template`,
        });
    }
    if (step.type === "task" && step.assignee === "user" && step.assigneeId && !known.has(step.assigneeId))
      problems.push({ field: `steps.${i}.assigneeId`, message: `Step ${i + 1}: this user no longer exists` });
  });
  return problems;
}

/**
 * Saves the builder's steps as the sequence's next version (400 per field when a step is
 * wrong, 409 when someone saved since `version`); answers the steps as stored.
 */
export async function saveSteps(
  ctx: Pick<AppContext, "db" | "broadcast" | "log">,
  input: { sequenceId: string; steps: SequenceStep[]; version: number; actorId: string },
): Promise<SequenceSteps> {
  const { db } = ctx;
  const steps = input.steps.map(cleanStep);
  const problems = [
    ...stepProblems(steps, await clientCustomFieldKeys(ctx)),
    ...(await templateProblems(db, steps)),
  ];
  if (problems.length) throw invalid(problems);
  const run = async (trx: Db) => {
    const current = await trx
      .selectFrom("crm_sequences")
      .select(["id", "version"])
      .where("id", "=", input.sequenceId)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw notFound("Sequence not found");
    if (current.version !== input.version)
      throw conflict(
        `Someone saved this sequence since you opened it (version ${current.version} now): reload it to see their steps`,
      );
    const json = JSON.stringify(steps);
    await trx
      .insertInto("crm_sequence_steps")
      .values({ sequence_id: input.sequenceId, steps: json, updated_by: input.actorId })
      .onConflict((oc) =>
        oc
          .column("sequence_id")
          .doUpdateSet({ steps: json, updated_by: input.actorId, updated_at: new Date() }),
      )
      .execute();
    const saved = await trx
      .updateTable("crm_sequences")
      .set({
        version: current.version + 1,
        step_count: steps.length,
        updated_by: input.actorId,
        updated_at: new Date(),
      })
      .where("id", "=", input.sequenceId)
      .returning("version")
      .executeTakeFirstOrThrow();
    return { steps, version: saved.version };
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}
