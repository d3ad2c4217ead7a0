/** Product category (spec §3: a category has products_cat_id). */
import { auditProperties, type EntitySchema } from "./contract";

export const categorySchema = {
  $id: "category",
  title: "Category",
  type: "object",
  additionalProperties: false,
  "x-table": "categories",
  "x-label": "name",
  "x-defaultSort": "name",
  "x-list": ["name", "products_cat_id", "description", "updated_at"],
  "x-searchable": ["name", "description"],
  "x-filterable": ["name", "products_cat_id", "created_at", "updated_at"],
  "x-unique": [["name"], ["products_cat_id"]],
  required: ["name"],
  properties: {
    ...auditProperties,
    name: { type: "string", title: "Name", minLength: 1, maxLength: 120 },
    products_cat_id: {
      type: "integer",
      title: "Catalogue category ID",
      description: "The category's number in the online store",
      minimum: 1,
      maximum: 2147483647,
    },
    description: { type: "string", title: "Description", maxLength: 2000, "x-multiline": true },
  },
} as const satisfies EntitySchema;
