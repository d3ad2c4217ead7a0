/**
 * What a step may read (docs/automation-api.md, "Variables"): the trigger's record
 * (`{{trigger.…}}`, the sidebar's formFields), the run's client (`{{client.…}}`) and earlier
 * steps' outputs (`{{steps.<id>.…}}`, its actionFormFields). Pure, for the variable menu and
 * the condition editor's field list.
 */
import {
  ACTION_LABELS,
  type ActionType,
  STEP_KIND_LABELS,
  type Step,
  type Trigger,
} from "../../../schemas/automation";
import { FAILED_RUN_FIELDS } from "../../../schemas/automation-failures";
import { type EntitySchema, isInternal } from "../../../schemas/contract";
import { CLIENT_MERGE_FIELDS, type MergeField } from "../../../schemas/merge-fields";

export interface VariableGroup {
  label: string;
  fields: readonly MergeField[];
}

/** A schema's own fields as `prefix.<field>`, titled. */
function schemaFields(schema: EntitySchema | undefined, prefix: string, owner: string): MergeField[] {
  return Object.entries(schema?.properties ?? {})
    .filter(([key, field]) => !["created_by", "updated_by"].includes(key) && !isInternal(field))
    .map(([key, field]) => ({
      key: `${prefix}.${key}`,
      label: `${owner}: ${(field as { title?: string }).title ?? key}`,
    }));
}

/**
 * The trigger record's fields, by trigger kind (`schemaOf` reads a resource's schema: `clients`,
 * `opportunities`).
 *
 * @example
 * triggerFields({ kind: "schedule" }, () => undefined); // [{ key: "trigger.scheduledAt", label: "Scheduled time" }]
 */
export function triggerFields(
  trigger: Trigger,
  schemaOf: (resource: string) => EntitySchema | undefined,
): MergeField[] {
  switch (trigger.kind) {
    case "client-created":
    case "manual":
      return schemaFields(schemaOf("clients"), "trigger", "Client");
    case "opportunity-stage-changed":
      return [
        ...schemaFields(schemaOf("opportunities"), "trigger", "Opportunity"),
        { key: "trigger.fromStage", label: "Opportunity: stage before" },
      ];
    case "form-submitted":
      return [
        { key: "trigger.form", label: "Form's name" },
        { key: "trigger.submissionId", label: "Answer's ID" },
        { key: "trigger.submittedAt", label: "Answered at" },
        { key: "trigger.answers", label: "Every answer" },
      ];
    case "cms-entry-published":
      return [
        { key: "trigger.id", label: "Entry's ID" },
        { key: "trigger.contentTypeName", label: "Content type" },
      ];
    case "proposal-accepted":
      return [
        { key: "trigger.title", label: "Proposal's title" },
        { key: "trigger.number", label: "Proposal's number" },
        { key: "trigger.total", label: "Proposal's total" },
        { key: "trigger.currency", label: "Proposal's currency" },
        { key: "trigger.client_id", label: "Client's ID" },
      ];
    case "cart-abandoned":
      return [
        { key: "trigger.email", label: "Customer's email" },
        { key: "trigger.customerName", label: "Customer's name" },
        { key: "trigger.total", label: "Cart's total" },
        { key: "trigger.currency", label: "Cart's currency" },
        { key: "trigger.itemCount", label: "Items in the cart" },
      ];
    case "email-opened":
    case "email-clicked":
      return [
        { key: "trigger.subject", label: "Email's subject" },
        { key: "trigger.messageId", label: "Email's ID" },
        { key: "trigger.clientId", label: "Client's ID" },
        ...(trigger.kind === "email-clicked" ? [{ key: "trigger.url", label: "Link clicked" }] : []),
        { key: "trigger.at", label: trigger.kind === "email-opened" ? "Opened at" : "Clicked at" },
      ];
    case "schedule":
      return [{ key: "trigger.scheduledAt", label: "Scheduled time" }];
    case "webhook":
      return [];
    case "automation-failed":
      return FAILED_RUN_FIELDS.map((f) => ({ key: `trigger.${f.key}`, label: f.label }));
    case "record-created":
    case "record-updated":
    case "record-deleted": {
      const schema = trigger.resource ? schemaOf(trigger.resource) : undefined;
      const owner = schema?.title ?? "Record";
      return [
        ...schemaFields(schema, "trigger", owner),
        ...(trigger.kind === "record-updated"
          ? [
              ...schemaFields(schema, "trigger.previous", `${owner} before`),
              { key: "trigger.changedFields", label: "Fields that changed" },
            ]
          : []),
      ];
    }
  }
}

/** What each kind of step (and each action type) answers, for later steps. */
const OUTPUTS: Readonly<Record<string, ReadonlyArray<readonly [string, string]>>> = {
  condition: [["branch", "branch taken"]],
  delay: [["until", "waited until"]],
  wait: [
    ["resumedBy", "event or timeout"],
    ["data", "the event's data"],
  ],
  send_email: [
    ["sent", "sent"],
    ["to", "sent to"],
  ],
  send_sms: [
    ["sent", "sent"],
    ["to", "sent to"],
    ["status", "status"],
  ],
  create_record: [["id", "record's ID"]],
  update_record: [["id", "record's ID"]],
  find_record: [
    ["found", "found (true or false)"],
    ["id", "record's ID"],
  ],
  add_tag: [["tag", "tag"]],
  enrol_in_sequence: [["enrolled", "enrolled"]],
  http_request: [
    ["status", "status code"],
    ["body", "answer's body"],
  ],
};

/** The name a step goes by in menus: its own, or "Step 2 (Send email)". */
export function stepLabel(step: Step, number: number | undefined): string {
  if (step.name) return step.name;
  const kind =
    step.kind === "action" && step.type
      ? ACTION_LABELS[step.type as ActionType]
      : STEP_KIND_LABELS[step.kind];
  return `Step ${number ?? "?"} (${kind})`;
}

/**
 * The outputs of `steps` (those a run passes before the step being edited); a "find record"
 * step's found record gives its entity's fields too (`schemaOf` reads them).
 */
export function stepOutputFields(
  steps: readonly Step[],
  numbers: ReadonlyMap<string, number>,
  schemaOf: (resource: string) => EntitySchema | undefined = () => undefined,
): MergeField[] {
  return steps.flatMap((step) => {
    const key = step.kind === "action" ? (step.type ?? "") : step.kind;
    const label = stepLabel(step, numbers.get(step.id));
    const fixed = (OUTPUTS[key] ?? []).map(([field, words]) => ({
      key: `steps.${step.id}.${field}`,
      label: `${label}: ${words}`,
    }));
    if (step.kind !== "action" || step.type !== "find_record" || !step.inputs.resource) return fixed;
    const found = schemaFields(schemaOf(step.inputs.resource), `steps.${step.id}.record`, label);
    return [...fixed, ...found];
  });
}

/** The variable menu's groups, the empty ones left out. */
export function variableGroups(
  trigger: readonly MergeField[],
  steps: readonly MergeField[],
): VariableGroup[] {
  return [
    { label: "Trigger", fields: trigger },
    { label: "Client", fields: CLIENT_MERGE_FIELDS },
    { label: "Earlier steps", fields: steps },
  ].filter((g) => g.fields.length > 0);
}
