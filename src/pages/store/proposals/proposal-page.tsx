/**
 * `/store/proposals/show/:id`, a proposal's page: its status and facts, its lines — edited with
 * live totals while it is a draft, read only after — and Send, PDF, Copy public link and
 * Convert to cart. Edit (the record's fields) and Delete only while it is a draft.
 */
import { Show } from "@refinedev/antd";
import { useInvalidate, useShow } from "@refinedev/core";
import { useQuery } from "@tanstack/react-query";
import { Alert, Card, Descriptions, Empty, Table, Tag, Typography } from "antd";
import { useParams } from "react-router";
import { formatMinorMoney } from "../../../../schemas/money";
import { discountWords, type ProposalLine } from "../../../../schemas/proposal-lines";
import { PROPOSAL_STATUS_LABELS, type ProposalStatus } from "../../../../schemas/proposals";
import { getErrorMessage } from "../../../lib/errors";
import { FieldValue } from "../../../resources/field-value";
import { fieldTitle } from "../../../resources/fields";
import { unavailableShowPage } from "../../../resources/record-not-found";
import { recordState } from "../../../resources/show/record-state";
import type { ResourceRecord, ScreenProps } from "../../../resources/types";
import { ProposalActions } from "./proposal-actions";
import { ProposalLinesEditor } from "./proposal-lines-editor";
import { moneyFieldsOf } from "./proposal-money-fields";
import { ProposalTotalsView } from "./proposal-totals";
import { getLines, type LinesAnswer, proposalKeys } from "./proposals-api";

const STATUS_COLOURS: Record<ProposalStatus, string> = {
  draft: "default",
  sent: "blue",
  accepted: "green",
  declined: "red",
  expired: "orange",
};

const FACTS = [
  "number",
  "client_id",
  "opportunity_id",
  "currency",
  "discount_option",
  "total_discount_kind",
  "total_discount_value",
  "valid_until",
  "sent_at",
  "decided_at",
  "notes",
];

function ReadOnlyLines({ answer, record }: { answer: LinesAnswer; record: ResourceRecord }) {
  const money = moneyFieldsOf(record);
  return (
    <>
      <Table<ProposalLine & { i: number }>
        rowKey="i"
        size="small"
        pagination={false}
        dataSource={answer.lines.map((l, i) => ({ ...l, i }))}
        locale={{ emptyText: <Empty description="No products" /> }}
        columns={[
          {
            title: "Product",
            key: "p",
            render: (_, l) => (
              <>
                {l.name} <Typography.Text type="secondary">{l.sku}</Typography.Text>
              </>
            ),
          },
          {
            title: "Unit price",
            key: "u",
            align: "right",
            render: (_, l) => formatMinorMoney(answer.totals.lines[l.i].unitMinor, money.currency),
          },
          { title: "Quantity", key: "q", align: "right", render: (_, l) => l.quantity },
          {
            title: "Discount",
            key: "d",
            align: "right",
            render: (_, l) => discountWords(l.discount_kind, l.discount_value, money.currency),
          },
          {
            title: "Amount",
            key: "a",
            align: "right",
            render: (_, l) => formatMinorMoney(answer.totals.lines[l.i].netMinor, money.currency),
          },
        ]}
      />
      <ProposalTotalsView totals={answer.totals} currency={money.currency} />
    </>
  );
}

export default function ProposalPage({ def }: ScreenProps) {
  const { id = "" } = useParams();
  const invalidate = useInvalidate();
  const { query } = useShow<ResourceRecord>({ resource: def.name, id, errorNotification: false });
  const lines = useQuery({
    queryKey: proposalKeys.lines(id),
    queryFn: () => getLines(id),
    enabled: Boolean(id),
  });
  const record = query.data?.data;
  const state = recordState(id, query);
  const unavailable = unavailableShowPage(def, state, query);
  if (unavailable) return unavailable;

  const status = (record?.status ?? "draft") as ProposalStatus;
  const draft = status === "draft";
  const refresh = () => {
    void invalidate({ resource: def.name, invalidates: ["detail", "list"], id });
    void lines.refetch();
  };

  return (
    <Show
      resource={def.name}
      recordItemId={id}
      title={record ? String(record.title) : def.singular}
      isLoading={state === "loading"}
      canEdit={draft}
      canDelete={draft}
      deleteButtonProps={{
        confirmTitle: "Delete this proposal?",
        confirmOkText: "Yes, delete",
        successNotification: { type: "success", message: "Proposal deleted" },
      }}
      headerButtons={({ defaultButtons }) => (
        <>
          {record && (
            <ProposalActions record={record} lineCount={lines.data?.lines.length ?? 0} onChanged={refresh} />
          )}
          {defaultButtons}
        </>
      )}
    >
      {record && (
        <>
          <Tag color={STATUS_COLOURS[status]} data-testid="proposal-status">
            {PROPOSAL_STATUS_LABELS[status]}
          </Tag>
          <Descriptions
            className="proposal-facts"
            column={{ xs: 1, md: 2 }}
            bordered
            size="small"
            style={{ marginTop: 12 }}
          >
            {FACTS.filter((f) => record[f] !== null && record[f] !== undefined && record[f] !== "").map(
              (field) => (
                <Descriptions.Item key={field} label={fieldTitle(def.schema, field)}>
                  <FieldValue schema={def.schema} field={field} record={record} variant="detail" />
                </Descriptions.Item>
              ),
            )}
          </Descriptions>
          <Card title="Lines" size="small" style={{ marginTop: 16 }}>
            {lines.isError ? (
              <Alert
                type="error"
                showIcon
                message={`The lines could not be loaded: ${getErrorMessage(lines.error)}`}
              />
            ) : !lines.data ? (
              <Card loading bordered={false} />
            ) : draft ? (
              <ProposalLinesEditor
                key={`${lines.dataUpdatedAt}-${record.discount_option}-${record.total_discount_value}`}
                proposalId={id}
                money={moneyFieldsOf(record)}
                saved={lines.data.lines}
                onSaved={refresh}
              />
            ) : (
              <ReadOnlyLines answer={lines.data} record={record} />
            )}
          </Card>
        </>
      )}
    </Show>
  );
}
