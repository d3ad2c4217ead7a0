/**
 * The CRM's records (issue 16), all under `/crm`: the engine serves their lists, forms, CSV and
 * live updates; the client's page, the pipeline board and the dialogs are the module's own.
 */
import { clientSchema } from "../schemas/crm-clients";
import { dropdownSchema } from "../schemas/crm-dropdowns";
import { opportunitySchema } from "../schemas/crm-opportunities";
import { taskSchema } from "../schemas/crm-tasks";
import { templateSchema } from "../schemas/crm-templates";
import type { ResourceDefinition } from "./contract";
import { MODULE_IDS } from "./modules";

export const clients: ResourceDefinition = {
  name: "clients",
  schema: clientSchema,
  moduleID: MODULE_IDS.crm,
  base: "crm",
  label: "Clients",
  singular: "Client",
  icon: "UserOutlined",
  parent: "crm",
  order: 1,
  columnWidths: { phone: 160, tags: 200 },
  pages: { show: "crm.client" },
  actions: { bulk: ["clients.merge", "crm.enrol-in-sequence"] },
  uiSchema: {
    "ui:order": [
      "name",
      "email",
      "phone",
      "company",
      "job_title",
      "owner_id",
      "source",
      "industry",
      "tags",
      "consent_email",
      "consent_sms",
      "*",
    ],
  },
};

export const opportunities: ResourceDefinition = {
  name: "opportunities",
  schema: opportunitySchema,
  moduleID: MODULE_IDS.crm,
  base: "crm",
  label: "Opportunities",
  singular: "Opportunity",
  icon: "FundOutlined",
  parent: "crm",
  order: 2,
  columnWidths: { value: 140, currency: 110, status: 110 },
  uiSchema: {
    "ui:order": [
      "title",
      "client_id",
      "value",
      "currency",
      "stage",
      "status",
      "lost_reason",
      "close_note",
      "owner_id",
      "expected_close",
      "*",
    ],
  },
};

export const tasks: ResourceDefinition = {
  name: "tasks",
  schema: taskSchema,
  moduleID: MODULE_IDS.crm,
  base: "crm",
  label: "Tasks",
  singular: "Task",
  icon: "CheckSquareOutlined",
  parent: "crm",
  order: 4,
  uiSchema: {
    "ui:order": [
      "title",
      "client_id",
      "opportunity_id",
      "due_at",
      "remind_at",
      "assignee_id",
      "done",
      "notes",
    ],
  },
};

export const templates: ResourceDefinition = {
  name: "templates",
  schema: templateSchema,
  moduleID: MODULE_IDS.crm,
  base: "crm",
  label: "Message templates",
  singular: "Message template",
  icon: "SnippetsOutlined",
  parent: "crm",
  order: 6,
  uiSchema: { "ui:order": ["name", "channel", "subject", "body"] },
};

export const dropdowns: ResourceDefinition = {
  name: "dropdowns",
  schema: dropdownSchema,
  moduleID: MODULE_IDS.crm,
  base: "crm",
  label: "Dropdown lists",
  singular: "Dropdown option",
  icon: "UnorderedListOutlined",
  parent: "crm",
  order: 7,
  uiSchema: { "ui:order": ["list", "label", "value", "position", "probability", "color", "archived"] },
};
