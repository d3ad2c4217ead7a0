/**
 * Any entity's records as triggers (issue 30): "<entity> created", "<entity> updated" (when
 * chosen fields change) and "<entity> deleted", for every engine resource and CMS type. The
 * engine and the CMS tell the app's record watcher of their writes, in the write's transaction
 * (server/resources/record-events.ts); this watcher starts the runs through dispatchTriggers.
 *
 * Writes are hot paths (lists, imports, creates): which entities' writes of which kind some
 * active automation watches is kept in memory (a SharedCache, cleared on every instance when
 * an automation changes: publish, status, delete), so a write nobody watches sends no statement
 * more and runs in its usual single statement.
 */
import {
  type AutomationDefinition,
  RECORD_TRIGGER_KINDS,
  type RecordTriggerKind,
} from "../../../schemas/automation";
import { isUuid } from "../../../schemas/uuid";
import type { AppContext } from "../../context";
import { parsedJson } from "../../db/json";
import { SharedCache } from "../../db/shared-cache";
import type { RecordChange, RecordChangeType, RecordWatcher } from "../../resources/record-events";
import type { Db, Run } from "../../runs";
import { dispatchTriggers, type TriggerEvent } from "./triggers";

const CHANNEL = "atelier_automation_record_triggers";
const ALL = "all";

const KIND_OF: Readonly<Record<RecordChangeType, RecordTriggerKind>> = {
  created: "record-created",
  updated: "record-updated",
  deleted: "record-deleted",
};

/** Columns every write moves: a change of only these is no change a person made. */
const BOOKKEEPING = new Set(["updated_at", "updated_by", "revision", "version", "draft_changed"]);

const keyOf = (entity: string, kind: RecordTriggerKind) => `${entity}\u0000${kind}`;

/**
 * The fields whose values differ between `before` and `after` (as JSON: a list or an object
 * by content), the bookkeeping columns left out.
 *
 * @example
 * changedFields({ name: "A", city: "X" }, { name: "B", city: "X" }); // ["name"]
 */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter(
    (k) => !BOOKKEEPING.has(k) && JSON.stringify(before[k] ?? null) !== JSON.stringify(after[k] ?? null),
  );
}

/** The client a record is about: a client itself, or a record naming one (`client_id`). */
function subjectOf(entity: string, record: Record<string, unknown>): TriggerEvent["subject"] {
  if (entity === "clients" && isUuid(String(record.id))) return { type: "client", id: String(record.id) };
  if (typeof record.client_id === "string" && isUuid(record.client_id))
    return { type: "client", id: record.client_id };
  return null;
}

/** The trigger event of a record's change: its record, the one before, what changed. */
export function recordEvent(change: RecordChange): TriggerEvent {
  const record = (change.after ?? change.before ?? {}) as Record<string, unknown>;
  const changed = change.before && change.after ? changedFields(change.before, change.after) : [];
  return {
    kind: KIND_OF[change.type],
    entity: change.entity,
    changedFields: changed,
    record:
      change.type === "updated"
        ? { ...record, previous: change.before, changedFields: changed }
        : { ...record },
    subject: subjectOf(change.entity, record),
    parent: (change.cause as Run | null | undefined) ?? null,
    startedBy: change.actorId,
  };
}

export class RecordTriggers implements RecordWatcher {
  /** `entity\0kind` of every active automation's published record trigger. */
  private readonly watched: SharedCache<ReadonlySet<string>>;
  private loading: { generation: number; promise: Promise<ReadonlySet<string>> } | undefined;

  constructor(private readonly ctx: AppContext) {
    this.watched = new SharedCache(ctx, CHANNEL, 1);
    // After an automation's committed change (publish, status, delete: the engine's and the
    // module's events). Runs moving (`actorId` null, live.ts) change no trigger.
    ctx.events.subscribe((change) => {
      if (change.resource === "automations" && change.actorId !== null) void this.watched.changed();
    });
  }

  watches(entity: string, type: RecordChangeType): boolean | Promise<boolean> {
    const key = keyOf(entity, KIND_OF[type]);
    const known = this.watched.get(ALL);
    if (known) return known.has(key);
    return this.load().then((set) => set.has(key));
  }

  /** Reads the watched entities once per change of the automations, however many writes ask. */
  private load(): Promise<ReadonlySet<string>> {
    const generation = this.watched.generation;
    if (this.loading?.generation === generation) return this.loading.promise;
    const promise = this.read().then((set) => this.watched.keep(ALL, set, generation));
    this.loading = { generation, promise };
    // Shared while in flight only: once read, the cache keeps it (or, unconnected, nothing does).
    const done = () => {
      if (this.loading?.promise === promise) this.loading = undefined;
    };
    promise.then(done, done);
    return promise;
  }

  private async read(): Promise<ReadonlySet<string>> {
    const rows = await this.ctx.db
      .selectFrom("automations as a")
      .innerJoin("automation_definitions as d", "d.automation_id", "a.id")
      .select(["a.trigger_kind", "d.published"])
      .where("a.trigger_kind", "in", [...RECORD_TRIGGER_KINDS])
      .where("a.status", "=", "active")
      .where("a.published_version", "is not", null)
      .execute();
    const set = new Set<string>();
    for (const row of rows) {
      if (!row.published) continue;
      const { trigger } = parsedJson<AutomationDefinition>(row.published);
      if (trigger.resource) set.add(keyOf(trigger.resource, trigger.kind as RecordTriggerKind));
    }
    return set;
  }

  async changed(db: unknown, changes: readonly RecordChange[]): Promise<void> {
    if (!changes.length) return;
    await dispatchTriggers(this.ctx, db as Db, changes.map(recordEvent));
  }
}
