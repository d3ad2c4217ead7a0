/**
 * A form as a record (issue 15): what the forms list shows and the engine serves at
 * `/forms/forms` (name, public slug, whether it takes answers, publication state). Its fields
 * and settings, draft and published, are the definition (schemas/form-definition.ts), kept
 * beside it and edited by the builder through the module's own routes.
 */
import { auditProperties, type EntitySchema } from "./contract";

export const FORM_STATUSES = ["draft", "published"] as const;

export const formSchema = {
  $id: "form",
  title: "Form",
  type: "object",
  additionalProperties: false,
  "x-table": "forms",
  "x-label": "name",
  "x-defaultSort": "-updated_at",
  "x-list": ["name", "slug", "status", "has_changes", "accepting", "updated_at"],
  "x-searchable": ["name", "slug"],
  "x-filterable": ["name", "status", "accepting", "published_at", "updated_at"],
  "x-unique": [["slug"]],
  required: ["name", "slug"],
  properties: {
    ...auditProperties,
    name: { type: "string", title: "Name", minLength: 1, maxLength: 120 },
    slug: {
      type: "string",
      title: "Slug",
      description: "The public address: /forms/f/{slug}",
      minLength: 1,
      maxLength: 80,
      pattern: "^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$",
      "x-keyFrom": "name",
      "x-patternMessage":
        "may only contain lower-case letters, digits and dashes, and must start and end with a letter or digit",
    },
    description: { type: "string", title: "Description", maxLength: 500, "x-multiline": true },
    accepting: {
      type: "boolean",
      title: "Accepting answers",
      description: "When off, the public form says it is closed and takes no answer",
      default: true,
    },
    status: {
      type: "string",
      title: "Status",
      enum: FORM_STATUSES,
      "x-enumLabels": ["Draft", "Published"],
      default: "draft",
      readOnly: true,
    },
    has_changes: {
      type: "boolean",
      title: "Unpublished changes",
      default: false,
      readOnly: true,
    },
    published_version: { type: ["integer", "null"], title: "Published version", minimum: 1, readOnly: true },
    published_at: { type: ["string", "null"], format: "date-time", title: "Published", readOnly: true },
  },
} as const satisfies EntitySchema;
