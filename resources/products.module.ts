import type { ModuleDefinition } from "./modules";

export const productsModule: ModuleDefinition = {
  moduleID: 2,
  key: "products",
  name: "Products",
  icon: "ShoppingOutlined",
  description: "Product master data, categories and sub-categories",
};
