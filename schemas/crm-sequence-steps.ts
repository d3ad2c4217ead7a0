/**
 * A sequence's steps (issue 16, spec §3 `sequenceModalData`): the ordered emails, SMS, waits and
 * tasks the builder edits, as the one JSON document the server stores per sequence. The JSON
 * Schema gives the per-field messages of the builder's PUT; `stepProblems` says what a schema
 * cannot (each type's own fields, unique keys, merge fields that exist, a wait between steps).
 * Shared by the builder and the server. Pure.
 */
import { DELAY_UNITS, type DelayUnit, delayProblem } from "../src/lib/delays";
import type { FieldError } from "./error-messages";
import { CLIENT_MERGE_FIELDS, mergeFieldsIn, USER_MERGE_FIELDS } from "./merge-fields";

export const SEQUENCE_STEP_TYPES = ["email", "sms", "wait", "task"] as const;
export type SequenceStepType = (typeof SEQUENCE_STEP_TYPES)[number];

export const STEP_TYPE_LABELS: Readonly<Record<SequenceStepType, string>> = {
  email: "Email",
  sms: "SMS",
  wait: "Wait",
  task: "Task",
};

/** Who a task step's task is for: the client's owner, or one chosen user. */
export const TASK_ASSIGNEES = ["owner", "user"] as const;
export type TaskAssignee = (typeof TASK_ASSIGNEES)[number];

export const MAX_SEQUENCE_STEPS = 50;
export const MAX_TASK_DUE_DAYS = 365;
/** Longest SMS a step may hold (10 parts of GSM-7), before its merge fields are filled. */
export const SMS_STEP_MAX = 1600;
/**
 * A step's key, unique in its sequence: lower-case letters, digits and dashes. The engine
 * names a step held while its sequence is paused `<key>@<n>`, so a key holds no `@`.
 */
export const STEP_KEY_PATTERN = "^[a-z0-9][a-z0-9-]{0,39}$";

interface StepBase {
  key: string;
}

export interface EmailStep extends StepBase {
  type: "email";
  subject: string;
  /** Plain text with merge fields (`{{client.first_name}}`). */
  body: string;
  /** The template the text was taken from (the text is the step's own from then on). */
  templateId?: string | null;
}

export interface SmsStep extends StepBase {
  type: "sms";
  body: string;
  templateId?: string | null;
}

export interface WaitStep extends StepBase {
  type: "wait";
  amount: number;
  unit: DelayUnit;
}

export interface TaskStep extends StepBase {
  type: "task";
  title: string;
  notes?: string | null;
  /** Days after the step runs that the task is due (0: the same day). */
  dueInDays: number;
  assignee: TaskAssignee;
  /** The user, when `assignee` is "user". */
  assigneeId?: string | null;
}

export type SequenceStep = EmailStep | SmsStep | WaitStep | TaskStep;

/** What the builder's PUT sends: the steps, and the version they were edited from. */
export interface SaveStepsRequest {
  steps: SequenceStep[];
  version: number;
}

/** What GET and PUT `/crm/sequences/{id}/steps` answer. */
export interface SequenceSteps {
  steps: SequenceStep[];
  version: number;
}

const text = (title: string, maxLength: number) => ({ type: "string", title, maxLength }) as const;
const nullableId = (title: string) => ({ type: ["string", "null"], title, format: "uuid" }) as const;

/** One step as JSON Schema: every type's fields, checked per type by `stepProblems`. */
export const sequenceStepSchema = {
  type: "object",
  additionalProperties: false,
  required: ["key", "type"],
  properties: {
    key: {
      type: "string",
      title: "Step key",
      pattern: STEP_KEY_PATTERN,
      "x-patternMessage": "may only hold lower-case letters, digits and dashes (40 at most)",
    },
    type: {
      type: "string",
      title: "Step type",
      enum: SEQUENCE_STEP_TYPES,
      "x-enumLabels": ["Email", "SMS", "Wait", "Task"],
    },
    subject: text("Subject", 200),
    body: text("Message", 20000),
    templateId: nullableId("Template"),
    amount: { type: "integer", title: "Amount", minimum: 0, maximum: 100_000 },
    unit: {
      type: "string",
      title: "Unit",
      enum: DELAY_UNITS,
      "x-enumLabels": ["Minutes", "Hours", "Days", "Weeks"],
    },
    title: text("Task title", 200),
    notes: { type: ["string", "null"], title: "Task notes", maxLength: 4000 },
    dueInDays: { type: "integer", title: "Due in (days)", minimum: 0, maximum: MAX_TASK_DUE_DAYS },
    assignee: {
      type: "string",
      title: "Assigned to",
      enum: TASK_ASSIGNEES,
      "x-enumLabels": ["Client's owner", "A user"],
    },
    assigneeId: nullableId("User"),
  },
} as const;

export const saveStepsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["steps", "version"],
  properties: {
    steps: { type: "array", title: "Steps", maxItems: MAX_SEQUENCE_STEPS, items: sequenceStepSchema },
    version: { type: "integer", title: "Version", minimum: 1, maximum: 2_147_483_647 },
  },
} as const;

/** The fields each type uses; the others are dropped when a step is stored. */
export const STEP_FIELDS: Readonly<Record<SequenceStepType, readonly string[]>> = {
  email: ["key", "type", "subject", "body", "templateId"],
  sms: ["key", "type", "body", "templateId"],
  wait: ["key", "type", "amount", "unit"],
  task: ["key", "type", "title", "notes", "dueInDays", "assignee", "assigneeId"],
};

/** A step with only its type's fields (the builder keeps others while a person switches types). */
export function cleanStep(step: SequenceStep): SequenceStep {
  const fields = STEP_FIELDS[step.type];
  return Object.fromEntries(
    Object.entries(step).filter(([k, v]) => fields.includes(k) && v !== undefined),
  ) as unknown as SequenceStep;
}

/** The merge fields a step's text may use: the client's, the sender's, and the clients' custom fields. */
export function knownMergeFields(customKeys: readonly string[] = []): Set<string> {
  return new Set([
    ...CLIENT_MERGE_FIELDS.map((f) => f.key),
    ...USER_MERGE_FIELDS.map((f) => f.key),
    ...customKeys.map((k) => `client.${k}`),
  ]);
}

/** "Step 2 (Email)": how messages name a step. */
export const stepName = (index: number, type: SequenceStepType) =>
  `Step ${index + 1} (${STEP_TYPE_LABELS[type]})`;

/**
 * What is wrong with a sequence's steps that the JSON Schema cannot say, one message per field
 * (`steps.<index>.<field>`): each type's required fields, unique keys, unknown merge fields, a
 * wait with nothing after it, two waits in a row, and a task for a user without naming one.
 *
 * @example
 * stepProblems([{ key: "a", type: "email", subject: "", body: "Hi {{client.nmae}}" }]);
 * // [{ field: "steps.0.subject", message: "Step 1 (Email): Subject is required" },
 * //  { field: "steps.0.body", message: "Step 1 (Email): Message has an unknown merge field: {{client.nmae}}" }]
 */
export function stepProblems(
  steps: readonly SequenceStep[],
  customKeys: readonly string[] = [],
): FieldError[] {
  const problems: FieldError[] = [];
  const known = knownMergeFields(customKeys);
  const seen = new Set<string>();
  steps.forEach((step, i) => {
    const name = stepName(i, step.type);
    const at = (field: string, message: string) =>
      problems.push({ field: `steps.${i}.${field}`, message: `${name}: ${message}` });
    const required = (field: string, label: string) => {
      const value = (step as unknown as Record<string, unknown>)[field];
      if (typeof value === "string" ? !value.trim() : value === undefined || value === null) {
        at(field, `${label} is required`);
        return false;
      }
      return true;
    };
    const merged = (field: string, label: string) => {
      const value = (step as unknown as Record<string, unknown>)[field];
      if (typeof value !== "string") return;
      const unknown = mergeFieldsIn(value).filter((key) => !known.has(key));
      if (unknown.length)
        at(
          field,
          `${label} has ${unknown.length === 1 ? "an unknown merge field" : "unknown merge fields"}: ${unknown.map((k) => `{{${k}}}`).join(", ")}`,
        );
    };
    if (seen.has(step.key)) at("key", "another step has the same key");
    seen.add(step.key);
    switch (step.type) {
      case "email":
        if (required("subject", "Subject")) merged("subject", "Subject");
        if (required("body", "Message")) merged("body", "Message");
        break;
      case "sms":
        if (required("body", "Message")) {
          merged("body", "Message");
          if (Array.from(step.body).length > SMS_STEP_MAX)
            at("body", `Message is longer than ${SMS_STEP_MAX} characters`);
        }
        break;
      case "wait": {
        if (!required("amount", "Amount") || !required("unit", "Unit")) break;
        const problem = delayProblem(step);
        if (problem) at("amount", problem);
        else if (step.amount === 0) at("amount", "Wait at least 1 minute");
        if (i === steps.length - 1)
          at("type", "a wait at the end does nothing: add a step after it, or remove it");
        else if (steps[i + 1]?.type === "wait") at("type", "two waits in a row: make it one wait");
        break;
      }
      case "task":
        if (required("title", "Task title")) merged("title", "Task title");
        required("dueInDays", "Due in (days)");
        if (required("assignee", "Assigned to") && step.assignee === "user" && !step.assigneeId)
          at("assigneeId", "choose the user the task is for");
        break;
    }
  });
  return problems;
}

/** Why a client left a sequence before its end (`runs.exit_reason` of its enrolment). */
export const EXIT_REASONS = ["replied", "opted_out", "won", "lost", "client_deleted"] as const;
export type ExitReason = (typeof EXIT_REASONS)[number];

export const EXIT_REASON_LABELS: Readonly<Record<ExitReason, string>> = {
  replied: "Replied",
  opted_out: "Opted out",
  won: "Opportunity won",
  lost: "Opportunity lost",
  client_deleted: "Client deleted",
};

/** An enrolment's state as the API names it (a run's status; `active` is running or waiting). */
export const ENROLMENT_STATUSES = ["active", "finished", "exited", "stopped", "failed"] as const;
export type EnrolmentStatus = (typeof ENROLMENT_STATUSES)[number];

export const ENROLMENT_STATUS_LABELS: Readonly<Record<EnrolmentStatus, string>> = {
  active: "Active",
  finished: "Finished",
  exited: "Left early",
  stopped: "Stopped",
  failed: "Failed",
};

/** A sequence's figures (`GET /crm/sequences/{id}/stats`). */
export interface SequenceStats {
  enrolled: number;
  active: number;
  /** Active enrolments held at a step because the sequence is paused. */
  held: number;
  finished: number;
  replied: number;
  optedOut: number;
  won: number;
  lost: number;
  stopped: number;
  failed: number;
}

/** Most clients one enrolment request may name (a list selection of a page of 1000). */
export const MAX_ENROLMENT_CLIENTS = 1000;

/** What `POST /crm/sequences/{id}/enrolments` answers. */
export interface EnrolResult {
  /** Clients now enrolled, with their enrolment (run) ids. */
  enrolled: Array<{ clientId: string; runId: string }>;
  /** Clients already active in this sequence: left as they are. */
  alreadyActive: string[];
  /** Ids that name no client. */
  notFound: string[];
}

/** One enrolment as the sequence's table and the client's card show it. */
export interface Enrolment {
  id: string;
  sequenceId: string;
  sequenceName: string;
  clientId: string;
  clientName: string;
  clientEmail: string | null;
  status: EnrolmentStatus;
  exitReason: string | null;
  /** The version of the steps it follows. */
  version: number;
  /** The step it is at (null once finished): its place, type and what it does. */
  step: { index: number; count: number; type: SequenceStepType; label: string } | null;
  /** When the step at `step` is due; null when it is not scheduled. */
  nextAt: string | null;
  /** Held at its step until the sequence is active again. */
  held: boolean;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
}

/** A step in a few words ("Email: Welcome", "Wait 2 days"), for tables and the timeline. */
export function stepLabel(step: SequenceStep): string {
  switch (step.type) {
    case "email":
      return `Email: ${step.subject}`;
    case "sms":
      return `SMS: ${step.body.length > 40 ? `${step.body.slice(0, 39)}…` : step.body}`;
    case "wait":
      return `Wait ${step.amount} ${step.amount === 1 ? step.unit.replace(/s$/, "") : step.unit}`;
    case "task":
      return `Task: ${step.title}`;
  }
}
