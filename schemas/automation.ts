/**
 * An automation as the canvas edits it and the run engine walks it (issue 17, spec §3
 * "Automation definitions: a trigger and steps of three kinds"): a trigger, then a tree of steps.
 *
 * - Steps follow each other in a list; a branching step (a condition: yes/no, a wait for an
 *   event: event/timeout) ends its list, and what comes after it lives in its branches. Branches
 *   never join again, so every path is a line from the trigger to an end.
 * - A step's `id` is its key everywhere: the canvas node's id, the run engine's step key (the
 *   key of its output in `run.outputs`), and the `nodeId` of a publish problem. It is stable:
 *   inserting or removing other steps never changes it (their numbers change, not their ids).
 * - Conditions are the one condition language (schemas/conditions.ts): an `and`/`or` group of
 *   `{ field, operator, value }` leaves (left operand, comparator, right operand), nestable.
 * - A draft may be incomplete (an action without a type, an email without a subject): the types
 *   allow it, and `publishProblems` (automation-checks.ts) lists what a publish needs.
 *
 * Pure data: no Node, no React. The JSON Schema is in automation-schema.ts.
 */
import type { DelayUnit } from "../src/lib/delays";
import type { ConditionalFilter, CrudFilter } from "./conditions";

// The trigger kinds and their labels live in their own module: the app shell's resource list
// (schemas/automations.ts) needs them without the rest of this model.
export {
  CMS_ENTITY_PREFIX,
  isRecordTrigger,
  RECORD_TRIGGER_KINDS,
  type RecordTriggerKind,
  TRIGGER_KINDS,
  TRIGGER_LABELS,
  type TriggerKind,
} from "./automation-triggers";

import type { TriggerKind } from "./automation-triggers";

/**
 * What starts a run. Each kind reads its own fields: `stage` (the stage moved to; any when
 * empty), `formId`, `contentType` (any when empty), `cron` + `timeZone`; a record trigger
 * (`record-created`/`-updated`/`-deleted`) its `resource` and, when updated, `fields` (any change
 * when empty). An incoming webhook's
 * secret is not part of the definition: the server keeps it apart and shows the URL.
 */
export interface Trigger {
  kind: TriggerKind;
  stage?: string | null;
  formId?: string | null;
  contentType?: string | null;
  /** Record triggers: the entity, an engine resource's name or `cms:<apiName>`. */
  resource?: string | null;
  /** record-updated: only when one of these fields changes (any change when empty). */
  fields?: string[];
  /** Five fields: minute hour day-of-month month day-of-week ("0 9 * * 1-5"). */
  cron?: string;
  /** IANA zone the cron is read in ("Europe/Paris"). */
  timeZone?: string;
  /** Events whose record does not match create no run (an implicit `and`, as a list's filters). */
  filter?: CrudFilter[];
}

export const DELAY_MODES = ["for", "until"] as const;
export type DelayMode = (typeof DELAY_MODES)[number];

/**
 * Events a run may wait for; the run's subject (its client) is the one the event is about. Each
 * is signalled where it happens (docs/automation-api.md). An open or a click is of the email the
 * run sent last before the wait, else of any CRM email to the client (server/mail/tracking.ts
 * signs the pixel and links that record them).
 */
export const WAIT_EVENTS = [
  "email-opened",
  "email-clicked",
  "email-replied",
  "sms-replied",
  "form-submitted",
  "opportunity-stage-changed",
  "cart-converted",
] as const;
export type WaitEvent = (typeof WAIT_EVENTS)[number];

export const WAIT_EVENT_LABELS: Readonly<Record<WaitEvent, string>> = {
  "email-opened": "The email is opened",
  "email-clicked": "A link in the email is clicked",
  "email-replied": "The email is answered",
  "sms-replied": "The SMS is answered",
  "form-submitted": "A form is submitted",
  "opportunity-stage-changed": "The opportunity changes stage",
  "cart-converted": "The store cart becomes an order",
};

/**
 * The wait event a signalled name stands for: a wait for the open or click of the email its run
 * sent awaits `email-opened:<message id>` (its output's `event` reads so); other names are
 * themselves. Null for a name that is no wait event.
 *
 * @example
 * waitEventOf("email-opened:0b9d3f0e-…"); // "email-opened"
 */
export function waitEventOf(name: string): WaitEvent | null {
  const event = name.split(":")[0];
  return (WAIT_EVENTS as readonly string[]).includes(event) ? (event as WaitEvent) : null;
}

/**
 * The action options as the sidebar's select offers them (spec §4: the stored type is the
 * option's value with spaces replaced by underscores, `actionTypeName`).
 */
export const ACTION_OPTIONS = [
  { value: "send email", label: "Send email" },
  { value: "send sms", label: "Send SMS" },
  { value: "create record", label: "Create record" },
  { value: "update record", label: "Update record" },
  { value: "find record", label: "Find record" },
  { value: "add tag", label: "Add tag" },
  { value: "enrol in sequence", label: "Enrol in sequence" },
  { value: "http request", label: "HTTP request" },
] as const;

export const ACTION_TYPES = [
  "send_email",
  "send_sms",
  "create_record",
  "update_record",
  "find_record",
  "add_tag",
  "enrol_in_sequence",
  "http_request",
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/**
 * The action type name of an option value (spec §4): the value with spaces replaced by
 * underscores.
 *
 * @example
 * actionTypeName("enrol in sequence"); // "enrol_in_sequence"
 */
export const actionTypeName = (option: string): string => option.replace(/ /g, "_");

export const ACTION_LABELS: Readonly<Record<ActionType, string>> = Object.fromEntries(
  ACTION_OPTIONS.map((o) => [actionTypeName(o.value), o.label]),
) as Record<ActionType, string>;

/**
 * The CRM records an action creates or updates by their first names (kept: flows published
 * before issue 30 name them so). Any other entity is named as a record trigger's `resource`.
 */
export const RECORD_RESOURCES = ["client", "opportunity", "task"] as const;
export type RecordResource = (typeof RECORD_RESOURCES)[number];
/** An entity a record action writes or finds: a CRM record's first name, a resource, `cms:<apiName>`. */
export type EntityName = RecordResource | (string & {});

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface HttpHeader {
  name: string;
  value: string;
}

/**
 * An action's inputs; each type reads its own (`ACTION_INPUTS`). Texts may hold variables
 * (`{{client.email}}`, `{{steps.<id>.<field>}}`), filled in when the step runs.
 */
export interface ActionInputs {
  /** send_email, send_sms: the address or number. */
  to?: string;
  subject?: string;
  /** send_email, send_sms: the message; http_request: the JSON body, as text. */
  body?: string;
  templateId?: string | null;
  resource?: EntityName;
  /** update_record: the record, usually a variable (`{{client.id}}`). */
  recordId?: string;
  /** create_record, update_record: field key → value (text with variables). */
  fields?: Record<string, string>;
  /** find_record: field key → the value it must equal (text with variables); the first match. */
  match?: Record<string, string>;
  tag?: string;
  sequenceId?: string | null;
  method?: HttpMethod;
  url?: string;
  headers?: HttpHeader[];
}

/** The inputs each action type reads; others are dropped by `cleanInputs`. */
export const ACTION_INPUTS: Readonly<Record<ActionType, ReadonlyArray<keyof ActionInputs>>> = {
  send_email: ["to", "subject", "body", "templateId"],
  send_sms: ["to", "body", "templateId"],
  create_record: ["resource", "fields"],
  update_record: ["resource", "recordId", "fields"],
  find_record: ["resource", "match"],
  add_tag: ["tag"],
  enrol_in_sequence: ["sequenceId"],
  http_request: ["method", "url", "headers", "body"],
};

/** Inputs with only those the action's type reads (the sidebar keeps others while a person switches). */
export function cleanInputs(type: ActionType | null, inputs: ActionInputs): ActionInputs {
  const keep: readonly string[] = type ? ACTION_INPUTS[type] : [];
  return Object.fromEntries(
    Object.entries(inputs).filter(([k, v]) => keep.includes(k) && v !== undefined),
  ) as ActionInputs;
}

interface StepBase {
  /** Unique in the definition: `STEP_ID_PATTERN`. */
  id: string;
  /** A name a person gave the step, shown on its card. */
  name?: string;
}

export interface ConditionStep extends StepBase {
  kind: "condition";
  /** The logical operator and its conditions; groups nest. */
  condition: ConditionalFilter;
  branches: { yes: Step[]; no: Step[] };
}

export interface DelayStep extends StepBase {
  kind: "delay";
  /** `for` an amount of time, or `until` a date-time in a time zone. */
  mode: DelayMode;
  amount?: number;
  unit?: DelayUnit;
  /** "YYYY-MM-DDTHH:mm", read in `timeZone`. */
  until?: string;
  timeZone?: string;
}

export interface WaitForEventStep extends StepBase {
  kind: "wait";
  event: WaitEvent | null;
  /** How long to wait before the timeout branch is taken. */
  timeout: { amount?: number; unit?: DelayUnit };
  branches: { event: Step[]; timeout: Step[] };
}

export interface ActionStep extends StepBase {
  kind: "action";
  type: ActionType | null;
  inputs: ActionInputs;
}

export type Step = ConditionStep | DelayStep | WaitForEventStep | ActionStep;
export type StepKind = Step["kind"];
export type BranchingStep = ConditionStep | WaitForEventStep;

export const STEP_KINDS = ["condition", "delay", "wait", "action"] as const satisfies StepKind[];

export const STEP_KIND_LABELS: Readonly<Record<StepKind, string>> = {
  condition: "Condition",
  delay: "Delay",
  wait: "Wait for event",
  action: "Action",
};

/** Branch names of each branching kind, in the order they are numbered and laid out. */
export const BRANCHES = {
  condition: ["yes", "no"],
  wait: ["event", "timeout"],
} as const;
export type Branch = "yes" | "no" | "event" | "timeout";

export const BRANCH_LABELS: Readonly<Record<Branch, string>> = {
  yes: "Yes",
  no: "No",
  event: "Event",
  timeout: "Timeout",
};

export interface AutomationDefinition {
  trigger: Trigger;
  steps: Step[];
}

/** Lower-case letters, digits and dashes, starting with a letter: never `:` (parent ids use it). */
export const STEP_ID_PATTERN = "^[a-z][a-z0-9-]{0,39}$";
/** The trigger's node id; no step may take it. */
export const TRIGGER_ID = "trigger";
export const MAX_STEPS = 200;
/** Branching steps inside branching steps, at most. */
export const MAX_BRANCH_DEPTH = 8;
/** Groups inside groups of a condition, at most. */
export const MAX_CONDITION_DEPTH = 4;

export const isBranching = (step: Step): step is BranchingStep =>
  step.kind === "condition" || step.kind === "wait";

/** The branch names of a step ([] for a step that does not branch). */
export const branchesOf = (step: Step): readonly Branch[] => (isBranching(step) ? BRANCHES[step.kind] : []);

/** The steps of one branch of a branching step. */
export const branchSteps = (step: BranchingStep, branch: Branch): Step[] =>
  (step.branches as Record<string, Step[] | undefined>)[branch] ?? [];

/**
 * Every step, depth-first in run order: a step, then its branches in order (yes before no),
 * then the steps after it. Its index + 1 is the step's number on the canvas.
 *
 * @example
 * walkSteps(definition.steps).map((s) => s.id); // ["check", "welcome", "nudge", "wait"]
 */
export function walkSteps(steps: readonly Step[]): Step[] {
  return steps.flatMap((step) => [
    step,
    ...branchesOf(step).flatMap((b) => walkSteps(branchSteps(step as BranchingStep, b))),
  ]);
}

/** Each step's number (1 for the first after the trigger), depth-first, yes branch before no. */
export function stepNumbers(steps: readonly Step[]): Map<string, number> {
  return new Map(walkSteps(steps).map((s, i) => [s.id, i + 1]));
}

/** A new automation: a trigger of `kind` and no steps. */
export const emptyAutomation = (kind: TriggerKind = "client-created"): AutomationDefinition => ({
  trigger: { kind },
  steps: [],
});

/**
 * An id for a new step of `kind`, unique among `taken` ("action-3").
 *
 * @example
 * newStepId("delay", ["delay-1"]); // "delay-2"
 */
export function newStepId(kind: StepKind, taken: Iterable<string>): string {
  const used = new Set(taken);
  const base = kind.replace(/_/g, "-");
  let n = 1;
  while (used.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/** A new, still empty step of `kind`, as the plus node's menu inserts it. */
export function newStep(kind: StepKind, id: string): Step {
  switch (kind) {
    case "condition":
      return { id, kind, condition: { operator: "and", value: [] }, branches: { yes: [], no: [] } };
    case "delay":
      return { id, kind, mode: "for", amount: 1, unit: "days" };
    case "wait":
      return {
        id,
        kind,
        event: null,
        timeout: { amount: 1, unit: "days" },
        branches: { event: [], timeout: [] },
      };
    case "action":
      return { id, kind, type: null, inputs: {} };
  }
}
