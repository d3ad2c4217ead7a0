/**
 * A message template (issue 16): the subject and body an email or SMS starts from, with merge
 * fields such as `{{client.name}}` filled from the client when it is sent.
 */
import { auditProperties, type EntitySchema } from "./contract";

export const MESSAGE_CHANNELS = ["email", "sms"] as const;

export const templateSchema = {
  $id: "template",
  title: "Message template",
  type: "object",
  additionalProperties: false,
  "x-table": "crm_templates",
  "x-label": "name",
  "x-defaultSort": "name",
  "x-list": ["name", "channel", "subject", "updated_at"],
  "x-searchable": ["name", "subject", "body"],
  "x-filterable": ["name", "channel", "updated_at"],
  "x-unique": [["channel", "name"]],
  required: ["name", "channel", "body"],
  properties: {
    ...auditProperties,
    name: { type: "string", title: "Name", minLength: 1, maxLength: 120 },
    channel: {
      type: "string",
      title: "Channel",
      enum: MESSAGE_CHANNELS,
      "x-enumLabels": ["Email", "SMS"],
      default: "email",
    },
    subject: {
      type: ["string", "null"],
      title: "Subject",
      description: "Email only",
      maxLength: 200,
    },
    body: {
      type: "string",
      title: "Body",
      description: "Merge fields: {{client.name}}, {{client.first_name}}, {{client.company}}, {{user.name}}",
      minLength: 1,
      maxLength: 20000,
      "x-multiline": true,
    },
  },
} as const satisfies EntitySchema;
