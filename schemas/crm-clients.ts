/**
 * A client (issue 16): a person the business deals with, with their company, how to reach
 * them, who owns the relationship, where they came from, and what they agreed to receive.
 * Admins add fields at run time (`x-custom`); those live in the `custom` column.
 */
import { auditProperties, type EntitySchema } from "./contract";

export const clientSchema = {
  $id: "client",
  title: "Client",
  type: "object",
  additionalProperties: false,
  "x-table": "clients",
  "x-label": "name",
  "x-defaultSort": "-updated_at",
  "x-custom": "clients",
  "x-list": ["name", "company", "email", "phone", "owner_id", "source", "tags", "updated_at"],
  "x-searchable": ["name", "company", "email", "phone"],
  "x-filterable": [
    "name",
    "company",
    "email",
    "owner_id",
    "source",
    "industry",
    "consent_email",
    "consent_sms",
    "last_activity_at",
    "created_at",
    "updated_at",
  ],
  "x-unique": [["email"]],
  required: ["name"],
  properties: {
    ...auditProperties,
    name: { type: "string", title: "Name", minLength: 1, maxLength: 160 },
    email: { type: ["string", "null"], title: "Email", format: "email", maxLength: 254 },
    phone: {
      type: ["string", "null"],
      title: "Phone",
      maxLength: 20,
      pattern: "^\\+[1-9][0-9]{6,14}$",
      "x-patternMessage": "must be in international form: + then the country code and number, digits only",
      description: "International form, such as +919876543210",
    },
    company: { type: ["string", "null"], title: "Company", maxLength: 160 },
    job_title: { type: ["string", "null"], title: "Job title", maxLength: 120 },
    owner_id: {
      type: ["string", "null"],
      format: "uuid",
      title: "Owner",
      "x-relation": { resource: "users", labelField: "name", onDelete: "set null" },
    },
    source: { type: ["string", "null"], title: "Source", maxLength: 40, "x-options": "source" },
    industry: { type: ["string", "null"], title: "Industry", maxLength: 40, "x-options": "industry" },
    tags: {
      type: "array",
      title: "Tags",
      items: { type: "string", maxLength: 40 },
      maxItems: 30,
      default: [],
      "x-options": "tag",
    },
    consent_email: { type: "boolean", title: "Agrees to email", default: false },
    consent_sms: { type: "boolean", title: "Agrees to SMS", default: false },
    sms_opted_out_at: {
      type: ["string", "null"],
      format: "date-time",
      title: "SMS opted out",
      description: "Set when the client texts STOP; cleared by START",
      readOnly: true,
    },
    first_touch: {
      type: ["string", "null"],
      title: "First touch",
      description: "The campaign (utm_source / utm_medium / utm_campaign) of the client's first form",
      maxLength: 300,
      readOnly: true,
    },
    last_activity_at: {
      type: ["string", "null"],
      format: "date-time",
      title: "Last activity",
      readOnly: true,
    },
  },
} as const satisfies EntitySchema;
