/** A proposal's subtotal, discounts and total, and its amounts as a person reads them. */
import { Descriptions } from "antd";
import { type Currency, formatMinorMoney } from "../../../../schemas/money";
import { listPriceMinor, type ProposalTotals } from "../../../../schemas/proposal-money";

function Money({ minor, currency }: { minor: number; currency: Currency }) {
  return <span className="proposal-money">{formatMinorMoney(minor, currency)}</span>;
}

export function ProposalTotalsView({ totals, currency }: { totals: ProposalTotals; currency: Currency }) {
  const gross = listPriceMinor(totals);
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      className="proposal-totals"
      aria-label="Totals"
      items={[
        { key: "subtotal", label: "Subtotal", children: <Money minor={gross} currency={currency} /> },
        {
          key: "discounts",
          label: "Discounts",
          children: <Money minor={totals.discountMinor} currency={currency} />,
        },
        {
          key: "total",
          label: "Total",
          children: (
            <strong data-testid="proposal-total">
              <Money minor={totals.totalMinor} currency={currency} />
            </strong>
          ),
        },
      ]}
    />
  );
}

ProposalTotalsView.Money = Money;
