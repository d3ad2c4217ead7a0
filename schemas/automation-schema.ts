/**
 * What a stored automation definition may hold, as JSON Schema (schemas/automation.ts says what
 * it means): the server's one validator checks a draft's PUT with it and answers per-field
 * messages. A draft may be incomplete; what a publish needs besides is `publishProblems`
 * (automation-checks.ts).
 *
 * Steps and condition groups nest, so their schemas are built to the deepest nesting allowed
 * (as the CMS navigation's items are) rather than with a recursive `$ref`: they stay plain
 * schemas any Ajv and the OpenAPI document read. Each level holds its sub-level once (every
 * branch by `additionalProperties`), so the schema grows with the depth, not with 2^depth.
 */
import { DELAY_UNITS } from "../src/lib/delays";
import {
  BRANCHES,
  DELAY_MODES,
  HTTP_METHODS,
  MAX_BRANCH_DEPTH,
  MAX_CONDITION_DEPTH,
  MAX_STEPS,
  STEP_ID_PATTERN,
  STEP_KINDS,
  TRIGGER_KINDS,
  TRIGGER_LABELS,
  WAIT_EVENTS,
} from "./automation";
import { OPERATORS } from "./conditions";

type Schema = Record<string, unknown>;

const text = (title: string, maxLength: number) => ({ type: "string", title, maxLength }) as const;
const nullableId = (title: string) => ({ type: ["string", "null"], title, format: "uuid" }) as const;
const unitSchema = {
  type: "string",
  title: "Unit",
  enum: DELAY_UNITS,
  "x-enumLabels": ["Minutes", "Hours", "Days", "Weeks"],
} as const;
/** An entity: a CRM record's first name, a resource's name ("products"), or `cms:<apiName>`. */
const entitySchema = {
  type: "string",
  title: "Record",
  maxLength: 80,
  pattern: "^(cms:)?[a-z][a-z0-9_-]{0,62}$",
} as const;
const amountSchema = { type: "integer", title: "Amount", minimum: 0, maximum: 100_000 } as const;

/**
 * A condition: a group (`and`/`or` with its conditions in `value`) or a leaf
 * (`{ field, operator, value }`: left operand, comparator, right operand). Groups nest `depth`
 * levels more.
 */
export function conditionSchemaOf(depth: number): Schema {
  return {
    type: "object",
    title: "Condition",
    additionalProperties: false,
    required: ["operator"],
    properties: {
      field: text("Field", 200),
      operator: { type: "string", title: "Comparator", enum: [...OPERATORS, "and", "or"] },
      value: {},
    },
    if: { properties: { operator: { enum: ["and", "or"] } } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's own keyword
    then: {
      required: ["value"],
      properties: {
        value:
          depth > 0
            ? { type: "array", title: "Conditions", maxItems: 50, items: conditionSchemaOf(depth - 1) }
            : { type: "array", title: "Conditions", maxItems: 0 },
      },
    },
    else: {
      properties: { value: { type: ["string", "number", "boolean", "array", "null"], title: "Value" } },
    },
  };
}

const groupSchema = conditionSchemaOf(MAX_CONDITION_DEPTH);
/** A condition step's condition: always a group (its logical operator), whose conditions nest. */
const conditionGroupSchema = {
  ...groupSchema,
  required: ["operator", "value"],
  properties: {
    ...(groupSchema.properties as Schema),
    operator: {
      type: "string",
      title: "Logical operator",
      enum: ["and", "or"],
      "x-enumLabels": ["All", "Any"],
    },
  },
};

const inputsSchema = {
  type: "object",
  title: "Inputs",
  additionalProperties: false,
  properties: {
    to: text("To", 320),
    subject: text("Subject", 200),
    body: text("Message", 20_000),
    templateId: nullableId("Template"),
    // A CRM record's first name (RECORD_RESOURCES), a resource's name or `cms:<apiName>`.
    resource: entitySchema,
    recordId: text("Record ID", 200),
    fields: {
      type: "object",
      title: "Fields",
      maxProperties: 50,
      propertyNames: { pattern: "^[a-z][a-z0-9_]{0,62}$" },
      additionalProperties: text("Field value", 5000),
    },
    match: {
      type: "object",
      title: "Find by",
      maxProperties: 10,
      propertyNames: { pattern: "^[a-z][a-z0-9_]{0,62}$" },
      additionalProperties: text("Value", 2000),
    },
    tag: text("Tag", 60),
    sequenceId: nullableId("Sequence"),
    method: { type: "string", title: "Method", enum: HTTP_METHODS },
    url: text("URL", 2000),
    headers: {
      type: "array",
      title: "Headers",
      maxItems: 30,
      items: {
        type: "object",
        title: "Header",
        additionalProperties: false,
        required: ["name", "value"],
        properties: { name: text("Header name", 100), value: text("Header value", 2000) },
      },
    },
  },
} as const;

/** For each kind, the fields the engine cannot do without (others may still be empty in a draft). */
const KIND_REQUIRES: Readonly<Record<(typeof STEP_KINDS)[number], string[]>> = {
  condition: ["condition", "branches"],
  delay: ["mode"],
  wait: ["event", "timeout", "branches"],
  action: ["type", "inputs"],
};

/** A list of steps whose branching steps nest `depth` levels more. */
export function stepsSchemaOf(depth: number): Schema {
  const inner =
    depth > 0 ? stepsSchemaOf(depth - 1) : { type: "array", title: "Steps", maxItems: 0, items: {} };
  // The kind's branch names only: the steps inside are checked once, by `branches` below.
  const branchesOf = (names: readonly string[]) => ({
    properties: {
      branches: { type: "object", title: "Branches", required: names, propertyNames: { enum: names } },
    },
  });
  return {
    type: "array",
    title: "Steps",
    maxItems: MAX_STEPS,
    items: {
      type: "object",
      title: "Step",
      additionalProperties: false,
      required: ["id", "kind"],
      properties: {
        id: {
          type: "string",
          title: "Step ID",
          pattern: STEP_ID_PATTERN,
          "x-patternMessage":
            "must start with a lower-case letter and hold only lower-case letters, digits and dashes",
        },
        name: text("Step name", 100),
        kind: {
          type: "string",
          title: "Step kind",
          enum: STEP_KINDS,
          "x-enumLabels": ["Condition", "Delay", "Wait for event", "Action"],
        },
        condition: conditionGroupSchema,
        branches: { type: "object", title: "Branches", additionalProperties: inner },
        mode: { type: "string", title: "Delay", enum: DELAY_MODES, "x-enumLabels": ["For", "Until"] },
        amount: amountSchema,
        unit: unitSchema,
        until: text("Until", 19),
        timeZone: text("Time zone", 64),
        event: { type: ["string", "null"], title: "Event", enum: [...WAIT_EVENTS, null] },
        timeout: {
          type: "object",
          title: "Timeout",
          additionalProperties: false,
          properties: { amount: amountSchema, unit: unitSchema },
        },
        // Not an enum: its names hold underscores (spec §4), which a message must not show;
        // structureProblems refuses a name that is not one of ACTION_TYPES.
        type: { type: ["string", "null"], title: "Action", maxLength: 40 },
        inputs: inputsSchema,
      },
      allOf: Object.entries(KIND_REQUIRES).map(([kind, required]) => ({
        if: { required: ["kind"], properties: { kind: { const: kind } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's own keyword
        then: {
          required,
          ...(kind === "condition" ? branchesOf(BRANCHES.condition) : {}),
          ...(kind === "wait" ? branchesOf(BRANCHES.wait) : {}),
        },
      })),
    },
  };
}

export const triggerSchema = {
  type: "object",
  title: "Trigger",
  additionalProperties: false,
  required: ["kind"],
  properties: {
    kind: {
      type: "string",
      title: "Trigger",
      enum: TRIGGER_KINDS,
      "x-enumLabels": TRIGGER_KINDS.map((k) => TRIGGER_LABELS[k]),
    },
    stage: { type: ["string", "null"], title: "Stage", maxLength: 40 },
    formId: nullableId("Form"),
    contentType: { type: ["string", "null"], title: "Content type", maxLength: 63 },
    resource: { ...entitySchema, type: ["string", "null"] },
    fields: {
      type: "array",
      title: "When these fields change",
      maxItems: 50,
      uniqueItems: true,
      items: { type: "string", title: "Field", pattern: "^[a-z][a-z0-9_]{0,62}$" },
    },
    cron: text("Schedule", 200),
    timeZone: text("Time zone", 64),
    filter: { type: "array", title: "Filter", maxItems: 50, items: groupSchema },
  },
} as const;

/** A whole definition: what a draft's PUT sends and a version stores. */
export const automationDefinitionSchema = {
  type: "object",
  title: "Automation",
  additionalProperties: false,
  required: ["trigger", "steps"],
  properties: {
    trigger: triggerSchema,
    steps: stepsSchemaOf(MAX_BRANCH_DEPTH),
  },
} as const;
