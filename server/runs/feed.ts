/**
 * The change feed of runs: once a second, which owners' runs moved (started, stepped, ended)
 * is told to the kinds that ask (`onRunsChanged`): live pages, an owner's "last run". It reads
 * committed rows, so a page told to read again finds the move; and it costs a run's
 * transaction nothing (no row shared by every run of an owner is written in it, which would
 * make runs of one owner wait on each other).
 *
 * One recurring job for the database (server/jobs: `recurring`), whichever instance is free.
 * A move is looked for FEED_LOOKBACK_MS after its time (`updated_at` is stamped before its
 * transaction commits); a move told once is not told again by the same instance.
 */
import { sql } from "kysely";
import type { RunsMoved } from "./contract";
import type { EngineCore } from "./core";

export const FEED_JOB = "runs.feed";
export const FEED_EVERY_MS = 1000;
/** How long after its stamp a move may commit and still be seen. */
export const FEED_LOOKBACK_MS = 5000;

interface FeedState {
  /** The latest move told (ISO), or null before the first. */
  since: string | null;
}

/** Registers the feed's job on the engine's queue (once, when a kind first asks for it). */
export function registerFeed(core: EngineCore): void {
  /** `kind owner` → the move last told (ms), to tell each move once. */
  const told = new Map<string, number>();
  core.jobs.recurring<FeedState>(FEED_JOB, FEED_EVERY_MS, { since: null }, async ({ payload }) => {
    const kinds = [...core.kinds.values()].filter((k) => k.kind.onRunsChanged);
    if (!kinds.length) return payload;
    const since = payload.since ? Date.parse(payload.since) : Date.now();
    const from = new Date(since - FEED_LOOKBACK_MS);
    const { rows } = await sql<{ kind: string; owner_key: string; moved_at: Date; last_started_at: Date }>`
      select kind, owner_key, max(updated_at) as moved_at, max(started_at) as last_started_at
      from runs
      where kind = any(cast(${kinds.map((k) => k.name)} as text[])) and updated_at > ${from}
      group by kind, owner_key
    `.execute(core.db);
    let latest = since;
    const byKind = new Map<string, RunsMoved[]>();
    for (const row of rows) {
      const movedAt = new Date(row.moved_at).getTime();
      latest = Math.max(latest, movedAt);
      const key = `${row.kind} ${row.owner_key}`;
      if ((told.get(key) ?? 0) >= movedAt) continue;
      told.set(key, movedAt);
      const list = byKind.get(row.kind) ?? [];
      list.push({
        ownerKey: row.owner_key,
        movedAt: new Date(movedAt),
        lastStartedAt: new Date(row.last_started_at),
      });
      byKind.set(row.kind, list);
    }
    for (const [key, at] of told) if (at < latest - 2 * FEED_LOOKBACK_MS) told.delete(key);
    for (const entry of kinds) {
      const moved = byKind.get(entry.name);
      if (!moved?.length) continue;
      try {
        await entry.kind.onRunsChanged?.(core.db, moved);
      } catch (err) {
        core.log.error({ err, kind: entry.name }, "a kind's onRunsChanged failed");
      }
    }
    return { since: new Date(latest).toISOString() };
  });
}
