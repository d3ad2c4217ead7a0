/**
 * What a canvas node says about itself in two lines (title, detail), and the words of the
 * condition operators the editor offers: the spec's ten text conditions (schemas/conditions.ts)
 * and the comparisons of numbers and dates, all over the one operator vocabulary. Pure.
 */
import {
  ACTION_LABELS,
  type ActionType,
  isRecordTrigger,
  TRIGGER_LABELS,
  type Trigger,
  WAIT_EVENT_LABELS,
} from "../../../schemas/automation";
import { type CrudFilter, type Operator, TEXT_CONDITION_LABELS } from "../../../schemas/conditions";
import { plural, withArticle } from "../../lib/text";
import { entityTitle } from "./entity-names";
import type { FlowNodeData, FlowNodeType } from "./flow-graph";

/** Every operator a condition offers, with its words: the ten text ones first. */
export const CONDITION_OPERATORS: ReadonlyArray<readonly [Operator, string]> = [
  ...TEXT_CONDITION_LABELS,
  ["gt", "is greater than"],
  ["gte", "is at least"],
  ["lt", "is less than"],
  ["lte", "is at most"],
];

/** Operators that compare with nothing ("is empty"). */
export const needsNoValue = (operator: string) => operator === "null" || operator === "nnull";

const operatorWords = (operator: string) =>
  CONDITION_OPERATORS.find(([op]) => op === operator)?.[1] ?? operator;

/** Leaves of a condition tree, nested groups included. */
const leaves = (filters: readonly CrudFilter[]): number =>
  filters.reduce((n, f) => n + ("field" in f ? 1 : leaves(f.value)), 0);

/**
 * A condition in words: its one rule, or how many rules it joins.
 *
 * @example
 * conditionText({ operator: "and", value: [{ field: "score", operator: "gt", value: 50 }] }); // "score is greater than 50"
 */
export function conditionText(condition: { operator: "and" | "or"; value: CrudFilter[] }): string {
  const rules = leaves(condition.value);
  const only = condition.value[0];
  if (rules === 1 && only && "field" in only)
    return [
      only.field || "…",
      operatorWords(only.operator),
      needsNoValue(only.operator) ? "" : String(only.value ?? "…"),
    ]
      .filter(Boolean)
      .join(" ");
  if (!rules) return "No rule yet";
  return `${condition.operator === "and" ? "All" : "Any"} of ${plural(rules, "rule")}`;
}

/** "1 day", "3 days", "… days" while the amount is missing. */
const duration = (amount: number | undefined, unit = "days") =>
  amount === 1 ? `1 ${unit.replace(/s$/, "")}` : `${amount ?? "…"} ${unit}`;

function triggerDetail(trigger: Trigger): string {
  switch (trigger.kind) {
    case "opportunity-stage-changed":
      return trigger.stage ? `To ${trigger.stage}` : "Any stage";
    case "schedule":
      return trigger.cron ? `${trigger.cron} (${trigger.timeZone ?? "UTC"})` : "No schedule yet";
    case "form-submitted":
      return trigger.formId ? "One form" : "Any form";
    case "cms-entry-published":
      return trigger.contentType ? `Type ${trigger.contentType}` : "Any content type";
    case "record-updated":
      if (!trigger.resource) return "Choose the record";
      if (!trigger.fields?.length) return "Any change";
      return `When ${trigger.fields.join(", ").replace(/_/g, " ")} ${trigger.fields.length === 1 ? "changes" : "change"}`;
    case "record-created":
    case "record-deleted":
      if (!trigger.resource) return "Choose the record";
      return trigger.filter?.length ? `Only when ${plural(leaves(trigger.filter), "rule")} hold` : "";
    default:
      return trigger.filter?.length ? `Only when ${plural(leaves(trigger.filter), "rule")} hold` : "";
  }
}

/** A trigger's title: its label, or an entity's "Product updated". */
function triggerTitle(trigger: Trigger): string {
  if (isRecordTrigger(trigger.kind) && trigger.resource)
    return `${entityTitle(trigger.resource)} ${trigger.kind.slice("record-".length)}`;
  return TRIGGER_LABELS[trigger.kind];
}

/** The title and detail a node shows. */
export function nodeSummary(type: FlowNodeType, data: FlowNodeData): { title: string; detail: string } {
  if (type === "triggerNode" && data.trigger)
    return { title: triggerTitle(data.trigger), detail: triggerDetail(data.trigger) };
  const config = data.config;
  if (!config) return { title: "", detail: "" };
  const named = (fallback: string) => config.name || fallback;
  switch (config.kind) {
    case "condition":
      return { title: named("Condition"), detail: conditionText(config.condition) };
    case "delay":
      return {
        title: named("Delay"),
        detail:
          config.mode === "until"
            ? `Until ${config.until ?? "…"} ${config.timeZone ?? ""}`.trim()
            : `Wait ${duration(config.amount, config.unit)}`,
      };
    case "wait":
      return {
        title: named("Wait for event"),
        detail: config.event
          ? `${WAIT_EVENT_LABELS[config.event]}, at most ${duration(config.timeout.amount, config.timeout.unit)}`
          : "Choose an event",
      };
    case "action":
      return {
        title: named(config.type ? ACTION_LABELS[config.type as ActionType] : "Action"),
        detail: config.type
          ? actionDetail(config.type, config.inputs as Record<string, unknown>)
          : "Choose what it does",
      };
  }
}

function actionDetail(type: ActionType, inputs: Record<string, unknown>): string {
  const text = (key: string) => (typeof inputs[key] === "string" ? (inputs[key] as string) : "");
  switch (type) {
    case "send_email":
      return text("subject") || "No subject yet";
    case "send_sms":
      return text("body") || "No text yet";
    case "http_request":
      return `${text("method") || "POST"} ${text("url") || "…"}`;
    case "add_tag":
      return text("tag") ? `Tag “${text("tag")}”` : "No tag yet";
    case "create_record":
    case "update_record":
    case "find_record":
      return text("resource")
        ? withArticle(entityTitle(text("resource")).toLowerCase(), true)
        : "Choose a record";
    case "enrol_in_sequence":
      return text("sequenceId") ? "In a sequence" : "Choose a sequence";
  }
}
