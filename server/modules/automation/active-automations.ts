/**
 * The active, published automations of each trigger kind, kept in memory until an automation
 * changes (publish, status, delete: the engine's and the module's events, with a person as
 * actor), on every instance (a SharedCache). Events are hot paths: a batch of form answers, a
 * record's write, a published entry each ask which automations they may start, and without
 * this each asked the database, in the event's own transaction, a statement on the batch's path.
 *
 * All of them are read at once (a workspace has tens, not thousands), in the caller's
 * transaction when there is one (on PGlite, one connection, a read beside the transaction would
 * wait for it); kept only when no automation changed meanwhile.
 */
import type { TriggerKind } from "../../../schemas/automation";
import type { AppContext } from "../../context";
import { SharedCache } from "../../db/shared-cache";
import type { Db } from "../../runs";

const CHANNEL = "atelier_automations_active";

/** An automation as dispatch reads it: its published version and flow. */
export interface PublishedAutomation {
  id: string;
  published_version: number | null;
  published: unknown;
}

/** The active automations by trigger kind; kinds none has are absent. */
type ByKind = ReadonlyMap<string, readonly PublishedAutomation[]>;

const ALL = "all";
const NONE: readonly PublishedAutomation[] = [];

export class ActiveAutomations {
  /** One entry (ALL): every active automation is read at once, as there are few. */
  private readonly cache: SharedCache<ByKind>;
  /** A read of the root database in flight, shared by the callers that ask meanwhile. */
  private loading: { generation: number; promise: Promise<ByKind> } | undefined;

  constructor(private readonly ctx: Pick<AppContext, "broadcast" | "log" | "events" | "db">) {
    this.cache = new SharedCache(ctx, CHANNEL, 1);
    // After an automation's committed change. Runs moving (`actorId` null, live.ts) change no trigger.
    ctx.events.subscribe((change) => {
      if (change.resource === "automations" && change.actorId !== null) void this.cache.changed();
    });
  }

  /** Those of `kind` when kept, without waiting (a write's hot path), else undefined. */
  known(kind: TriggerKind): readonly PublishedAutomation[] | undefined {
    const all = this.cache.get(ALL);
    return all ? (all.get(kind) ?? NONE) : undefined;
  }

  /**
   * The active published automations whose trigger is `kind`, in id order, read in `db` (the
   * caller's transaction, where there is one) when not kept.
   */
  async ofKind(db: Db, kind: TriggerKind): Promise<readonly PublishedAutomation[]> {
    const all = this.cache.get(ALL) ?? (await this.load(db));
    return all.get(kind) ?? NONE;
  }

  private load(db: Db): Promise<ByKind> {
    const generation = this.cache.generation;
    if (db !== this.ctx.db) return this.read(db).then((all) => this.cache.keep(ALL, all, generation));
    if (this.loading?.generation === generation) return this.loading.promise;
    const promise = this.read(db).then((all) => this.cache.keep(ALL, all, generation));
    this.loading = { generation, promise };
    // Shared while in flight only: once read, the cache keeps it (or, unconnected, nothing does).
    const done = () => {
      if (this.loading?.promise === promise) this.loading = undefined;
    };
    promise.then(done, done);
    return promise;
  }

  private async read(db: Db): Promise<ByKind> {
    const rows = await db
      .selectFrom("automations as a")
      .innerJoin("automation_definitions as d", "d.automation_id", "a.id")
      .select(["a.id", "a.trigger_kind", "a.published_version", "d.published"])
      .where("a.published_version", "is not", null)
      .where("a.status", "=", "active")
      .orderBy("a.id")
      .execute();
    const byKind = new Map<string, PublishedAutomation[]>();
    for (const { trigger_kind, ...automation } of rows) {
      if (!trigger_kind) continue;
      const list = byKind.get(trigger_kind);
      if (list) list.push(automation);
      else byKind.set(trigger_kind, [automation]);
    }
    return byKind;
  }
}
/** By the app's event bus: one per app, also for a copy of its context with another `db`. */
const perApp = new WeakMap<object, ActiveAutomations>();

/** The app's ActiveAutomations (made on first use). */
export function activeAutomations(ctx: AppContext): ActiveAutomations {
  let active = perApp.get(ctx.events);
  if (!active) {
    active = new ActiveAutomations(ctx);
    perApp.set(ctx.events, active);
  }
  return active;
}
