import { subCategorySchema } from "../schemas/sub-categories";
import type { ResourceDefinition } from "./contract";
import { MODULE_IDS } from "./modules";

export const subCategories: ResourceDefinition = {
  name: "sub-categories",
  schema: subCategorySchema,
  moduleID: MODULE_IDS.products,
  base: "api",
  label: "Sub-categories",
  singular: "Sub-category",
  icon: "ClusterOutlined",
  parent: "products",
  order: 2,
  uiSchema: { "ui:order": ["category_id", "name", "description"] },
};
