/**
 * Views of public forms (the insights' "views" beside submissions), counted in memory and
 * written every few seconds as one upsert per form, day and utm_source: a page view costs no
 * query. What a crash loses is a few seconds of views, never a submission (those are counted
 * in their own transaction).
 */
import { sql } from "kysely";
import type { AppContext } from "../../context";

const FLUSH_MS = 2000;
/** Longest utm_source kept. */
const MAX_SOURCE = 200;
/** Form and source pairs counted per round at most; more sources are pooled under OTHER_SOURCE. */
const MAX_KEYS = 5000;
export const OTHER_SOURCE = "(other)";

interface Count {
  formId: string;
  source: string;
  n: number;
}

export class ViewCounter {
  private counts = new Map<string, Count>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly ctx: Pick<AppContext, "db" | "log">) {}

  count(formId: string, given: string): void {
    // The key is the source as stored, so two sources cut to the same text are one row; past
    // the first ones of a round sources are pooled, so a visitor inventing sources cannot grow
    // the map (or the table) without bound.
    let source = given.slice(0, MAX_SOURCE);
    if (this.counts.size >= MAX_KEYS && !this.counts.has(`${formId}\u0000${source}`)) source = OTHER_SOURCE;
    const key = `${formId}\u0000${source}`;
    const c = this.counts.get(key) ?? { formId, source, n: 0 };
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
      await this.write(rows);
    } catch {
      // One form deleted meanwhile (its foreign key) must not lose the other forms' views.
      for (const row of rows)
        await this.write([row]).catch((err) => this.ctx.log.warn({ err }, "form views not counted"));
    }
  }

  private async write(rows: Count[]): Promise<void> {
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
  }
}
