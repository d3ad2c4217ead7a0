/**
 * Tables of proposals (issue 18): the engine's `proposals` row and the store module's
 * `proposal_lines`. Part of the one Database interface (types.ts).
 */
import type { ColumnType, Generated } from "kysely";
import type { Currency } from "../../schemas/money";
import type { DiscountKind, DiscountOption } from "../../schemas/proposal-money";
import type { ProposalStatus } from "../../schemas/proposals";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** numeric: read as text (exact), written as a number or text. */
type Numeric = ColumnType<string, number | string, number | string>;

export interface ProposalsTable {
  id: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  updated_by: string | null;
  number: string | null;
  title: string;
  client_id: string;
  opportunity_id: string | null;
  currency: Currency;
  discount_option: DiscountOption;
  total_discount_kind: DiscountKind | null;
  total_discount_value: ColumnType<string | null, number | string | null, number | string | null>;
  valid_until: ColumnType<string | null, string | null, string | null>;
  notes: string | null;
  status: ProposalStatus;
  subtotal: Numeric;
  discount_total: Numeric;
  total: Numeric;
  share_token: string | null;
  sent_at: NullableTimestamp;
  decided_at: NullableTimestamp;
}

export interface ProposalLinesTable {
  id: Generated<string>;
  proposal_id: string;
  position: number;
  product_id: string | null;
  sku: string;
  name: string;
  unit_price: Numeric;
  quantity: number;
  discount_kind: DiscountKind | null;
  discount_value: ColumnType<string | null, number | string | null, number | string | null>;
}

export interface ProposalTables {
  proposals: ProposalsTable;
  proposal_lines: ProposalLinesTable;
}
