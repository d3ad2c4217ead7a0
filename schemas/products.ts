/** Product master data (spec §3: a product has sku_code; §9: default currency INR). */
import { auditProperties, type EntitySchema } from "./contract";

export const CURRENCIES = ["INR", "USD", "EUR", "GBP", "AED", "SGD", "AUD", "CAD", "JPY"] as const;
export const PRODUCT_STATUSES = ["draft", "active", "archived"] as const;

export const productSchema = {
  $id: "product",
  title: "Product",
  type: "object",
  additionalProperties: false,
  "x-table": "products",
  "x-label": "name",
  "x-defaultSort": "-updated_at",
  "x-list": [
    "sku_code",
    "name",
    "price",
    "currency",
    "category_id",
    "sub_category_id",
    "status",
    "updated_at",
  ],
  "x-searchable": ["sku_code", "name", "description"],
  "x-filterable": [
    "sku_code",
    "name",
    "price",
    "currency",
    "category_id",
    "sub_category_id",
    "status",
    "created_at",
    "updated_at",
  ],
  "x-unique": [["sku_code"]],
  required: ["sku_code", "name", "price", "category_id"],
  properties: {
    ...auditProperties,
    sku_code: {
      type: "string",
      title: "SKU code",
      minLength: 1,
      maxLength: 64,
      pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*$",
      description: "Letters, digits, dots, dashes and underscores; starts with a letter or digit",
      "x-patternMessage": "may only contain letters, digits, dots, dashes and underscores",
    },
    name: { type: "string", title: "Name", minLength: 1, maxLength: 200 },
    description: { type: "string", title: "Description", maxLength: 5000, "x-multiline": true },
    price: { type: "number", title: "Price", minimum: 0, maximum: 999999999.99, multipleOf: 0.01 },
    currency: { type: "string", title: "Currency", enum: CURRENCIES, default: "INR" },
    category_id: {
      type: "string",
      format: "uuid",
      title: "Category",
      "x-relation": { resource: "categories", labelField: "name" },
    },
    sub_category_id: {
      type: "string",
      format: "uuid",
      title: "Sub-category",
      "x-relation": { resource: "sub-categories", labelField: "name", within: "category_id" },
    },
    status: {
      type: "string",
      title: "Status",
      enum: PRODUCT_STATUSES,
      "x-enumLabels": ["Draft", "Active", "Archived"],
      default: "draft",
    },
    images: {
      type: "array",
      title: "Images",
      items: { type: "string", title: "Image", format: "uri", maxLength: 2000 },
      maxItems: 20,
      "x-media": true,
    },
  },
} as const satisfies EntitySchema;
