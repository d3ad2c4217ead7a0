import { formSchema } from "../schemas/form-records";
import type { ResourceDefinition } from "./contract";
import { MODULE_IDS } from "./modules";

/** Forms (issue 15): the list and create screens are the engine's; a form's page is its builder. */
export const forms: ResourceDefinition = {
  name: "forms",
  schema: formSchema,
  moduleID: MODULE_IDS.forms,
  base: "forms",
  label: "Forms",
  singular: "Form",
  icon: "FormOutlined",
  parent: "forms",
  order: 0,
  columnWidths: { slug: 200, status: 120, has_changes: 160, accepting: 160 },
  pages: { show: "forms.show" },
  uiSchema: { "ui:order": ["name", "slug", "description", "accepting"] },
};
