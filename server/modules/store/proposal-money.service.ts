/**
 * A stored proposal's money: its lines as stored, and the totals the record keeps (subtotal,
 * discounts, total), computed by computeProposal (schemas/proposal-lines.ts) — or a 400 naming
 * each field in trouble.
 */

import { invalidInputMessage } from "../../../schemas/error-messages";
import { type Currency, fromMinor } from "../../../schemas/money";
import {
  type ProposalLine,
  type ProposalMoneyFields,
  problemInWords,
  proposalTotals,
} from "../../../schemas/proposal-lines";
import {
  type DiscountKind,
  type DiscountOption,
  listPriceMinor,
  type ProposalTotals,
} from "../../../schemas/proposal-money";
import { badRequest } from "../../http/errors";
import type { AnyDb } from "../../resources/rules";

/** A proposal's lines, in their order. */
export async function linesOf(db: AnyDb, proposalId: string): Promise<ProposalLine[]> {
  const rows = await db
    .selectFrom("proposal_lines")
    .select(["id", "product_id", "sku", "name", "unit_price", "quantity", "discount_kind", "discount_value"])
    .where("proposal_id", "=", proposalId)
    .orderBy("position")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    product_id: r.product_id,
    sku: r.sku,
    name: r.name,
    unit_price: Number(r.unit_price),
    quantity: r.quantity,
    discount_kind: r.discount_kind,
    discount_value: r.discount_value === null ? null : Number(r.discount_value),
  }));
}

/** A 400 naming each field in trouble, in words. */
export function refusal(problems: readonly { field: string; message: string }[]) {
  const details = problems.map(problemInWords);
  return badRequest(details.length === 1 ? details[0].message : invalidInputMessage(details), details);
}

/** The totals of a proposal, or a 400 with a message per field. */
export function totalsOrRefuse(money: ProposalMoneyFields, lines: readonly ProposalLine[]): ProposalTotals {
  const computed = proposalTotals(money, lines);
  if (!computed.ok) throw refusal(computed.problems);
  return computed.totals;
}

/** The record's money columns from its totals (major units, as the columns hold them). */
export function storedTotals(money: ProposalMoneyFields, lines: readonly ProposalLine[]) {
  const totals = totalsOrRefuse(money, lines);
  const major = (minor: number) => fromMinor(minor, money.currency);
  return {
    subtotal: major(listPriceMinor(totals)),
    discount_total: major(totals.discountMinor),
    total: major(totals.totalMinor),
  };
}

/** The money fields of a stored proposal. */
export function moneyOf(p: Record<string, unknown>): ProposalMoneyFields {
  return {
    currency: p.currency as Currency,
    discount_option: Number(p.discount_option) as DiscountOption,
    total_discount_kind: (p.total_discount_kind ?? null) as DiscountKind | null,
    total_discount_value: p.total_discount_value == null ? null : Number(p.total_discount_value),
  };
}
