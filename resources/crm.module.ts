import type { ModuleDefinition } from "./modules";

export const crmModule: ModuleDefinition = {
  moduleID: 5,
  key: "crm",
  name: "CRM",
  icon: "TeamOutlined",
  description: "Clients, opportunities, dialogs and sequences",
};
