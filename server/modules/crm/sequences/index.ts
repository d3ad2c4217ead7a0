/**
 * Sequences (issue 16): multi-step cadences of emails, SMS, waits and tasks that clients are
 * enrolled in, one by one, by a list selection, or by a form's answer. The records are the
 * engine's (`/crm/sequences`); each enrolment is a run of the run engine (server/runs), so a
 * restart never loses or doubles a step. docs/crm-api.md, "Sequences".
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../../context";
import type { Enrol } from "../form-clients";
import { enrolClients } from "./enrolments";
import { registerLiveJob } from "./live";
import { registerSequenceKind } from "./sequence.kind";
import { sequenceRoutes } from "./sequences.routes";
import { readSteps } from "./steps";

export { exitSequences } from "./exits";
export { sequenceRules } from "./sequence.rules";

/**
 * Declares the sequence kind of run and its routes; answers how a form's answers enrol their
 * clients (the form's `settings.crm.sequenceId`).
 */
export async function sequencesModule(app: FastifyInstance, ctx: AppContext): Promise<Enrol> {
  registerLiveJob(ctx);
  registerSequenceKind(ctx);
  await sequenceRoutes(app, ctx);
  return async (trx, { sequenceId, clientIds }) => {
    // Inside the answer's own transaction: a sequence deleted or left without steps since the
    // form was set up must not cost the answer, so it is checked before, and nothing is thrown.
    const sequence = await trx
      .selectFrom("crm_sequences")
      .select("id")
      .where("id", "=", sequenceId)
      .executeTakeFirst();
    if (!sequence || !(await readSteps(trx, sequenceId)).steps.length) {
      ctx.log.warn({ sequenceId }, "a form names a sequence that is gone or has no steps: no enrolment");
      return;
    }
    await enrolClients(ctx, trx, { sequenceId, clientIds, actorId: null, source: "form" });
  };
}
