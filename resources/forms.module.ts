import type { ModuleDefinition } from "./modules";

export const formsModule: ModuleDefinition = {
  moduleID: 6,
  key: "forms",
  name: "Forms",
  icon: "FormOutlined",
  description: "Form builder with UTM and mail settings",
};
