/**
 * An automation as a record (issue 17): what the automations list shows and the engine serves
 * at `/api/automations` (name, state, owner, figures). Its flow — a trigger and a tree of steps
 * (schemas/automation.ts) — is kept beside it, as a draft and as the published version, and
 * edited through the module's own routes (`/api/automations/{id}/draft`, `/publish`).
 */
import { TRIGGER_KINDS, TRIGGER_LABELS } from "./automation-triggers";
import { auditProperties, type EntitySchema } from "./contract";

/**
 * 'draft': never published, nothing starts it; 'active': its published version runs on its
 * trigger; 'paused': published, but its trigger starts no run (runs in flight go on).
 */
export const AUTOMATION_STATUSES = ["draft", "active", "paused"] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];

export const automationSchema = {
  $id: "automation",
  title: "Automation",
  type: "object",
  additionalProperties: false,
  "x-table": "automations",
  "x-label": "name",
  "x-defaultSort": "-updated_at",
  // The live version is one click away (Columns): at 1280 px the rest fit without scrolling.
  "x-list": ["name", "status", "trigger_kind", "last_run_at", "failed_runs", "updated_at"],
  "x-searchable": ["name", "description"],
  "x-filterable": ["name", "status", "trigger_kind", "owner_id", "last_run_at", "failed_runs", "updated_at"],
  "x-unique": [["name"]],
  required: ["name"],
  properties: {
    ...auditProperties,
    name: { type: "string", title: "Name", minLength: 1, maxLength: 120 },
    description: { type: ["string", "null"], title: "Description", maxLength: 1000, "x-multiline": true },
    status: {
      type: "string",
      title: "Status",
      description: "Active: its trigger starts runs. Paused: it starts none (runs in flight go on)",
      enum: AUTOMATION_STATUSES,
      "x-enumLabels": ["Draft", "Active", "Paused"],
      default: "draft",
    },
    owner_id: {
      type: ["string", "null"],
      format: "uuid",
      title: "Owner",
      description: "Told when a run fails (with the admins), unless that is turned off",
      "x-relation": { resource: "users", labelField: "name", onDelete: "set null" },
    },
    notify_on_failure: {
      type: "boolean",
      title: "Tell the owner when a run fails",
      description:
        "The owner (else the author) and the admins get a notification, and a mail if they asked for one",
      default: true,
    },
    failure_automation_id: {
      type: ["string", "null"],
      format: "uuid",
      title: "When a run fails, start",
      description:
        'Another automation, with the trigger "Another automation failed": it gets the failed run\'s trigger, step and error',
      "x-relation": { resource: "automations", labelField: "name", onDelete: "set null" },
    },
    trigger_kind: {
      type: ["string", "null"],
      title: "Trigger",
      description: "The published version's trigger",
      enum: TRIGGER_KINDS,
      "x-enumLabels": TRIGGER_KINDS.map((k) => TRIGGER_LABELS[k]),
      readOnly: true,
    },
    published_version: { type: ["integer", "null"], title: "Live version", minimum: 1, readOnly: true },
    published_at: { type: ["string", "null"], format: "date-time", title: "Published", readOnly: true },
    last_run_at: { type: ["string", "null"], format: "date-time", title: "Last run", readOnly: true },
    failed_runs: {
      type: "integer",
      title: "Failed runs",
      description: "Runs that stopped on a failed step and were not run again",
      minimum: 0,
      default: 0,
      readOnly: true,
    },
  },
} as const satisfies EntitySchema;
