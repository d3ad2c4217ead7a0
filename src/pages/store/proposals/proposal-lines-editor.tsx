/**
 * A draft proposal's lines: products picked from the whole catalogue, quantities, and each
 * line's discount (Product discount only), with the totals computed as they are typed by the
 * same code the server keeps them with (schemas/proposal-lines.ts). A product priced in another
 * currency is refused at once, naming it. Save sends the lines; the server's refusals land on
 * their lines.
 */
import { DeleteOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  App,
  Button,
  Empty,
  Flex,
  InputNumber,
  Popconfirm,
  Select,
  Space,
  Table,
  Typography,
} from "antd";
import { useMemo, useState } from "react";
import { formatMoney } from "../../../../schemas/money";
import {
  type ProposalLine,
  type ProposalMoneyFields,
  problemInWords,
  proposalTotals,
} from "../../../../schemas/proposal-lines";
import { DISCOUNT_OPTIONS, type DiscountKind } from "../../../../schemas/proposal-money";
import { getErrorMessage, getFieldErrors } from "../../../lib/errors";
import { ProposalTotalsView } from "./proposal-totals";
import { type CatalogueProduct, proposalKeys, putLines } from "./proposals-api";
import { useProductSearch } from "./use-product-search";

interface Props {
  proposalId: string;
  money: ProposalMoneyFields;
  saved: ProposalLine[];
  onSaved: () => void;
}

type Draft = ProposalLine & { key: string };

let serial = 0;
const keyed = (line: ProposalLine): Draft => ({ ...line, key: `l${++serial}` });

/** Problems by line and part (`lines.2.quantity` → 2, "quantity"). */
function byLine(problems: readonly { field: string; message: string }[]) {
  const out = new Map<string, string>();
  for (const p of problems) {
    const m = /^lines\.(\d+)\.([a-zA-Z_]+)/.exec(p.field);
    if (m) out.set(`${m[1]}.${m[2] === "unitPrice" ? "product_id" : m[2]}`, problemInWords(p).message);
  }
  return out;
}

export function ProposalLinesEditor({ proposalId, money, saved, onSaved }: Props) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [lines, setLines] = useState<Draft[]>(() => saved.map(keyed));
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const [serverProblems, setServerProblems] = useState<Map<string, string>>(new Map());
  const { productList, loading, error, errorMessage, search } = useProductSearch(true);
  const lineDiscounts = money.discount_option === DISCOUNT_OPTIONS.product;

  const computed = useMemo(() => proposalTotals(money, lines), [money, lines]);
  const problems = computed.ok ? new Map<string, string>() : byLine(computed.problems);
  const problemAt = (i: number, part: string) =>
    problems.get(`${i}.${part}`) ?? serverProblems.get(`${i}.${part}`);

  const change = (next: Draft[]) => {
    setLines(next);
    setDirty(true);
    setServerProblems(new Map());
  };
  const patch = (i: number, values: Partial<ProposalLine>) =>
    change(lines.map((l, k) => (k === i ? { ...l, ...values } : l)));

  const add = (product: CatalogueProduct) => {
    if (product.currency !== money.currency) {
      setRefused(
        `${product.name} (${product.sku_code}) is priced in ${product.currency}, and this proposal is in ${money.currency}: a proposal has one currency`,
      );
      return;
    }
    setRefused(null);
    change([
      ...lines,
      keyed({
        product_id: product.id,
        sku: product.sku_code,
        name: product.name,
        unit_price: Number(product.price),
        quantity: 1,
        discount_kind: null,
        discount_value: null,
      }),
    ]);
  };

  const save = async () => {
    setSaving(true);
    try {
      await putLines(
        proposalId,
        lines.map((l) => ({
          product_id: String(l.product_id),
          quantity: l.quantity,
          discount:
            lineDiscounts && l.discount_kind && l.discount_value !== null
              ? { kind: l.discount_kind, value: l.discount_value }
              : null,
        })),
      );
      setDirty(false);
      message.success("Lines saved");
      await queryClient.invalidateQueries({ queryKey: proposalKeys.lines(proposalId) });
      onSaved();
    } catch (e) {
      setServerProblems(byLine(getFieldErrors(e)));
      message.error(getErrorMessage(e));
    } finally {
      setSaving(false);
    }
  };

  const columns = [
    {
      title: "Product",
      key: "product",
      render: (_: unknown, l: Draft, i: number) => (
        <div>
          <div>{l.name}</div>
          <Typography.Text type="secondary">{l.sku}</Typography.Text>
          {problemAt(i, "product_id") && (
            <div className="ant-form-item-explain-error">{problemAt(i, "product_id")}</div>
          )}
        </div>
      ),
    },
    {
      title: "Unit price",
      key: "unit",
      align: "right" as const,
      render: (_: unknown, l: Draft) => formatMoney(l.unit_price, money.currency),
    },
    {
      title: "Quantity",
      key: "quantity",
      width: 130,
      render: (_: unknown, l: Draft, i: number) => (
        <div>
          <InputNumber
            aria-label={`Quantity of ${l.name}`}
            value={l.quantity}
            min={0}
            precision={0}
            status={problemAt(i, "quantity") ? "error" : undefined}
            onChange={(v) => patch(i, { quantity: v ?? 0 })}
          />
          {problemAt(i, "quantity") && (
            <div className="ant-form-item-explain-error">{problemAt(i, "quantity")}</div>
          )}
        </div>
      ),
    },
    ...(lineDiscounts
      ? [
          {
            title: "Discount",
            key: "discount",
            width: 230,
            render: (_: unknown, l: Draft, i: number) => (
              <div>
                <Space.Compact>
                  <Select<DiscountKind | "none">
                    aria-label={`Discount kind of ${l.name}`}
                    value={l.discount_kind ?? "none"}
                    style={{ width: 100 }}
                    options={[
                      { value: "none", label: "None" },
                      { value: "percent", label: "%" },
                      { value: "amount", label: money.currency },
                    ]}
                    onChange={(kind) =>
                      patch(
                        i,
                        kind === "none"
                          ? { discount_kind: null, discount_value: null }
                          : { discount_kind: kind, discount_value: l.discount_value ?? 0 },
                      )
                    }
                  />
                  <InputNumber
                    aria-label={`Discount of ${l.name}`}
                    disabled={!l.discount_kind}
                    value={l.discount_value}
                    min={0}
                    status={problemAt(i, "discount") ? "error" : undefined}
                    onChange={(v) => patch(i, { discount_value: v ?? 0 })}
                  />
                </Space.Compact>
                {problemAt(i, "discount") && (
                  <div className="ant-form-item-explain-error">{problemAt(i, "discount")}</div>
                )}
              </div>
            ),
          },
        ]
      : []),
    {
      title: "Amount",
      key: "amount",
      align: "right" as const,
      render: (_: unknown, _l: Draft, i: number) =>
        computed.ok ? (
          <ProposalTotalsView.Money
            minor={computed.totals.lines[i]?.netMinor ?? 0}
            currency={money.currency}
          />
        ) : (
          "…"
        ),
    },
    {
      title: <span className="visually-hidden">Remove</span>,
      key: "remove",
      width: 56,
      render: (_: unknown, l: Draft, i: number) => (
        <Button
          type="text"
          danger
          icon={<DeleteOutlined />}
          aria-label={`Remove ${l.name}`}
          onClick={() => change(lines.filter((_x, k) => k !== i))}
        />
      ),
    },
  ];

  return (
    <Flex vertical gap={12}>
      <Select<string>
        showSearch
        value={null}
        filterOption={false}
        aria-label="Add a product"
        placeholder="Add a product: search the whole catalogue by name or SKU"
        loading={loading}
        onSearch={search}
        onChange={(id) => {
          const product = productList.find((p) => p.id === id);
          if (product) add(product);
        }}
        notFoundContent={loading ? "Searching…" : error ? errorMessage : "No product matches"}
        options={productList.map((p) => ({
          value: p.id,
          label: `${p.name} (${p.sku_code}) — ${formatMoney(p.price, p.currency)}`,
        }))}
        style={{ width: "100%" }}
      />
      {error && (
        <Alert type="error" showIcon message={`The catalogue could not be searched: ${errorMessage}`} />
      )}
      {refused && (
        <Alert
          type="error"
          showIcon
          role="alert"
          message={refused}
          closable
          onClose={() => setRefused(null)}
        />
      )}
      <Table<Draft>
        rowKey="key"
        size="small"
        pagination={false}
        dataSource={lines}
        columns={columns}
        locale={{ emptyText: <Empty description="No products yet: add one above" /> }}
      />
      {!computed.ok && computed.problems.some((p) => !p.field.startsWith("lines.")) && (
        <Alert
          type="warning"
          showIcon
          message={computed.problems
            .filter((p) => !p.field.startsWith("lines."))
            .map((p) => p.message)
            .join("; ")}
        />
      )}
      {computed.ok && <ProposalTotalsView totals={computed.totals} currency={money.currency} />}
      <Flex gap={8} justify="flex-end">
        <Popconfirm
          title="Discard the changes to the lines?"
          okText="Discard"
          okButtonProps={{ danger: true }}
          disabled={!dirty}
          onConfirm={() => {
            setLines(saved.map(keyed));
            setDirty(false);
            setServerProblems(new Map());
          }}
        >
          <Button disabled={!dirty}>Discard changes</Button>
        </Popconfirm>
        <Button type="primary" loading={saving} disabled={!dirty || !computed.ok} onClick={save}>
          Save lines
        </Button>
      </Flex>
    </Flex>
  );
}
