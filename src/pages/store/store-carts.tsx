/**
 * The carts list (issue 18): a store's abandoned carts (its webhook tells of them), the carts the
 * public catalogue viewer handed to the store and the carts proposals were made into, in one table — source, customer, items, total,
 * status and age; a row opens to its items. Filters by source and status, search by customer,
 * email or order; the list contract's paging.
 */
import { useQuery } from "@tanstack/react-query";
import { Card, Empty, Input, Select, Space, Table, Tag, Tooltip, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { formatMinorMoney } from "../../../schemas/money";
import {
  CART_SOURCE_LABELS,
  CART_SOURCES,
  CART_STATUS_LABELS,
  CART_STATUSES,
  type StoreCart,
} from "../../../schemas/store";
import { LoadError } from "../../components/load-error";
import { timeAgo } from "../notifications/time-ago";
import { type CartQuery, cartKeys, listCarts } from "./store-api";

const SOURCE_COLORS: Readonly<Record<StoreCart["source"], string>> = {
  store: "blue",
  catalogue: "purple",
  proposal: "cyan",
};

const STATUS_COLORS: Readonly<Record<StoreCart["status"], string>> = {
  abandoned: "warning",
  checked_out: "processing",
  converted: "success",
};

function Customer({ cart }: { cart: StoreCart }) {
  const who = cart.clientName ?? cart.customerName ?? cart.email;
  return (
    <Space direction="vertical" size={0}>
      {cart.clientId ? (
        <Link to={`/crm/clients/show/${cart.clientId}`}>{who}</Link>
      ) : (
        <Typography.Text>
          {who ?? (cart.source === "catalogue" ? "A catalogue visitor" : "A guest")}
        </Typography.Text>
      )}
      {cart.email && who !== cart.email ? (
        <Typography.Text type="secondary">{cart.email}</Typography.Text>
      ) : null}
      {cart.pdfTitle ? <Typography.Text type="secondary">From {cart.pdfTitle}</Typography.Text> : null}
      {cart.proposalId ? (
        <Link to={`/store/proposals/show/${cart.proposalId}`}>From proposal {cart.proposalNumber}</Link>
      ) : null}
    </Space>
  );
}

function Items({ cart }: { cart: StoreCart }) {
  if (!cart.items.length)
    return <Typography.Text type="secondary">The store no longer has this cart's items.</Typography.Text>;
  return (
    <Table
      size="small"
      rowKey="sku"
      pagination={false}
      dataSource={cart.items}
      columns={[
        { title: "SKU", dataIndex: "sku", width: 160 },
        { title: "Product", dataIndex: "name" },
        { title: "Quantity", dataIndex: "quantity", width: 100, align: "right" },
        {
          title: "Unit price",
          dataIndex: "priceMinor",
          width: 140,
          align: "right",
          render: (minor: number) => formatMinorMoney(minor, cart.currency),
        },
      ]}
    />
  );
}

export function StoreCarts() {
  const [query, setQuery] = useState<CartQuery>({ page: 1, pageSize: 10 });
  const carts = useQuery({
    queryKey: cartKeys.list(query),
    queryFn: () => listCarts(query),
    placeholderData: (previous) => previous,
    // Abandoned carts arrive by the store's webhook: the list looks again now and then.
    refetchInterval: 60_000,
  });
  const change = (next: Partial<CartQuery>) => setQuery((q) => ({ ...q, page: 1, ...next }));
  const filtered = Boolean(query.q || query.source || query.status);

  return (
    <Card title="Carts" style={{ marginTop: 16 }}>
      <Typography.Paragraph type="secondary">
        Carts left in the store without checkout (the store tells of them about an hour after their last
        change), carts sent to the store's checkout from a catalogue, and proposals made into carts.
      </Typography.Paragraph>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder="Search customer, email or order"
          aria-label="Search carts"
          onSearch={(q) => change({ q })}
          style={{ width: 280 }}
        />
        <Select
          allowClear
          placeholder="Any source"
          aria-label="Source"
          style={{ width: 180 }}
          value={query.source}
          onChange={(source?: StoreCart["source"]) => change({ source })}
          options={CART_SOURCES.map((s) => ({ value: s, label: CART_SOURCE_LABELS[s] }))}
        />
        <Select
          allowClear
          placeholder="Any status"
          aria-label="Status"
          style={{ width: 180 }}
          value={query.status}
          onChange={(status?: StoreCart["status"]) => change({ status })}
          options={CART_STATUSES.map((s) => ({ value: s, label: CART_STATUS_LABELS[s] }))}
        />
      </Space>
      {carts.isError ? (
        <LoadError what="the carts" error={carts.error} onRetry={() => carts.refetch()} />
      ) : (
        <Table<StoreCart>
          rowKey="id"
          aria-label="Carts"
          loading={carts.isFetching && !carts.data}
          dataSource={carts.data?.data ?? []}
          scroll={{ x: 900 }}
          expandable={{ expandedRowRender: (cart) => <Items cart={cart} /> }}
          pagination={{
            current: query.page,
            pageSize: query.pageSize,
            total: carts.data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (total) => `${total} cart${total === 1 ? "" : "s"}`,
            onChange: (page, pageSize) => setQuery((q) => ({ ...q, page, pageSize })),
          }}
          locale={{
            emptyText: (
              <Empty
                description={
                  filtered
                    ? "No cart matches these filters"
                    : "No carts yet: abandoned store carts and catalogue checkouts appear here"
                }
              />
            ),
          }}
          columns={[
            {
              title: "Source",
              dataIndex: "source",
              width: 150,
              render: (source: StoreCart["source"]) => (
                <Tag color={SOURCE_COLORS[source]}>{CART_SOURCE_LABELS[source]}</Tag>
              ),
            },
            { title: "Customer", key: "customer", render: (_, cart) => <Customer cart={cart} /> },
            { title: "Items", dataIndex: "itemCount", width: 90, align: "right" },
            {
              title: "Total",
              dataIndex: "totalMinor",
              width: 150,
              align: "right",
              render: (minor: number, cart) => formatMinorMoney(minor, cart.currency),
            },
            {
              title: "Status",
              dataIndex: "status",
              width: 170,
              render: (status: StoreCart["status"], cart) => (
                <Space size={4}>
                  <Tag color={STATUS_COLORS[status]}>{CART_STATUS_LABELS[status]}</Tag>
                  {cart.orderId ? <Typography.Text type="secondary">#{cart.orderId}</Typography.Text> : null}
                </Space>
              ),
            },
            {
              title: "Last change",
              dataIndex: "cartUpdatedAt",
              width: 150,
              render: (at: string) => (
                <Tooltip title={new Date(at).toISOString()}>
                  <time dateTime={at}>{timeAgo(at)}</time>
                </Tooltip>
              ),
            },
          ]}
        />
      )}
    </Card>
  );
}
