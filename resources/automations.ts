import { automationSchema } from "../schemas/automations";
import type { ResourceDefinition } from "./contract";
import { MODULE_IDS } from "./modules";

/**
 * Automations (issue 17): the list is the engine's with "Start from a template" beside Create
 * ("automations.list", issue 30), the create form is the engine's; an automation's page is its
 * canvas, versions and run history ("automations.show").
 */
export const automations: ResourceDefinition = {
  name: "automations",
  schema: automationSchema,
  moduleID: MODULE_IDS.automation,
  base: "api",
  label: "Automations",
  singular: "Automation",
  icon: "ApartmentOutlined",
  parent: "automation",
  order: 0,
  columnWidths: {
    status: 100,
    trigger_kind: 160,
    published_version: 100,
    last_run_at: 150,
    failed_runs: 100,
  },
  csv: false,
  pages: { list: "automations.list", show: "automations.show" },
  uiSchema: {
    "ui:order": ["name", "description", "status", "owner_id", "notify_on_failure", "failure_automation_id"],
  },
};
