/**
 * Any entity's records as triggers (issue 30): "<entity> created", "<entity> updated" (when
 * chosen fields change) and "<entity> deleted", for every engine resource and CMS type. The
 * engine and the CMS tell the app's record watcher of their writes, in the write's transaction
 * (server/resources/record-events.ts); this watcher starts the runs through dispatchTriggers.
 *
 * Writes are hot paths (lists, imports, creates): which entities' writes of which kind some
 * active automation watches is kept in memory (active-automations.ts, cleared on every instance
 * when an automation changes: publish, status, delete), so a write nobody watches sends no
 * statement more and runs in its usual single statement.
 */
import type { AutomationDefinition, RecordTriggerKind } from "../../../schemas/automation";
import { isUuid } from "../../../schemas/uuid";
import type { AppContext } from "../../context";
import { parsedJson } from "../../db/json";
import type { RecordChange, RecordChangeType, RecordWatcher } from "../../resources/record-events";
import type { Db, Run } from "../../runs";
import { activeAutomations, type PublishedAutomation } from "./active-automations";
import { dispatchTriggers, type TriggerEvent } from "./triggers";

const KIND_OF: Readonly<Record<RecordChangeType, RecordTriggerKind>> = {
  created: "record-created",
  updated: "record-updated",
  deleted: "record-deleted",
};

/** Columns every write moves: a change of only these is no change a person made. */
const BOOKKEEPING = new Set(["updated_at", "updated_by", "revision", "version", "draft_changed"]);

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

/** The entities watched by a list of automations of one record trigger kind, once per list. */
const entitiesOf = new WeakMap<readonly PublishedAutomation[], ReadonlySet<string>>();

function watchedEntities(automations: readonly PublishedAutomation[]): ReadonlySet<string> {
  let set = entitiesOf.get(automations);
  if (!set) {
    const entities = new Set<string>();
    for (const a of automations) {
      if (!a.published) continue;
      const { trigger } = parsedJson<AutomationDefinition>(a.published);
      if (trigger.resource) entities.add(trigger.resource);
    }
    set = entities;
    entitiesOf.set(automations, set);
  }
  return set;
}

export class RecordTriggers implements RecordWatcher {
  constructor(private readonly ctx: AppContext) {}

  watches(entity: string, type: RecordChangeType): boolean | Promise<boolean> {
    const active = activeAutomations(this.ctx);
    const kind = KIND_OF[type];
    const known = active.known(kind);
    if (known) return watchedEntities(known).has(entity);
    // Read once per change of the automations, however many writes ask meanwhile.
    return active.ofKind(this.ctx.db, kind).then((list) => watchedEntities(list).has(entity));
  }

  async changed(db: unknown, changes: readonly RecordChange[]): Promise<void> {
    if (!changes.length) return;
    await dispatchTriggers(this.ctx, db as Db, changes.map(recordEvent));
  }
}
