import { categorySchema } from "../schemas/categories";
import type { ResourceDefinition } from "./contract";
import { MODULE_IDS } from "./modules";

export const categories: ResourceDefinition = {
  name: "categories",
  schema: categorySchema,
  moduleID: MODULE_IDS.products,
  base: "api",
  label: "Categories",
  singular: "Category",
  icon: "AppstoreOutlined",
  parent: "products",
  order: 1,
  columnWidths: { products_cat_id: 180 },
  uiSchema: { "ui:order": ["name", "products_cat_id", "description"] },
};
