import { sequenceSchema } from "../schemas/crm-sequences";
import type { ResourceDefinition } from "./contract";
import { MODULE_IDS } from "./modules";

/**
 * Sequences (issue 16): the list and the create form are the engine's; a sequence's page is its
 * builder, figures and enrolments ("sequences.show").
 */
export const sequences: ResourceDefinition = {
  name: "sequences",
  schema: sequenceSchema,
  moduleID: MODULE_IDS.crm,
  base: "crm",
  label: "Sequences",
  singular: "Sequence",
  icon: "ScheduleOutlined",
  parent: "crm",
  order: 5,
  columnWidths: { status: 110, step_count: 90, version: 100 },
  pages: { show: "sequences.show" },
  uiSchema: { "ui:order": ["name", "description", "status"] },
};
