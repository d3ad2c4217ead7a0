/**
 * Two writes of each batch of new submissions (submission-writer.ts), in its transaction: the
 * uploaded files each answer claims, and the day's counts by form and UTM source.
 */
import { sql } from "kysely";
import { badRequest } from "../../http/errors";
import type { AnyDb } from "../../resources/rules";

interface Fresh {
  item: { form: { id: string }; files: string[]; tracking: { parameters: Record<string, string> } };
  id: string;
}

/**
 * Gives each answer its uploaded files; a file another answer claimed meanwhile refuses this
 * one (400: its batch is written again without it, SubmissionWriter.run).
 */
export async function claimFiles(trx: AnyDb, fresh: readonly Fresh[]): Promise<void> {
  for (const { item, id } of fresh) {
    if (!item.files.length) continue;
    const claimed = await trx
      .updateTable("form_files")
      .set({ submission_id: id })
      .where("token", "in", item.files)
      .where("form_id", "=", item.form.id)
      .where("submission_id", "is", null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== new Set(item.files).size)
      throw badRequest("A file of this answer was sent with another answer; choose it again", [
        { field: "files", message: "A file was sent with another answer already; choose it again" },
      ]);
  }
}

/**
 * Adds the batch's answers to the day's counts. Last in the batch: the day's row is shared by
 * every batch, so its lock is held only until the commit.
 */
export async function countDay(trx: AnyDb, fresh: readonly Fresh[]): Promise<void> {
  const counts = new Map<string, { formId: string; source: string; n: number }>();
  for (const { item } of fresh) {
    const source = item.tracking.parameters.utm_source ?? "";
    const key = `${item.form.id}\u0000${source}`;
    const c = counts.get(key) ?? { formId: item.form.id, source, n: 0 };
    c.n++;
    counts.set(key, c);
  }
  await trx
    .insertInto("form_stats")
    .values(
      // In one order in every batch, so two batches on PostgreSQL never wait on each other in a loop.
      [...counts.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([, c]) => ({
          form_id: c.formId,
          day: sql`current_date`,
          utm_source: c.source,
          submissions: c.n,
        })),
    )
    .onConflict((oc) =>
      oc
        .columns(["form_id", "day", "utm_source"])
        .doUpdateSet({ submissions: sql`form_stats.submissions + excluded.submissions` }),
    )
    .execute();
}
