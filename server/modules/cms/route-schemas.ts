/** Request schemas of the CMS admin routes (checked by the one Ajv before any handler runs). */
import { CONTENT_TYPE_KINDS, FIELD_KINDS } from "../../../schemas/cms-fields";

const text = (title: string, maxLength: number) => ({ type: "string", title, maxLength }) as const;
const integer = (title: string) => ({ type: "integer", title, minimum: -1e12, maximum: 1e12 }) as const;
const names = (title: string) =>
  ({ type: "array", title, maxItems: 50, items: { type: "string", maxLength: 63 } }) as const;

/** One field of a content type, as the builder sends it. */
export const fieldBody = {
  type: "object",
  title: "Field",
  required: ["x-kind", "title"],
  additionalProperties: false,
  properties: {
    "x-kind": { type: "string", title: "Field kind", enum: FIELD_KINDS },
    title: { ...text("Title", 120), minLength: 1 },
    description: text("Help text", 500),
    minLength: { type: "integer", title: "Shortest length", minimum: 0, maximum: 200_000 },
    maxLength: { type: "integer", title: "Longest length", minimum: 1, maximum: 200_000 },
    pattern: text("Pattern", 500),
    "x-patternMessage": text("Pattern message", 200),
    minimum: { type: "number", title: "Minimum" },
    maximum: { type: "number", title: "Maximum" },
    enum: {
      type: "array",
      title: "Choices",
      maxItems: 200,
      items: { type: "string", minLength: 1, maxLength: 120 },
    },
    "x-enumLabels": {
      type: "array",
      title: "Choice labels",
      maxItems: 200,
      items: { type: "string", maxLength: 120 },
    },
    default: { title: "Default" },
    "x-multiple": { type: "boolean", title: "Many" },
    "x-target": text("Related to", 63),
    "x-component": text("Component", 63),
    "x-components": names("Allowed components"),
    "x-slugFrom": text("Generated from", 63),
    "x-unique": { type: "boolean", title: "Unique" },
    "x-shared": { type: "boolean", title: "Same in every locale" },
    minItems: { type: "integer", title: "Fewest items", minimum: 0, maximum: 1000 },
    maxItems: { type: "integer", title: "Most items", minimum: 1, maximum: 1000 },
  },
} as const;

const properties = {
  type: "object",
  title: "Fields",
  maxProperties: 200,
  additionalProperties: fieldBody,
} as const;

export const typeCreateBody = {
  type: "object",
  required: ["kind", "apiName", "name", "properties"],
  additionalProperties: false,
  properties: {
    kind: { type: "string", title: "Kind", enum: CONTENT_TYPE_KINDS },
    apiName: {
      type: "string",
      title: "API name",
      // Length by maxLength, letters by the pattern: each refusal says its own reason.
      maxLength: 63,
      pattern: "^[a-z][a-z0-9-]*$",
      "x-patternMessage": "may only contain lower-case letters, digits and dashes, starting with a letter",
    },
    name: { ...text("Name", 120), minLength: 1 },
    properties,
    required: names("Required fields"),
  },
} as const;

export const typeUpdateBody = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    name: { ...text("Name", 120), minLength: 1 },
    properties,
    required: names("Required fields"),
    renames: {
      type: "object",
      title: "Renamed fields",
      maxProperties: 200,
      additionalProperties: { type: "string", maxLength: 63 },
    },
    confirm: { type: "boolean", title: "Confirm" },
  },
} as const;

export const typeParams = {
  type: "object",
  required: ["type"],
  properties: { type: { type: "string", maxLength: 63 } },
} as const;

export const entryParams = {
  type: "object",
  required: ["type", "id"],
  properties: { type: { type: "string", maxLength: 63 }, id: { type: "string", format: "uuid" } },
} as const;

export const versionParams = {
  type: "object",
  required: ["type", "id", "number"],
  properties: {
    ...entryParams.properties,
    number: { type: "integer", minimum: 1, maximum: 1_000_000 },
  },
} as const;

/** Entry values are checked by their type's schema; these keys are the entry's own. */
export const entryBody = {
  type: "object",
  properties: {
    domain_ids: {
      type: "array",
      title: "Domains",
      maxItems: 100,
      items: { type: "string", format: "uuid" },
    },
    revision: { ...integer("Revision"), minimum: 1 },
  },
} as const;

export const scheduleBody = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    publishAt: { type: ["string", "null"], title: "Publish at", format: "date-time" },
    unpublishAt: { type: ["string", "null"], title: "Unpublish at", format: "date-time" },
  },
} as const;

export { idsBody } from "../../resources/engine";
