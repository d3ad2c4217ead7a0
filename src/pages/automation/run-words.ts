/**
 * A run's steps in a person's words, for the run detail: each step by its title on the canvas
 * (the name a person gave it, else its kind's label), the branch it took as a sentence, and its
 * input and output as labelled fields. The raw JSON stays one toggle away (runs-drawer.tsx).
 * Pure: the run's pinned definition in, words out.
 */
import {
  ACTION_LABELS,
  type ActionType,
  type AutomationDefinition,
  BRANCH_LABELS,
  type Branch,
  STEP_KIND_LABELS,
  type Step,
  stepNumbers,
  WAIT_EVENT_LABELS,
  waitEventOf,
  walkSteps,
} from "../../../schemas/automation";
import type { ConditionalFilter } from "../../../schemas/conditions";
import { formatDmyTime } from "../../lib/dates";
import { conditionText } from "./node-summary";

/** One labelled value of a step's input or output. */
export interface RunField {
  label: string;
  value: string;
}

export interface StepWords {
  /** Its number on the canvas ("Step 2"), when the step is in the run's definition. */
  number: number | null;
  /** Its title on the canvas: the name a person gave it, or its kind's label. */
  title: string;
  /** What kind of step it is, when the title is a name of a person's ("Send email"). */
  kind: string | null;
  /** The branch it took, as a sentence ("Took the Yes branch"). */
  outcome: string | null;
  input: RunField[];
  output: RunField[];
}

/** The kind's label of a step: an action's type ("Send email"), else its kind ("Condition"). */
export function kindLabel(step: Step): string {
  if (step.kind === "action")
    return step.type ? (ACTION_LABELS[step.type as ActionType] ?? "Action") : STEP_KIND_LABELS.action;
  return STEP_KIND_LABELS[step.kind];
}

/** A key made readable when it has no label of its own: `timeoutAt` → "Timeout at". */
export function humanKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase()
    .replace(/\bid\b/g, "ID")
    .replace(/\bsms\b/g, "SMS")
    .replace(/\burl\b/g, "URL");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const LABELS: Readonly<Record<string, string>> = {
  to: "To",
  subject: "Subject",
  body: "Message",
  templateId: "Template",
  condition: "Rule",
  event: "Waits for",
  timeoutAt: "Gives up at",
  until: "Until",
  amount: "Wait",
  sent: "Sent",
  skipped: "Not sent because",
  messageId: "Message ID",
  outboxId: "Outbox ID",
  smsId: "SMS ID",
  status: "Status",
  resource: "Record",
  fields: "Fields",
  recordId: "Record ID",
  tag: "Tag",
  added: "Added",
  sequenceId: "Sequence",
  method: "Method",
  url: "Address",
  headers: "Headers",
  data: "Event data",
};

/**
 * Keys that name the step itself, are said in `outcome` or another field, or are internal
 * references (the outbox's, the message's): in the JSON only.
 */
const OMITTED = new Set([
  "id",
  "kind",
  "name",
  "branch",
  "resumedBy",
  "mode",
  "unit",
  "timeZone",
  "messageId",
  "outboxId",
  "smsId",
]);

/** Fields in the order a person reads them (a mail's To, Subject, Message), whatever the stored order. */
const ORDER = Object.keys(LABELS);
const rank = (key: string) => (ORDER.includes(key) ? ORDER.indexOf(key) : ORDER.length);

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** A value in words: dates as the app shows them, yes/no, lists and groups in one line. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "string") return ISO_INSTANT.test(value) ? formatDmyTime(new Date(value)) : value;
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return value.length ? value.map(valueText).join("; ") : "—";
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(
      ([, v]) => v !== null && v !== undefined && v !== "",
    );
    // A header list ({ name, value }) reads as "Name: value".
    if ("name" in (value as object) && "value" in (value as object))
      return `${valueText((value as { name: unknown }).name)}: ${valueText((value as { value: unknown }).value)}`;
    return entries.length ? entries.map(([k, v]) => `${k}: ${valueText(v)}`).join(" · ") : "—";
  }
  return String(value);
}

/** One key's value in words, where the key says how to read it. */
function fieldValue(key: string, value: unknown, record: Record<string, unknown>): string {
  if (key === "condition" && value && typeof value === "object" && "operator" in value && "value" in value)
    return conditionText(value as ConditionalFilter);
  if (key === "event" && typeof value === "string") {
    // A wait on the run's own mail records `email-opened:<message id>`.
    const event = waitEventOf(value);
    return event ? WAIT_EVENT_LABELS[event] : value;
  }
  if (key === "sent" && typeof value === "string") return value === "sms" ? "SMS" : humanKey(value);
  if (key === "amount" && typeof value === "number") {
    const unit = typeof record.unit === "string" ? record.unit : "days";
    return `${value} ${value === 1 ? unit.replace(/s$/, "") : unit}`;
  }
  if (key === "until" && typeof value === "string" && !ISO_INSTANT.test(value))
    return `${value.replace("T", " ")}${typeof record.timeZone === "string" ? ` (${record.timeZone})` : ""}`;
  return valueText(value);
}

/**
 * A step's input or output as labelled fields, in the order it has them.
 *
 * `shown`: the step's input, when these are its output (what the input said is not repeated).
 *
 * @example
 * runFields({ to: "mira@example.com", subject: "Welcome" });
 * // [{ label: "To", value: "mira@example.com" }, { label: "Subject", value: "Welcome" }]
 */
export function runFields(value: unknown, type?: string, shown: unknown = null): RunField[] {
  if (value === null || value === undefined) return [];
  if (typeof value !== "object" || Array.isArray(value)) return [{ label: "Value", value: valueText(value) }];
  const record = value as Record<string, unknown>;
  // An output that repeats its input (the address a mail went to) is said once, with the input.
  const before = shown && typeof shown === "object" ? (shown as Record<string, unknown>) : {};
  return Object.entries(record)
    .filter(([key, v]) => !OMITTED.has(key) && v !== undefined)
    .filter(([key, v]) => !(key in before) || JSON.stringify(before[key]) !== JSON.stringify(v))
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([key, v]) => ({
      // An HTTP request's body is its body, not a message.
      label: key === "body" && type === "http_request" ? "Body" : (LABELS[key] ?? humanKey(key)),
      value: fieldValue(key, v, record),
    }));
}

/** The branch a branching step took, in words; null for a step that does not branch or has not. */
export function outcomeOf(step: Step | undefined, output: unknown): string | null {
  if (!step || !output || typeof output !== "object") return null;
  const o = output as { branch?: string; resumedBy?: string };
  if (step.kind === "condition" && (o.branch === "yes" || o.branch === "no"))
    return `Took the ${BRANCH_LABELS[o.branch as Branch]} branch`;
  if (step.kind === "wait" && o.resumedBy === "event") return "The event came: took the Event branch";
  if (step.kind === "wait" && o.resumedBy === "timeout") return "No event in time: took the Timeout branch";
  return null;
}

/**
 * A reached step in words, read against the definition the run pinned.
 *
 * @example
 * stepWords(definition, { key: "condition-1", type: "condition", input: {…}, output: { branch: "yes" } });
 * // { number: 1, title: "Condition", kind: null, outcome: "Took the Yes branch", input: [{ label: "Rule", … }], output: [] }
 */
export function stepWords(
  definition: AutomationDefinition | null | undefined,
  reached: { key: string; type: string; input: unknown; output: unknown },
): StepWords {
  const steps = definition?.steps ?? [];
  const step = walkSteps(steps).find((s) => s.id === reached.key);
  const kind = step ? kindLabel(step) : (ACTION_LABELS[reached.type as ActionType] ?? humanKey(reached.type));
  const named = step?.name?.trim();
  return {
    number: step ? (stepNumbers(steps).get(step.id) ?? null) : null,
    title: named || kind,
    kind: named ? kind : null,
    outcome: outcomeOf(step, reached.output),
    input: runFields(reached.input, reached.type),
    output: runFields(reached.output, reached.type, reached.input),
  };
}

const EXIT_REASONS: Readonly<Record<string, string>> = {
  "client-deleted": "The client was deleted",
  replied: "The client replied",
  "opted-out": "The client opted out",
  retried: "Failed, then retried from the start as a new run",
};

/** Why a run left early, in words ("client-deleted" → "The client was deleted"). */
export const exitReasonText = (reason: string): string => EXIT_REASONS[reason] ?? humanKey(reason);
