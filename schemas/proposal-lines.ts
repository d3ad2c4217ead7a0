/**
 * A proposal's lines as the API takes them (`PUT /api/proposals/{id}/lines`) and the proposal's
 * money input from its stored parts: one mapping for the server (stored totals, PDF, cart,
 * public page) and the browser (the totals as the lines are edited), so both say the same paisa
 * and put a problem on the same field.
 */
import { type Currency, formatMinorMoney, formatPercent, toMinor } from "./money";
import {
  type Computed,
  computeProposal,
  DISCOUNT_KINDS,
  DISCOUNT_OPTIONS,
  type Discount,
  type DiscountKind,
  type DiscountOption,
  type MoneyProblem,
} from "./proposal-money";
import { MAX_PROPOSAL_LINES } from "./proposals";

/** One line as sent: the product (its SKU, name, price and currency are read on the server). */
export interface ProposalLineBody {
  product_id: string;
  quantity: number;
  /** Product discount (option 1) only. */
  discount?: Discount | null;
}

export const proposalLinesBodySchema = {
  type: "object",
  required: ["lines"],
  additionalProperties: false,
  properties: {
    lines: {
      type: "array",
      title: "Lines",
      maxItems: MAX_PROPOSAL_LINES,
      items: {
        type: "object",
        required: ["product_id", "quantity"],
        additionalProperties: false,
        properties: {
          product_id: { type: "string", format: "uuid", title: "Product" },
          // Ranges are computeProposal's, so the form and the API say the same words.
          quantity: { type: "number", title: "Quantity" },
          discount: {
            type: ["object", "null"],
            title: "Discount",
            required: ["kind", "value"],
            additionalProperties: false,
            properties: {
              kind: { type: "string", enum: DISCOUNT_KINDS, title: "Discount kind" },
              value: { type: "number", title: "Discount" },
            },
          },
        },
      },
    },
  },
} as const;

/** A stored line, as the proposal's page, the PDF and the public page show it. */
export interface ProposalLine {
  id?: string;
  product_id: string | null;
  sku: string;
  name: string;
  /** Major units, as stored (12.34). */
  unit_price: number;
  quantity: number;
  discount_kind: DiscountKind | null;
  discount_value: number | null;
}

/** The money fields of a proposal's record. */
export interface ProposalMoneyFields {
  currency: Currency;
  discount_option: DiscountOption;
  total_discount_kind: DiscountKind | null;
  total_discount_value: number | null;
}

/** The field of a proposal's record (or of its lines) a money problem is about. */
export function proposalField(problem: MoneyProblem): string {
  if (problem.field.startsWith("totalDiscount")) return "total_discount_value";
  if (problem.field === "option") return "discount_option";
  return problem.field;
}

const LINE_PARTS: Record<string, string> = {
  quantity: "quantity",
  unitPrice: "price",
  discount: "discount",
  "discount.value": "discount",
  product_id: "product",
};

/**
 * A money problem as a person reads it, wherever it is shown: a line's by its number
 * ("Line 2's quantity must be…"), the total discount by its name.
 */
export function problemInWords(p: { field: string; message: string }): { field: string; message: string } {
  const line = /^lines\.(\d+)\.(.+)$/.exec(p.field);
  if (line && /^(must|is|makes) /.test(p.message))
    return {
      field: p.field,
      message: `Line ${Number(line[1]) + 1}'s ${LINE_PARTS[line[2]] ?? line[2]} ${p.message}`,
    };
  if (p.field === "total_discount_value" && /^(must|is) /.test(p.message))
    return { field: p.field, message: `The total discount ${p.message}` };
  return p;
}

/**
 * The totals of a proposal from its record and lines. A total discount as an amount waits for
 * lines: a new proposal may name it before any product is added.
 *
 * @example
 * proposalTotals({ currency: "INR", discount_option: 3, total_discount_kind: null,
 *   total_discount_value: null }, [{ unit_price: 10.5, quantity: 2, … }]); // total 2100 paise
 */
export function proposalTotals(proposal: ProposalMoneyFields, lines: readonly ProposalLine[]): Computed {
  const option = proposal.discount_option;
  const kind = proposal.total_discount_kind;
  const value = proposal.total_discount_value;
  const waits = lines.length === 0 && kind === "amount";
  const computed = computeProposal({
    currency: proposal.currency,
    option,
    lines: lines.map((l) => ({
      unitPrice: l.unit_price,
      quantity: l.quantity,
      discount:
        option === DISCOUNT_OPTIONS.product && l.discount_kind && l.discount_value !== null
          ? { kind: l.discount_kind, value: l.discount_value }
          : null,
    })),
    totalDiscount:
      option === DISCOUNT_OPTIONS.total && kind && value !== null && !waits ? { kind, value } : null,
  });
  if (computed.ok) return computed;
  return { ok: false, problems: computed.problems.map((p) => ({ ...p, field: proposalField(p) })) };
}

/**
 * A discount as a person reads it ("10%", "₹5.00"), or an empty string. `money` writes an
 * amount: the screen's formatMinorMoney, or formatMinor where a font has no ₹ (the PDF).
 */
export function discountWords(
  kind: DiscountKind | null,
  value: number | null,
  currency: Currency,
  money: (minor: number, currency: Currency) => string = formatMinorMoney,
): string {
  if (!kind || value === null) return "";
  if (kind === "percent") return formatPercent(value);
  const minor = toMinor(value, currency);
  return minor === null ? String(value) : money(minor, currency);
}
