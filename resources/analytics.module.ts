import type { ModuleDefinition } from "./modules";

export const analyticsModule: ModuleDefinition = {
  moduleID: 9,
  key: "analytics",
  name: "Analytics",
  icon: "LineChartOutlined",
  description: "Views, visitors and searched words",
};
