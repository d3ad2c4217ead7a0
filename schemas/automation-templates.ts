/**
 * Ready-made flows (issue 30): a gallery of automations that fit the modules, as plain data.
 * Choosing one makes a new automation whose draft is the template's definition
 * (`POST /api/automations/from-template`, docs/automation-api.md "Templates"); nothing runs until
 * the person publishes it. Each template names the choices only its user can make (which form,
 * which sequence, who gets the summary): `choices`, each at the path `publishProblems` reports
 * while it is blank, so the builder marks exactly those nodes until they are filled.
 *
 * Pure data built from the step types of automation.ts: tests loop over `AUTOMATION_TEMPLATES`
 * (each passes the definition's schema; its only publish problems are its choices; filled, it
 * publishes and runs).
 */
import type { ActionStep, AutomationDefinition, Step } from "./automation";

/** Where a template sits in the gallery. */
export const TEMPLATE_CATEGORIES = ["Forms", "Store", "Sales", "CRM", "Reports"] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

/** A choice the person must make before the flow can be published. */
export interface TemplateChoice {
  /** The canvas node it belongs to (`trigger`, or a step's id): the builder selects it. */
  nodeId: string;
  /** The path in the definition (`trigger.formId`, `steps.0.inputs.sequenceId`), as publishProblems names it. */
  field: string;
  /** What to choose, in a person's words ("Choose the form whose answers start the flow"). */
  label: string;
}

export interface AutomationTemplate {
  /** Stable, in addresses and `POST /api/automations/from-template`. */
  id: string;
  /** The gallery card's title, and the new automation's name unless the person gives one. */
  name: string;
  /** One line: what the flow does. */
  description: string;
  category: TemplateCategory;
  /** An @ant-design/icons name shown on the card. */
  icon: string;
  definition: AutomationDefinition;
  choices: TemplateChoice[];
}

const email = (id: string, name: string, to: string, subject: string, body: string): ActionStep => ({
  id,
  name,
  kind: "action",
  type: "send_email",
  inputs: { to, subject, body },
});
const tag = (id: string, name: string, value: string): ActionStep => ({
  id,
  name,
  kind: "action",
  type: "add_tag",
  inputs: { tag: value },
});
const task = (id: string, name: string, fields: Record<string, string>): Step => ({
  id,
  name,
  kind: "action",
  type: "create_record",
  inputs: { resource: "task", fields },
});

export const AUTOMATION_TEMPLATES: readonly AutomationTemplate[] = [
  {
    id: "form-welcome",
    name: "New form answer → client + welcome email",
    description:
      "Tags the client the answer makes, then welcomes them by email if they agreed to email, else asks someone to call.",
    category: "Forms",
    icon: "FormOutlined",
    definition: {
      trigger: { kind: "form-submitted", formId: null },
      steps: [
        tag("tag-lead", "Mark as a new lead", "new-lead"),
        {
          id: "agreed",
          name: "Agreed to email?",
          kind: "condition",
          condition: {
            operator: "and",
            value: [{ field: "client.consent_email", operator: "eq", value: true }],
          },
          branches: {
            yes: [
              email(
                "welcome",
                "Welcome email",
                "{{client.email}}",
                "Welcome, {{client.first_name | there}}",
                "Hello {{client.first_name | there}},\n\nThank you for writing to us. We have your answer and will be in touch shortly.",
              ),
            ],
            no: [
              task("welcome-call", "Welcome by phone", {
                title: "Welcome {{client.name}} (answered {{trigger.form}})",
                client_id: "{{client.id}}",
                assignee_id: "{{client.owner_id}}",
              }),
            ],
          },
        },
      ],
    },
    choices: [
      { nodeId: "trigger", field: "trigger.formId", label: "Choose the form whose answers start the flow" },
    ],
  },
  {
    id: "cart-reminder",
    name: "Abandoned cart → reminder after 1 hour",
    description: "Waits an hour for the order; if none comes, emails the customer a reminder of their cart.",
    category: "Store",
    icon: "ShoppingCartOutlined",
    definition: {
      trigger: { kind: "cart-abandoned" },
      steps: [
        {
          id: "ordered",
          name: "Ordered within the hour?",
          kind: "wait",
          event: "cart-converted",
          timeout: { amount: 1, unit: "hours" },
          branches: {
            event: [],
            timeout: [
              email(
                "reminder",
                "Cart reminder",
                "{{trigger.email}}",
                "You left something in your cart",
                "Hello {{trigger.customerName | there}},\n\nYour cart of {{trigger.itemCount}} items ({{trigger.currency}} {{trigger.total}}) is still waiting for you.",
              ),
            ],
          },
        },
      ],
    },
    choices: [],
  },
  {
    id: "proposal-task",
    name: "Proposal accepted → task for the owner",
    description: "When a client accepts a proposal, gives their owner a task to start the work.",
    category: "Sales",
    icon: "FileDoneOutlined",
    definition: {
      trigger: { kind: "proposal-accepted" },
      steps: [
        task("kick-off", "Task for the owner", {
          title: "Start on {{trigger.title}} (proposal {{trigger.number}})",
          client_id: "{{client.id}}",
          opportunity_id: "{{trigger.opportunity_id}}",
          assignee_id: "{{client.owner_id}}",
          notes: "{{client.name}} accepted proposal {{trigger.number}}.",
        }),
      ],
    },
    choices: [],
  },
  {
    id: "client-sequence",
    name: "Client created → enrol in a sequence",
    description: "Every new client (by hand, import or form) is enrolled in the sequence you choose.",
    category: "CRM",
    icon: "UserAddOutlined",
    definition: {
      trigger: { kind: "client-created" },
      steps: [
        {
          id: "enrol",
          name: "Enrol in the sequence",
          kind: "action",
          type: "enrol_in_sequence",
          inputs: { sequenceId: null },
        },
      ],
    },
    choices: [{ nodeId: "enrol", field: "steps.0.inputs.sequenceId", label: "Choose the sequence" }],
  },
  {
    id: "won-thanks",
    name: "Opportunity won → thank-you email + tag",
    description:
      "When an opportunity moves to the Won stage, thanks the client by email and tags them as a customer.",
    category: "Sales",
    icon: "TrophyOutlined",
    definition: {
      trigger: { kind: "opportunity-stage-changed", stage: "won" },
      steps: [
        email(
          "thanks",
          "Thank-you email",
          "{{client.email}}",
          "Thank you, {{client.first_name | there}}",
          "Hello {{client.first_name | there}},\n\nThank you for choosing us for {{trigger.title}}. We are glad to work with you.",
        ),
        tag("customer", "Tag as customer", "customer"),
      ],
    },
    choices: [],
  },
  {
    id: "weekly-summary",
    name: "Every Monday → weekly summary email",
    description:
      "Every Monday at 9:00 sends the team a reminder to review the week's clients, deals and tasks.",
    category: "Reports",
    icon: "CalendarOutlined",
    definition: {
      trigger: { kind: "schedule", cron: "0 9 * * 1" },
      steps: [
        email(
          "summary",
          "Summary email",
          "",
          "Your weekly review",
          "Good morning,\n\nIt is time for the weekly review ({{trigger.scheduledAt}}): the new clients, the open opportunities and this week's tasks are waiting in Atelier.",
        ),
      ],
    },
    choices: [
      { nodeId: "trigger", field: "trigger.timeZone", label: "Choose the time zone Monday 9:00 is read in" },
      { nodeId: "summary", field: "steps.0.inputs.to", label: "Enter who gets the summary" },
    ],
  },
];

/** The template of an id, or undefined. */
export const templateById = (id: string): AutomationTemplate | undefined =>
  AUTOMATION_TEMPLATES.find((t) => t.id === id);

/** The value at a dotted path of a definition (`steps.0.inputs.to`). */
export function valueAt(definition: AutomationDefinition, field: string): unknown {
  return field
    .split(".")
    .reduce<unknown>(
      (at, key) => (at && typeof at === "object" ? (at as Record<string, unknown>)[key] : undefined),
      definition,
    );
}

/**
 * The definition with `values` set at their paths (a copy): what a person does in the builder's
 * forms, for tests and scripts.
 *
 * @example
 * withChoices(template.definition, { "trigger.formId": form.id });
 */
export function withChoices(
  definition: AutomationDefinition,
  values: Readonly<Record<string, unknown>>,
): AutomationDefinition {
  const copy = structuredClone(definition) as unknown as Record<string, unknown>;
  for (const [field, value] of Object.entries(values)) {
    const keys = field.split(".");
    const last = keys.pop() as string;
    let at: Record<string, unknown> = copy;
    for (const key of keys) {
      at[key] ??= {};
      at = at[key] as Record<string, unknown>;
    }
    at[last] = value;
  }
  return copy as unknown as AutomationDefinition;
}
