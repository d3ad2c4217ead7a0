import type { ModuleDefinition } from "./modules";

export const automationModule: ModuleDefinition = {
  moduleID: 7,
  key: "automation",
  name: "Automation",
  icon: "ApartmentOutlined",
  description: "Workflow automation builder",
};
