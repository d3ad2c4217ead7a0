/**
 * A proposal (issue 18 "bigcomproposal"): products offered to a CRM client at list price less a
 * discount (spec §9: Product discount 1, Total discount 2, No discount 3), in one currency (INR
 * unless chosen otherwise). The engine serves the record at `/api/proposals`; its lines live
 * beside it (`proposal_lines`, written by `PUT /api/proposals/{id}/lines`), and its money is
 * the server's own: subtotal, discount and total are computed with computeProposal on every
 * write (schemas/proposal-money.ts), never taken from a request. Its life (draft → sent →
 * accepted / declined / expired) moves only through the module's routes (send, the public
 * link's accept and decline); only a draft is edited.
 */
import { auditProperties, type EntitySchema } from "./contract";
import { CURRENCIES } from "./products";
import { DISCOUNT_KINDS, DISCOUNT_OPTION_LABELS } from "./proposal-money";

export const PROPOSAL_STATUSES = ["draft", "sent", "accepted", "declined", "expired"] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];
export const PROPOSAL_STATUS_LABELS: Readonly<Record<ProposalStatus, string>> = {
  draft: "Draft",
  sent: "Sent",
  accepted: "Accepted",
  declined: "Declined",
  expired: "Expired",
};

export const DISCOUNT_KIND_LABELS = ["Percent", "Amount"] as const;

/** Most lines one proposal holds. */
export const MAX_PROPOSAL_LINES = 200;

export const proposalSchema = {
  $id: "proposal",
  title: "Proposal",
  type: "object",
  additionalProperties: false,
  "x-table": "proposals",
  "x-label": "title",
  "x-defaultSort": "-updated_at",
  "x-list": ["title", "number", "client_id", "status", "total", "currency", "valid_until", "updated_at"],
  "x-searchable": ["number", "title"],
  "x-filterable": [
    "number",
    "title",
    "client_id",
    "opportunity_id",
    "status",
    "currency",
    "total",
    "valid_until",
    "updated_at",
  ],
  "x-unique": [["number"], ["share_token"]],
  required: ["title", "client_id"],
  properties: {
    ...auditProperties,
    number: { type: "string", title: "Number", maxLength: 20, readOnly: true },
    title: { type: "string", title: "Title", minLength: 1, maxLength: 200 },
    client_id: {
      type: "string",
      format: "uuid",
      title: "Client",
      "x-relation": { resource: "clients", labelField: "name", onDelete: "cascade" },
    },
    opportunity_id: {
      type: ["string", "null"],
      format: "uuid",
      title: "Opportunity",
      description: "The client's opportunity this proposal answers: accepting it marks it won",
      "x-relation": { resource: "opportunities", labelField: "title", onDelete: "set null" },
    },
    currency: { type: "string", title: "Currency", enum: CURRENCIES, default: "INR" },
    discount_option: {
      type: "integer",
      title: "Discount",
      enum: [1, 2, 3],
      "x-enumLabels": [DISCOUNT_OPTION_LABELS[1], DISCOUNT_OPTION_LABELS[2], DISCOUNT_OPTION_LABELS[3]],
      default: 3,
    },
    total_discount_kind: {
      type: ["string", "null"],
      title: "Total discount as",
      description: "Total discount only: a percentage of the subtotal, or an amount off it",
      enum: DISCOUNT_KINDS,
      "x-enumLabels": DISCOUNT_KIND_LABELS,
    },
    total_discount_value: {
      type: ["number", "null"],
      title: "Total discount",
      "x-percentWhen": { field: "total_discount_kind", value: "percent" },
      minimum: 0,
      maximum: 999999999.99,
      multipleOf: 0.01,
    },
    valid_until: { type: ["string", "null"], format: "date", title: "Valid until" },
    notes: { type: ["string", "null"], title: "Notes for the client", maxLength: 2000, "x-multiline": true },
    status: {
      type: "string",
      title: "Status",
      enum: PROPOSAL_STATUSES,
      "x-enumLabels": PROPOSAL_STATUSES.map((s) => PROPOSAL_STATUS_LABELS[s]),
      default: "draft",
      readOnly: true,
    },
    subtotal: {
      type: "number",
      title: "Subtotal",
      minimum: 0,
      maximum: 9999999999.99,
      multipleOf: 0.01,
      default: 0,
      readOnly: true,
    },
    discount_total: {
      type: "number",
      title: "Discounts",
      minimum: 0,
      maximum: 9999999999.99,
      multipleOf: 0.01,
      default: 0,
      readOnly: true,
    },
    total: {
      type: "number",
      title: "Total",
      minimum: 0,
      maximum: 9999999999.99,
      multipleOf: 0.01,
      default: 0,
      readOnly: true,
    },
    share_token: { type: ["string", "null"], title: "Share token", maxLength: 64, readOnly: true },
    sent_at: { type: ["string", "null"], format: "date-time", title: "Sent", readOnly: true },
    decided_at: { type: ["string", "null"], format: "date-time", title: "Answered", readOnly: true },
  },
} as const satisfies EntitySchema;
