/**
 * What an automation needs besides its JSON Schema, per node (issue 17: "publishing refuses an
 * incomplete flow and marks each node at fault"): `structureProblems` (a draft can be saved),
 * `publishProblems` (it can run). Shared by the canvas, which marks the nodes, and the server,
 * which refuses with the same messages. Pure.
 */
import { cronProblem } from "../src/lib/cron";
import { type DelayUnit, delayProblem, isTimeZone, parseLocalDateTime } from "../src/lib/delays";
import {
  ACTION_LABELS,
  ACTION_TYPES,
  type ActionStep,
  type AutomationDefinition,
  type BranchingStep,
  branchesOf,
  branchSteps,
  isBranching,
  isRecordTrigger,
  MAX_STEPS,
  STEP_KIND_LABELS,
  type Step,
  TRIGGER_ID,
  TRIGGER_LABELS,
  type Trigger,
  walkSteps,
} from "./automation";
import { type CrudFilter, OPERATORS, type Operator } from "./conditions";

/** A problem of one node: its id (the canvas marks it), the path in the definition, the sentence. */
export interface NodeProblem {
  nodeId: string;
  /** Dotted path in the definition (`steps.0.branches.yes.1.inputs.subject`), as a 400's `details`. */
  field: string;
  message: string;
}

type Report = (field: string, message: string) => void;

/** Each step with its path in the definition, depth-first as numbered. */
function located(steps: readonly Step[], at = "steps"): Array<{ step: Step; path: string; last: boolean }> {
  return steps.flatMap((step, i) => [
    { step, path: `${at}.${i}`, last: i === steps.length - 1 },
    ...branchesOf(step).flatMap((b) =>
      located(branchSteps(step as BranchingStep, b), `${at}.${i}.branches.${b}`),
    ),
  ]);
}

/**
 * What stops a draft from being saved at all: ids that repeat or take the trigger's, an action
 * type that does not exist, a step after a branching one (it could never run: the branches carry
 * on instead), too many steps.
 *
 * @example
 * structureProblems({ trigger, steps: [a, { ...a }] });
 * // [{ nodeId: "action-1", field: "steps.1.id", message: "Step 2 (Action): another step has the same ID" }]
 */
export function structureProblems(definition: AutomationDefinition): NodeProblem[] {
  const problems: NodeProblem[] = [];
  const seen = new Set<string>([TRIGGER_ID]);
  located(definition.steps).forEach(({ step, path, last }, i) => {
    const name = `Step ${i + 1} (${STEP_KIND_LABELS[step.kind]})`;
    const report = (field: string, message: string) =>
      problems.push({ nodeId: step.id, field: `${path}.${field}`, message: `${name}: ${message}` });
    if (seen.has(step.id)) report("id", "another step has the same ID");
    seen.add(step.id);
    if (step.kind === "action" && step.type && !ACTION_TYPES.includes(step.type))
      report("type", "choose an action from the list");
    if (isBranching(step) && !last)
      report(
        "kind",
        `steps after a ${STEP_KIND_LABELS[step.kind].toLowerCase()} never run: move them into a branch`,
      );
  });
  if (walkSteps(definition.steps).length > MAX_STEPS)
    problems.push({
      nodeId: TRIGGER_ID,
      field: "steps",
      message: `An automation holds at most ${MAX_STEPS} steps`,
    });
  return problems;
}

const needsNoValue = (operator: string) => operator === "null" || operator === "nnull";
const blank = (v: unknown) =>
  v === undefined || v === null || (typeof v === "string" && !v.trim()) || (Array.isArray(v) && !v.length);

/** The rules of a condition tree that cannot be evaluated: no field, unknown comparator, no value. */
function conditionProblems(filters: readonly CrudFilter[], at: string, report: Report) {
  filters.forEach((f, i) => {
    const path = `${at}.${i}`;
    if (f.operator === "and" || f.operator === "or") {
      const parts = Array.isArray(f.value) ? (f.value as CrudFilter[]) : [];
      if (!parts.length) report(`${path}.value`, "a group has no rules: add one or remove the group");
      conditionProblems(parts, `${path}.value`, report);
      return;
    }
    const leaf = f as { field?: string; operator: string; value?: unknown };
    if (!leaf.field?.trim()) report(`${path}.field`, "a rule has no field: choose the field it reads");
    if (!OPERATORS.includes(leaf.operator as Operator))
      report(`${path}.operator`, `a rule has a comparator "${leaf.operator}" that does not exist`);
    else if (!needsNoValue(leaf.operator) && blank(leaf.value))
      report(`${path}.value`, `the rule on "${leaf.field ?? ""}" has no value to compare with`);
    else if (leaf.operator === "between" && (!Array.isArray(leaf.value) || leaf.value.length !== 2))
      report(`${path}.value`, `the rule on "${leaf.field ?? ""}" needs two values: from and to`);
  });
}

function triggerProblems(trigger: Trigger, report: Report) {
  if (trigger.kind === "form-submitted" && !trigger.formId) report("formId", "choose the form");
  if (isRecordTrigger(trigger.kind) && !trigger.resource) report("resource", "choose the kind of record");
  if (trigger.kind === "schedule") {
    const problem = trigger.cron?.trim() ? cronProblem(trigger.cron) : "enter when it runs (a cron schedule)";
    if (problem) report("cron", problem);
    if (!trigger.timeZone || !isTimeZone(trigger.timeZone))
      report("timeZone", "choose the time zone the schedule is read in");
  }
  conditionProblems(trigger.filter ?? [], "filter", report);
}

/** Why an amount + unit cannot be waited, or null. */
function waitProblem(amount: number | undefined, unit: DelayUnit | undefined): string | null {
  if (amount === undefined || amount === null) return "enter how long to wait";
  const problem = delayProblem({ amount, unit });
  if (problem) return problem;
  return amount === 0 ? "wait at least 1 minute" : null;
}

/** Variables (`{{client.email}}`) stand for values: a check reads them as a placeholder. */
const withoutVariables = (text: string, placeholder: string) => text.replace(/\{\{[^{}]*\}\}/g, placeholder);
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

function actionProblems(step: ActionStep, report: Report) {
  const inputs = step.inputs ?? {};
  const required = (field: keyof typeof inputs, message: string) => {
    if (blank(inputs[field])) {
      report(`inputs.${field}`, message);
      return false;
    }
    return true;
  };
  switch (step.type) {
    case null:
    case undefined:
      report("type", "choose what this action does");
      return;
    case "send_email":
      required("to", "enter who the email goes to");
      required("subject", "an email needs a subject");
      required("body", "an email needs a message");
      return;
    case "send_sms":
      required("to", "enter the number the SMS goes to");
      required("body", "an SMS needs a message");
      return;
    case "find_record":
      required("resource", "choose the kind of record");
      if (!Object.keys(inputs.match ?? {}).length)
        report("inputs.match", "enter at least one field to find by");
      return;
    case "create_record":
    case "update_record":
      required("resource", "choose the kind of record");
      if (step.type === "update_record") required("recordId", "enter which record to update");
      if (!Object.keys(inputs.fields ?? {}).length) report("inputs.fields", "set at least one field");
      return;
    case "add_tag":
      required("tag", "enter the tag to add");
      return;
    case "enrol_in_sequence":
      required("sequenceId", "choose the sequence");
      return;
    case "http_request": {
      required("method", "choose the method");
      if (required("url", "enter the URL to call")) {
        let url: URL | null = null;
        try {
          url = new URL(withoutVariables(inputs.url as string, "x"));
        } catch {}
        if (!url || (url.protocol !== "http:" && url.protocol !== "https:"))
          report("inputs.url", "the URL must be a full web address starting with http:// or https://");
      }
      (inputs.headers ?? []).forEach((h, i) => {
        if (!HEADER_NAME.test(h.name)) report(`inputs.headers.${i}.name`, `"${h.name}" is not a header name`);
      });
      if (inputs.body?.trim()) {
        if (inputs.method === "GET")
          report("inputs.body", "a GET request sends no body: remove it or choose POST");
        else {
          try {
            JSON.parse(withoutVariables(inputs.body, "0"));
          } catch {
            report("inputs.body", "the body is not valid JSON");
          }
        }
      }
      return;
    }
  }
}

function stepProblems(step: Step, report: Report) {
  switch (step.kind) {
    case "condition": {
      const rules = Array.isArray(step.condition?.value) ? step.condition.value : [];
      if (!rules.length) report("condition", "add at least one rule");
      else conditionProblems(rules, "condition.value", report);
      return;
    }
    case "delay": {
      if (step.mode === "until") {
        if (!step.until || !parseLocalDateTime(step.until))
          report("until", "enter the date and time to wait until");
        if (!step.timeZone || !isTimeZone(step.timeZone)) report("timeZone", "choose the time zone");
        return;
      }
      const problem = waitProblem(step.amount, step.unit);
      if (problem) report("amount", problem);
      return;
    }
    case "wait": {
      if (!step.event) report("event", "choose the event to wait for");
      const problem = waitProblem(step.timeout?.amount, step.timeout?.unit);
      if (problem) report("timeout.amount", `timeout: ${problem}`);
      return;
    }
    case "action":
      actionProblems(step, report);
  }
}

/** How a message names a step: "Step 3 (Send email)", "Step 1 (Condition)". */
function stepName(step: Step, number: number): string {
  const kind =
    (step.kind === "action" && step.type && ACTION_LABELS[step.type]) || STEP_KIND_LABELS[step.kind];
  return `Step ${number} (${kind})`;
}

/**
 * Every reason the flow cannot be published, per node, in a person's words: the structure's
 * problems, then the trigger's (a form, a schedule, its filter), then each step's in step order
 * (an action without a type, an email without a subject, a condition without a rule, a delay
 * without an amount). Empty when the flow can run.
 *
 * @example
 * publishProblems({ trigger: { kind: "client-created" }, steps: [{ id: "action-1", kind: "action", type: null, inputs: {} }] });
 * // [{ nodeId: "action-1", field: "steps.0.type", message: "Step 1 (Action): choose what this action does" }]
 */
export function publishProblems(definition: AutomationDefinition): NodeProblem[] {
  const problems = structureProblems(definition);
  const trigger = definition.trigger;
  const triggerName = `Trigger (${TRIGGER_LABELS[trigger.kind] ?? "none"})`;
  triggerProblems(trigger, (field, message) =>
    problems.push({ nodeId: TRIGGER_ID, field: `trigger.${field}`, message: `${triggerName}: ${message}` }),
  );
  if (!definition.steps.length)
    problems.push({
      nodeId: TRIGGER_ID,
      field: "steps",
      message: "Add at least one step after the trigger",
    });
  located(definition.steps).forEach(({ step, path }, i) => {
    const name = stepName(step, i + 1);
    stepProblems(step, (field, message) =>
      problems.push({ nodeId: step.id, field: `${path}.${field}`, message: `${name}: ${message}` }),
    );
  });
  return problems;
}
