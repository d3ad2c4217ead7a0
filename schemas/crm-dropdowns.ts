/**
 * An option of an admin-managed list (spec §3 `commonDropdown`): stages with their order and
 * win probability, sources, industries, lost reasons, tags, and lists admins add for custom
 * enum fields. Records store the option's `value`, which never changes, so renaming the
 * `label` renames it everywhere.
 */
import { auditProperties, type EntitySchema } from "./contract";
import { DROPDOWN_LIST_PATTERN } from "./crm";

export const dropdownSchema = {
  $id: "dropdown",
  title: "Dropdown option",
  type: "object",
  additionalProperties: false,
  "x-table": "crm_dropdowns",
  "x-label": "label",
  "x-defaultSort": "list,position",
  "x-list": ["list", "label", "value", "position", "probability", "archived"],
  "x-searchable": ["label", "value"],
  "x-filterable": ["list", "label", "value", "position", "archived"],
  "x-unique": [["list", "value"]],
  required: ["list", "value", "label"],
  properties: {
    ...auditProperties,
    list: {
      type: "string",
      title: "List",
      minLength: 1,
      maxLength: 40,
      pattern: DROPDOWN_LIST_PATTERN,
      "x-patternMessage": "may only contain lower-case letters, digits and _, and must start with a letter",
    },
    value: {
      type: "string",
      title: "Value",
      description: "Stored on records; never changes once used",
      minLength: 1,
      maxLength: 40,
      pattern: "^[a-z0-9][a-z0-9_-]*$",
      "x-patternMessage": "may only contain lower-case letters, digits, _ and -",
    },
    label: { type: "string", title: "Label", minLength: 1, maxLength: 80 },
    position: { type: "integer", title: "Order", minimum: 0, maximum: 10000, default: 0 },
    probability: {
      type: ["integer", "null"],
      title: "Win probability (%)",
      description: "Stages only: how likely an opportunity in this stage is to be won",
      minimum: 0,
      maximum: 100,
    },
    color: {
      type: ["string", "null"],
      title: "Colour",
      pattern: "^#[0-9a-fA-F]{6}$",
      "x-patternMessage": "must be a colour such as #1677ff",
    },
    archived: {
      type: "boolean",
      title: "Archived",
      description: "Kept on the records that have it, no longer offered",
      default: false,
    },
  },
} as const satisfies EntitySchema;
