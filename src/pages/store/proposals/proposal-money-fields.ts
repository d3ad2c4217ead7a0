/** A proposal record's money fields, as schemas/proposal-lines.ts computes with them. */
import type { ProposalMoneyFields } from "../../../../schemas/proposal-lines";
import type { ResourceRecord } from "../../../resources/types";

export function moneyFieldsOf(record: ResourceRecord): ProposalMoneyFields {
  return {
    currency: (record.currency ?? "INR") as ProposalMoneyFields["currency"],
    discount_option: Number(record.discount_option ?? 3) as ProposalMoneyFields["discount_option"],
    total_discount_kind: (record.total_discount_kind ?? null) as ProposalMoneyFields["total_discount_kind"],
    total_discount_value: record.total_discount_value == null ? null : Number(record.total_discount_value),
  };
}
