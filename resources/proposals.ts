import { proposalSchema } from "../schemas/proposals";
import type { ResourceDefinition } from "./contract";
import { MODULE_IDS } from "./modules";

/**
 * Proposals (issue 18): the list and the create and edit forms are the engine's; a proposal's
 * page ("proposals.show") holds its lines with live totals, and Send, PDF, the public link and
 * Convert to cart.
 */
export const proposals: ResourceDefinition = {
  name: "proposals",
  schema: proposalSchema,
  moduleID: MODULE_IDS.store,
  base: "api",
  label: "Proposals",
  singular: "Proposal",
  icon: "FileDoneOutlined",
  parent: "store",
  order: 1,
  columnWidths: { number: 110, status: 110, total: 130, currency: 100, valid_until: 130 },
  csv: "export",
  pages: { show: "proposals.show" },
  uiSchema: {
    "ui:order": [
      "title",
      "client_id",
      "opportunity_id",
      "currency",
      "discount_option",
      "total_discount_kind",
      "total_discount_value",
      "valid_until",
      "notes",
    ],
  },
};
