/**
 * Telling a form's owner that it was answered (notification kind `forms.answer`, issue 27).
 *
 * A form's owner is the person who created it (`forms.created_by`); when that person can no
 * longer read it (account deleted or disabled, the forms module taken away), the forms
 * module's administrators are told instead, so an answer is never heard by nobody. Written in the submissions' own transaction (SubmissionWriter.onStored),
 * so a notification exists exactly when its answers do. One notification per form and batch:
 * fifty people answering at once is one line in the bell ("50 new answers"), not fifty.
 */
import { forms as formsResource } from "../../../resources/forms";
import { answerText } from "../../../schemas/form-answers";
import { recordPath } from "../../../src/resources/routes";
import type { AppContext } from "../../context";
import type { StoredForHooks, SubmissionHook } from "./submission-writer";

/** Answered fields shown in the notification's text: enough to see who and what. */
const SUMMARY_FIELDS = 3;
/** Kinds whose answers say nothing to a reader (hidden values, upload tokens). */
const UNSHOWN = new Set(["hidden", "file"]);

/** "Name: Asha Rao · Email: asha@example.com", from the first answered fields. */
export function answerSummary(stored: Pick<StoredForHooks, "form" | "answers">): string {
  return stored.form.definition.fields
    .filter((f) => !UNSHOWN.has(f.kind) && Object.hasOwn(stored.answers, f.id))
    .map((f) => ({ label: f.label, text: answerText(f, stored.answers[f.id]).trim() }))
    .filter((a) => a.text)
    .slice(0, SUMMARY_FIELDS)
    .map((a) => `${a.label}: ${a.text}`)
    .join(" · ");
}

export function notifyFormOwners(ctx: AppContext): SubmissionHook {
  return async (trx, stored) => {
    const byForm = new Map<string, StoredForHooks[]>();
    for (const s of stored) byForm.set(s.form.id, [...(byForm.get(s.form.id) ?? []), s]);
    const pushes: Array<() => Promise<void>> = [];
    for (const [id, answers] of byForm) {
      const first = answers[0];
      const { name, ownerId } = first.form;
      const notice = {
        kind: "forms.answer" as const,
        title:
          answers.length === 1 ? `New answer to "${name}"` : `${answers.length} new answers to "${name}"`,
        body: answers.length === 1 ? answerSummary(first) : undefined,
        link: `${recordPath(formsResource, "show", id)}?tab=submissions`,
        data: { formId: id, submissionIds: answers.map((a) => a.id) },
      };
      const db = trx as unknown as AppContext["db"];
      // Pushed to open pages after the batch commits, with the batch's own live events.
      const options = { push: "caller" } as const;
      // The owner as the published form knew them (its cache): notify() leaves them out if
      // their account is gone, disabled or without the module since.
      let told = ownerId
        ? await ctx.notifications.notify(db, { ...notice, userIds: [ownerId] }, options)
        : null;
      // No creator who can still read it (deleted, disabled, the module taken away): the admins.
      if (!told?.userIds.length)
        told = await ctx.notifications.notifyModuleUsers(db, { ...notice, adminsOnly: true }, options);
      pushes.push(told.push);
    }
    if (!pushes.length) return undefined;
    return () => {
      for (const push of pushes)
        push().catch((err) =>
          ctx.log.warn({ err }, "could not push new answers' notifications to open pages"),
        );
    };
  };
}
