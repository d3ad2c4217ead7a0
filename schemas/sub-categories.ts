/** Sub-category: belongs to one category. */
import { auditProperties, type EntitySchema } from "./contract";

export const subCategorySchema = {
  $id: "sub-category",
  title: "Sub-category",
  type: "object",
  additionalProperties: false,
  "x-table": "sub_categories",
  "x-label": "name",
  "x-defaultSort": "name",
  "x-list": ["name", "category_id", "description", "updated_at"],
  "x-searchable": ["name", "description"],
  "x-filterable": ["name", "category_id", "created_at", "updated_at"],
  "x-unique": [["category_id", "name"]],
  required: ["name", "category_id"],
  properties: {
    ...auditProperties,
    name: { type: "string", title: "Name", minLength: 1, maxLength: 120 },
    category_id: {
      type: "string",
      format: "uuid",
      title: "Category",
      "x-relation": { resource: "categories", labelField: "name" },
    },
    description: { type: "string", title: "Description", maxLength: 2000, "x-multiline": true },
  },
} as const satisfies EntitySchema;
