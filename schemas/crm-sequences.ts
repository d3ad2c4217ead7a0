/**
 * A sequence (issue 16, spec §3 `selectedSequenceData`): a cadence of emails, SMS, waits and
 * tasks that clients are enrolled in. The record is its name and state; its steps are a
 * document of their own (schemas/crm-sequence-steps.ts) edited by the builder, numbered by
 * `version`, and each enrolment keeps the version it started on.
 */
import { auditProperties, type EntitySchema } from "./contract";

/** An active sequence runs its enrolments' steps; a paused one holds each at its next step. */
export const SEQUENCE_STATUSES = ["active", "paused"] as const;
export type SequenceStatus = (typeof SEQUENCE_STATUSES)[number];

export const sequenceSchema = {
  $id: "sequence",
  title: "Sequence",
  type: "object",
  additionalProperties: false,
  "x-table": "crm_sequences",
  "x-label": "name",
  "x-defaultSort": "-updated_at",
  "x-list": ["name", "status", "step_count", "version", "updated_at"],
  "x-searchable": ["name", "description"],
  "x-filterable": ["name", "status", "updated_at"],
  "x-unique": [["name"]],
  required: ["name"],
  properties: {
    ...auditProperties,
    name: { type: "string", title: "Name", minLength: 1, maxLength: 120 },
    description: { type: ["string", "null"], title: "Description", maxLength: 1000, "x-multiline": true },
    status: {
      type: "string",
      title: "Status",
      description: "Paused: every enrolment waits at its next step until the sequence is active again",
      enum: SEQUENCE_STATUSES,
      "x-enumLabels": ["Active", "Paused"],
      default: "active",
    },
    version: {
      type: "integer",
      title: "Version",
      description: "Goes up by one each time the steps are saved",
      minimum: 1,
      default: 1,
      readOnly: true,
    },
    step_count: { type: "integer", title: "Steps", minimum: 0, default: 0, readOnly: true },
  },
} as const satisfies EntitySchema;
