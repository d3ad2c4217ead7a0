import type { ModuleDefinition } from "./modules";

export const storeModule: ModuleDefinition = {
  moduleID: 3,
  key: "store",
  name: "Online store",
  icon: "ShopOutlined",
  description: "Store integration: product and cart lists",
};
