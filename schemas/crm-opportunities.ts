/**
 * An opportunity (issue 16): a deal with a client, worth a value in one currency, moving
 * through the admin-managed stages on the pipeline board until it is won or lost.
 */
import { auditProperties, type EntitySchema } from "./contract";
import { OPPORTUNITY_STATUSES } from "./crm";
import { CURRENCIES } from "./products";

export const opportunitySchema = {
  $id: "opportunity",
  title: "Opportunity",
  type: "object",
  additionalProperties: false,
  "x-table": "opportunities",
  "x-label": "title",
  "x-defaultSort": "-updated_at",
  "x-custom": "opportunities",
  "x-list": ["title", "client_id", "value", "currency", "stage", "status", "owner_id", "expected_close"],
  "x-searchable": ["title"],
  "x-filterable": [
    "title",
    "client_id",
    "value",
    "currency",
    "stage",
    "status",
    "owner_id",
    "expected_close",
    "closed_at",
    "created_at",
    "updated_at",
  ],
  required: ["title", "client_id", "stage"],
  properties: {
    ...auditProperties,
    title: { type: "string", title: "Title", minLength: 1, maxLength: 200 },
    client_id: {
      type: "string",
      format: "uuid",
      title: "Client",
      "x-relation": { resource: "clients", labelField: "name", onDelete: "cascade" },
    },
    value: {
      type: "number",
      title: "Value",
      minimum: 0,
      maximum: 999999999999.99,
      multipleOf: 0.01,
      default: 0,
    },
    currency: { type: "string", title: "Currency", enum: CURRENCIES, default: "INR" },
    stage: { type: "string", title: "Stage", maxLength: 40, "x-options": "stage" },
    status: {
      type: "string",
      title: "Status",
      enum: OPPORTUNITY_STATUSES,
      "x-enumLabels": ["Open", "Won", "Lost"],
      default: "open",
    },
    lost_reason: {
      type: ["string", "null"],
      title: "Lost reason",
      maxLength: 40,
      "x-options": "lost_reason",
    },
    close_note: {
      type: ["string", "null"],
      title: "Won or lost because",
      maxLength: 1000,
      "x-multiline": true,
    },
    owner_id: {
      type: ["string", "null"],
      format: "uuid",
      title: "Owner",
      "x-relation": { resource: "users", labelField: "name", onDelete: "set null" },
    },
    expected_close: { type: ["string", "null"], format: "date", title: "Expected close" },
    closed_at: { type: ["string", "null"], format: "date-time", title: "Closed", readOnly: true },
    position: {
      type: "number",
      title: "Position in its stage",
      description: "Order of the card in its column on the board, lowest first",
      default: 0,
      readOnly: true,
      "x-internal": true,
    },
  },
} as const satisfies EntitySchema;
