import { productSchema } from "../schemas/products";
import type { ResourceDefinition } from "./contract";
import { MODULE_IDS } from "./modules";

export const products: ResourceDefinition = {
  name: "products",
  schema: productSchema,
  moduleID: MODULE_IDS.products,
  base: "api",
  label: "Products",
  singular: "Product",
  icon: "ShoppingOutlined",
  parent: "products",
  order: 0,
  columnWidths: { sku_code: 140, price: 120, currency: 100, status: 110 },
  uiSchema: {
    "ui:order": [
      "sku_code",
      "name",
      "category_id",
      "sub_category_id",
      "price",
      "currency",
      "stock_level",
      "parent_id",
      "status",
      "description",
      "images",
    ],
  },
};
