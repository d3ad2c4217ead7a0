/**
 * Views of public forms (the insights' "views" beside submissions), counted in memory and
 * written every few seconds as one upsert per form, day and utm_source: a page view costs no
 * query. What a crash loses is a few seconds of views, never a submission (those are counted
 * in their own transaction).
 */
import { sql } from "kysely";
import type { AppContext } from "../../context";

const FLUSH_MS = 2000;

export class ViewCounter {
  private counts = new Map<string, { formId: string; source: string; n: number }>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: Pick<AppContext, "db" | "log">) {}

  count(formId: string, source: string): void {
    const key = `${formId}\u0000${source}`;
    const c = this.counts.get(key) ?? { formId, source: source.slice(0, 500), n: 0 };
    c.n++;
    this.counts.set(key, c);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /** Writes what was counted (on a timer, and when the app closes). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = [...this.counts.values()];
    this.counts = new Map();
    if (!rows.length) return;
    try {
      await this.ctx.db
        .insertInto("form_stats")
        .values(
          rows.map((c) => ({ form_id: c.formId, day: sql`current_date`, utm_source: c.source, views: c.n })),
        )
        .onConflict((oc) =>
          oc
            .columns(["form_id", "day", "utm_source"])
            .doUpdateSet({ views: sql`form_stats.views + excluded.views` }),
        )
        .execute();
    } catch (err) {
      // A form deleted meanwhile (foreign key) or the database away: these views are lost.
      this.ctx.log.warn({ err }, "form views not counted");
    }
  }
}
