/**
 * The forms' and the CMS's events as automation triggers (issue 17), in the transaction that
 * stores them: a form's answers (SubmissionWriter.onStored, after the CRM's hook, which made or
 * found the answer's client) and an entry's publish (EntryLifecycle.onPublishing).
 */
import type { AppContext } from "../../context";
import type { AnyDb } from "../../resources/rules";
import type { Db } from "../../runs";
import type { ContentType } from "../cms/type-registry";
import type { StoredForHooks } from "../forms/submission-writer";
import { AUTOMATION_KIND, dispatchTrigger, dispatchTriggers } from "./triggers";

/**
 * Starts the automations of each answer; runs waiting for a form's answer from its client go on.
 * A batch of answers costs a few statements, not a few an answer: the runs awaiting their
 * clients and the automations are each read once.
 */
export function formSubmitted(ctx: AppContext) {
  return async (trx: AnyDb, stored: StoredForHooks[]): Promise<undefined> => {
    const db = trx as unknown as Db;
    if (!stored.length) return undefined;
    const events = stored.map((submission) => {
      // The client the CRM's hook (before this one) made or found of the answer, if any.
      const { clientId } = submission;
      return {
        subject: clientId ? { type: "client", id: clientId } : null,
        record: {
          ...submission.answers,
          answers: submission.answers,
          formId: submission.form.id,
          form: submission.form.name,
          submissionId: submission.id,
          submittedAt: submission.createdAt,
          utm: submission.tracking.parameters,
        },
      };
    });
    await ctx.runs.signalEach(db, {
      event: "form-submitted",
      kind: AUTOMATION_KIND,
      signals: events.flatMap((e) => (e.subject ? [{ subject: e.subject, data: e.record }] : [])),
    });
    await dispatchTriggers(
      ctx,
      db,
      events.map((e) => ({ kind: "form-submitted" as const, record: e.record, subject: e.subject })),
    );
    return undefined;
  };
}

/** Starts the automations of a published entry (`{{trigger.<field>}}`, `contentType` its API name). */
export function entryPublished(ctx: AppContext) {
  return async (trx: AnyDb, type: ContentType, entry: Record<string, unknown>): Promise<void> => {
    await dispatchTrigger(ctx, trx as unknown as Db, {
      kind: "cms-entry-published",
      record: { ...entry, contentType: type.apiName, contentTypeName: type.name },
    });
  };
}
