/**
 * What a stored form definition may hold, as JSON Schema: the server's one validator checks the
 * builder's PUT with it, with the usual per-field messages. What a schema cannot say is in
 * form-definition-checks.ts. Pure.
 */
import { OPERATORS } from "./conditions";
import {
  FIELD_ID_PATTERN,
  FIRST_TOUCH_MODES,
  LOGIC_ACTIONS,
  MAX_FORM_FIELDS,
  MAX_RESUME_DAYS,
  PARAMETER_NAME_PATTERN,
} from "./form-definition";
import { FORM_FIELD_KINDS } from "./forms";

const text = (title: string, maxLength: number, minLength = 0) =>
  ({ type: "string", title, maxLength, ...(minLength ? { minLength } : {}) }) as const;
const count = (title: string) => ({ type: "integer", title, minimum: 0, maximum: 1_000_000 }) as const;
const addresses = (title: string) =>
  ({
    type: "array",
    title,
    maxItems: 20,
    items: { type: "string", title: "Address", maxLength: 320 },
  }) as const;
const fieldRef = (title: string) => ({ type: ["string", "null"], title, maxLength: 63 }) as const;
const parameter = {
  type: "object",
  additionalProperties: false,
  required: ["id", "name", "type"],
  properties: {
    id: { type: "integer", title: "ID", minimum: 1, maximum: 10_000 },
    name: {
      type: "string",
      title: "Parameter name",
      pattern: PARAMETER_NAME_PATTERN,
      "x-patternMessage": "must start with a letter and hold only letters, digits, _ and -",
    },
    type: { type: "integer", title: "Type", minimum: 0, maximum: 1 },
    defaultValue: text("Default value", 200),
  },
} as const;

export const formDefinitionSchema = {
  type: "object",
  additionalProperties: false,
  required: ["fields", "settings"],
  properties: {
    fields: {
      type: "array",
      title: "Fields",
      maxItems: MAX_FORM_FIELDS,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "kind", "label", "validation"],
        properties: {
          id: {
            type: "string",
            title: "Field ID",
            pattern: FIELD_ID_PATTERN,
            "x-patternMessage":
              "must start with a lower-case letter and hold only lower-case letters, digits and _",
          },
          kind: { type: "string", title: "Type", enum: FORM_FIELD_KINDS },
          label: text("Label", 300, 1),
          placeholder: text("Placeholder", 200),
          help: text("Help text", 1000),
          required: { type: "boolean", title: "Required" },
          options: {
            type: "array",
            title: "Options",
            maxItems: 200,
            items: { type: "string", title: "Option", minLength: 1, maxLength: 200 },
          },
          defaultValue: text("Default value", 1000),
          validation: {
            type: "object",
            title: "Validation",
            additionalProperties: false,
            properties: {
              minLength: count("Minimum length"),
              maxLength: count("Maximum length"),
              pattern: text("Pattern", 500),
              min: { type: "number", title: "Minimum" },
              max: { type: "number", title: "Maximum" },
              accept: {
                type: "array",
                title: "Allowed file types",
                maxItems: 30,
                items: { type: "string", title: "File type", minLength: 1, maxLength: 100 },
              },
              maxSizeMb: { type: "number", title: "Largest file (MB)", exclusiveMinimum: 0, maximum: 50 },
              minItems: count("Fewest choices"),
              maxItems: count("Most choices"),
            },
          },
          logic: {
            type: "array",
            title: "Logic",
            maxItems: 10,
            items: {
              type: "object",
              additionalProperties: false,
              required: ["action", "match", "conditions"],
              properties: {
                action: { type: "string", title: "Action", enum: LOGIC_ACTIONS },
                match: { type: "string", title: "Match", enum: ["all", "any"] },
                conditions: {
                  type: "array",
                  title: "Conditions",
                  maxItems: 20,
                  items: {
                    type: "object",
                    additionalProperties: false,
                    required: ["field", "operator"],
                    properties: {
                      field: text("Condition field", 63, 1),
                      operator: { type: "string", title: "Operator", enum: OPERATORS },
                      value: { type: ["string", "number", "boolean", "array", "null"], title: "Value" },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    settings: {
      type: "object",
      additionalProperties: false,
      required: ["mail", "utm", "submit", "firstTouch"],
      properties: {
        mail: {
          type: "object",
          additionalProperties: false,
          required: ["isEmail", "Destination", "sendCc", "sendBcc", "subject", "body"],
          properties: {
            isEmail: { type: "boolean", title: "Send notification mail" },
            Destination: addresses("Destination"),
            sendCc: addresses("Cc"),
            sendBcc: addresses("Bcc"),
            subject: text("Subject", 200),
            body: text("Body", 10_000),
            replyToField: { type: ["string", "null"], title: "Reply-To field", maxLength: 63 },
            confirmation: {
              type: "object",
              additionalProperties: false,
              required: ["enabled", "subject", "body"],
              properties: {
                enabled: { type: "boolean", title: "Confirmation mail" },
                subject: text("Confirmation subject", 200),
                body: text("Confirmation body", 10_000),
              },
            },
          },
        },
        utm: {
          type: "object",
          additionalProperties: false,
          required: ["trackingId", "Step", "defaultParameters", "customParameters"],
          properties: {
            trackingId: text("Tracking ID", 100),
            Step: { type: "integer", title: "Step", minimum: 1, maximum: 1000 },
            defaultParameters: { type: "array", title: "Default parameters", maxItems: 5, items: parameter },
            customParameters: { type: "array", title: "Custom parameters", maxItems: 20, items: parameter },
          },
        },
        submit: {
          type: "object",
          additionalProperties: false,
          required: ["buttonLabel", "successMessage"],
          properties: {
            buttonLabel: text("Button label", 60, 1),
            successMessage: text("Success message", 1000, 1),
          },
        },
        firstTouch: { type: "string", title: "First-touch tracking", enum: FIRST_TOUCH_MODES },
        crm: {
          type: "object",
          additionalProperties: false,
          required: ["createClients", "emailField", "nameField", "phoneField", "companyField", "sequenceId"],
          properties: {
            createClients: { type: "boolean", title: "Create clients" },
            emailField: fieldRef("Email field"),
            nameField: fieldRef("Name field"),
            phoneField: fieldRef("Phone field"),
            companyField: fieldRef("Company field"),
            sequenceId: { type: ["string", "null"], title: "Sequence", format: "uuid" },
          },
        },
        resume: {
          type: "object",
          additionalProperties: false,
          required: ["days"],
          properties: {
            days: { type: "integer", title: "Resume window (days)", minimum: 1, maximum: MAX_RESUME_DAYS },
          },
        },
      },
    },
  },
} as const;
