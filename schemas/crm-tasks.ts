/** A CRM task (issue 16): something to do for a client, by a due time, with a reminder. */
import { auditProperties, type EntitySchema } from "./contract";

export const taskSchema = {
  $id: "task",
  title: "Task",
  type: "object",
  additionalProperties: false,
  "x-table": "crm_tasks",
  "x-label": "title",
  "x-defaultSort": "done,due_at",
  "x-list": ["title", "client_id", "due_at", "assignee_id", "done"],
  "x-searchable": ["title"],
  "x-filterable": ["title", "client_id", "opportunity_id", "due_at", "assignee_id", "done", "updated_at"],
  required: ["title"],
  properties: {
    ...auditProperties,
    title: { type: "string", title: "Title", minLength: 1, maxLength: 200 },
    notes: { type: ["string", "null"], title: "Notes", maxLength: 4000, "x-multiline": true },
    client_id: {
      type: ["string", "null"],
      format: "uuid",
      title: "Client",
      "x-relation": { resource: "clients", labelField: "name", onDelete: "cascade" },
    },
    opportunity_id: {
      type: ["string", "null"],
      format: "uuid",
      title: "Opportunity",
      "x-relation": { resource: "opportunities", labelField: "title", onDelete: "set null" },
    },
    due_at: { type: ["string", "null"], format: "date-time", title: "Due" },
    remind_at: {
      type: ["string", "null"],
      format: "date-time",
      title: "Remind at",
      description: "A notification (and a mail, for those who asked for one) at this time",
    },
    assignee_id: {
      type: ["string", "null"],
      format: "uuid",
      title: "Assigned to",
      "x-relation": { resource: "users", labelField: "name", onDelete: "set null" },
    },
    done: { type: "boolean", title: "Done", default: false },
    done_at: { type: ["string", "null"], format: "date-time", title: "Done at", readOnly: true },
  },
} as const satisfies EntitySchema;
