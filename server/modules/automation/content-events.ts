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
import { AUTOMATION_KIND, dispatchTrigger } from "./triggers";

/** Starts the automations of each answer; runs waiting for a form's answer from its client go on. */
export function formSubmitted(ctx: AppContext) {
  return async (trx: AnyDb, stored: StoredForHooks[]): Promise<undefined> => {
    const db = trx as unknown as Db;
    for (const submission of stored) {
      // The client the CRM made of this answer (its timeline entry names it), if any.
      const entry = await db
        .selectFrom("crm_timeline")
        .select("client_id")
        .where("dedupe_key", "=", `form:${submission.id}`)
        .executeTakeFirst();
      const subject = entry ? { type: "client", id: entry.client_id } : null;
      const record = {
        ...submission.answers,
        answers: submission.answers,
        formId: submission.form.id,
        form: submission.form.name,
        submissionId: submission.id,
        submittedAt: submission.createdAt,
        utm: submission.tracking.parameters,
      };
      if (subject)
        await ctx.runs.signal(db, { event: "form-submitted", subject, kind: AUTOMATION_KIND, data: record });
      await dispatchTrigger(ctx, db, { kind: "form-submitted", record, subject });
    }
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
