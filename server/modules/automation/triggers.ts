/**
 * Trigger dispatch (issue 17): an event of the product (a client created, an opportunity moved,
 * a form answered, a CMS entry published, a schedule's time, a webhook's post, a person's click)
 * starts a run of each active automation whose published trigger is of that kind and matches it
 * (its stage, form, content type, and its filter over the event's record), in the caller's
 * transaction: the run exists only if the event's write commits.
 *
 * A run that a step of another run caused names it as `parent`: the engine then refuses a run of
 * an automation already in the chain (an automation's own action never triggers it again) and
 * chains deeper than MAX_RUN_DEPTH (docs/runs.md, "Chains"). Those are skipped, not errors: the
 * event's write goes on.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import type { AutomationDefinition, Trigger, TriggerKind } from "../../../schemas/automation";
import { matches } from "../../../schemas/conditions";
import type { AppContext } from "../../context";
import type { Database } from "../../db";
import { parsedJson } from "../../db/json";
import { BoundStatements } from "../../db/statements";
import { type Run, RunChainError, type RunSubject } from "../../runs";
import { activeAutomations, type PublishedAutomation } from "./active-automations";
import type { AutomationContext } from "./run-scope";

export const AUTOMATION_KIND = "automation";

type Db = Kysely<Database> | Transaction<Database>;

export interface TriggerEvent {
  kind: TriggerKind;
  /** The event's record: what the trigger's filter and `{{trigger.…}}` read. */
  record: Record<string, unknown>;
  /** The client the run is about, when there is one (exits, events and client actions find it). */
  subject?: RunSubject | null;
  /** The run whose step caused the event. */
  parent?: Run | null;
  /** This automation only (a schedule's job, a webhook, a person's click). */
  automationId?: string;
  /**
   * A person's click on Run (`automationId` required): whatever the automation's status and
   * trigger, no filter.
   */
  byHand?: boolean;
  startedBy?: string | null;
  /** Record triggers: the entity whose record changed (record-triggers.ts). */
  entity?: string;
  /** record-updated: the fields whose values changed. */
  changedFields?: readonly string[];
}

/** Whether a published trigger is for this event (before its filter). */
export function triggerFits(trigger: Trigger, event: TriggerEvent): boolean {
  if (trigger.kind !== event.kind) return false;
  const r = event.record;
  switch (trigger.kind) {
    case "opportunity-stage-changed":
      return !trigger.stage || trigger.stage === r.stage;
    case "form-submitted":
      return !trigger.formId || trigger.formId === r.formId;
    case "cms-entry-published":
      return !trigger.contentType || trigger.contentType === r.contentType;
    case "record-created":
    case "record-deleted":
      return trigger.resource === event.entity;
    case "record-updated": {
      if (trigger.resource !== event.entity) return false;
      const changed = event.changedFields ?? [];
      // Only when one of the chosen fields changed; with none chosen, when any did.
      return trigger.fields?.length ? trigger.fields.some((f) => changed.includes(f)) : changed.length > 0;
    }
    default:
      return true;
  }
}

/** Starts the runs an event triggers; answers them. */
export function dispatchTrigger(ctx: AppContext, db: Db, input: TriggerEvent): Promise<Run[]> {
  return dispatchTriggers(ctx, db, [input]);
}

/** One automation (a schedule's job, a webhook, a click), kept by shape. */
const candidateReads = new BoundStatements();

/**
 * Starts the runs of many events (a batch of form answers, the clients they made), in their
 * order: the automations each kind of event may start are read once, not once an event.
 */
export async function dispatchTriggers(
  ctx: AppContext,
  db: Db,
  inputs: readonly TriggerEvent[],
): Promise<Run[]> {
  const read = new Map<string, Promise<readonly PublishedAutomation[]>>();
  const candidates = (event: TriggerEvent) => {
    // An event's kind: the active automations of that trigger, kept in memory (active-automations.ts).
    if (!event.byHand && !event.automationId) return activeAutomations(ctx).ofKind(db, event.kind);
    const key = `${event.byHand ? "" : event.kind}\u0000${event.automationId ?? ""}`;
    let found = read.get(key);
    if (!found) {
      const values = { kind: event.kind, automationId: event.automationId };
      const shape = event.byHand ? "by hand, one" : "on event, one";
      found = db
        .executeQuery(
          candidateReads.bind(shape, values, (slot) => {
            let query = db
              .selectFrom("automations as a")
              .innerJoin("automation_definitions as d", "d.automation_id", "a.id")
              .select(["a.id", "a.published_version", "d.published"])
              .where("a.published_version", "is not", null)
              .where("a.id", "=", slot<string>("automationId"));
            if (!event.byHand)
              query = query
                .where("a.trigger_kind", "=", slot<string>("kind"))
                .where("a.status", "=", sql.lit("active"));
            return query.compile();
          }),
        )
        .then((r) => r.rows);
      read.set(key, found);
    }
    return found;
  };
  const started: Run[] = [];
  for (const input of inputs) {
    const automations = await candidates(input);
    // Most events start nothing: their records are not copied then.
    if (!automations.length) continue;
    // As JSON, as the run keeps it: dates as ISO text, so the filter reads what later steps read.
    const event = { ...input, record: JSON.parse(JSON.stringify(input.record)) as Record<string, unknown> };
    for (const automation of automations) {
      const run = await startAutomation(ctx, db, automation, event);
      if (run) started.push(run);
    }
  }
  // The automation's last run and open pages follow through the run engine's change feed
  // (automation.kind.ts, onRunsChanged): no row every run of an automation shares is written here.
  return started;
}

/** Flows kept per published version: a version's flow never changes (a publish makes the next). */
const publishedFlows = new Map<string, AutomationDefinition>();
/** Far more than the automations a workspace publishes: a bound, not a working limit. */
const MAX_KEPT_FLOWS = 1000;

/**
 * An automation's published flow, the same object for each of its version's runs: the run
 * engine writes a definition object as canonical JSON and hashes it once (engine.ts).
 */
function publishedFlow(automation: PublishedAutomation): AutomationDefinition {
  const key = `${automation.id}:${automation.published_version}`;
  let flow = publishedFlows.get(key);
  if (!flow) {
    flow = parsedJson<AutomationDefinition>(automation.published);
    if (publishedFlows.size >= MAX_KEPT_FLOWS) publishedFlows.clear();
    publishedFlows.set(key, flow);
  }
  return flow;
}

/**
 * Starts a run of one automation for an event whose record is JSON already (dispatchTrigger; a
 * person's click, which read the automation itself): null when its trigger or filter does not
 * match, or the chain refuses it.
 */
export async function startAutomation(
  ctx: AppContext,
  db: Db,
  automation: PublishedAutomation,
  event: TriggerEvent,
): Promise<Run | null> {
  if (!automation.published) return null;
  const definition = publishedFlow(automation);
  if (!event.byHand && !triggerFits(definition.trigger, event)) return null;
  if (!event.byHand && !matches(event.record, definition.trigger.filter ?? [])) return null;
  try {
    const { run } = await ctx.runs.start<AutomationDefinition, AutomationContext>(db, {
      kind: AUTOMATION_KIND,
      ownerKey: automation.id,
      version: automation.published_version ?? 1,
      definition,
      subject: event.subject ?? null,
      context: { trigger: event.kind, record: event.record, startedBy: event.startedBy ?? null },
      parent: event.parent ?? null,
    });
    return run;
  } catch (error) {
    if (!(error instanceof RunChainError)) throw error;
    ctx.log.info(
      { automationId: automation.id, reason: error.reason },
      `automation not started: ${error.message}`,
    );
    return null;
  }
}
