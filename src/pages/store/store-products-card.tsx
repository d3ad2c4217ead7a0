/**
 * Store products (issue 18): the catalogue products linked to a store, beside the master
 * catalogue (Products), with their store ids, stock level and when they were last synced. The
 * paging is the spec's products state (`currentPage` from 0, `pageLimit` 10, `pagesearch`);
 * the API is asked in its own list contract (store-products-paging.ts).
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Card, Empty, Input, Table, Typography } from "antd";
import { useState } from "react";
import { formatMoney } from "../../../schemas/money";
import { DateText } from "../../components/date-text";
import { LoadError } from "../../components/load-error";
import { INITIAL_PAGING, type ListPaging, searchPaging } from "./store-products-paging";
import { listStoreProducts, type StoreProduct, syncKeys } from "./sync-api";

export function StoreProductsCard() {
  const [paging, setPaging] = useState<ListPaging>(INITIAL_PAGING);
  const products = useQuery({
    queryKey: syncKeys.products(paging),
    queryFn: () => listStoreProducts(paging),
    placeholderData: keepPreviousData,
  });
  return (
    <Card title="Store products" style={{ marginTop: 16 }}>
      <Input.Search
        allowClear
        aria-label="Search store products"
        placeholder="Search by SKU, name or description"
        style={{ maxWidth: 360, marginBottom: 12 }}
        onSearch={(words) => setPaging((p) => searchPaging(p, words))}
      />
      {products.isError ? (
        <LoadError compact what="store products" error={products.error} onRetry={() => products.refetch()} />
      ) : (
        <Table<StoreProduct>
          rowKey={(p) => `${p.link.connectionId}:${p.id}`}
          size="small"
          loading={products.isFetching}
          dataSource={products.data?.data ?? []}
          scroll={{ x: 820 }}
          locale={{
            emptyText: (
              <Empty
                description={
                  paging.pagesearch
                    ? `No store product matches “${paging.pagesearch}”`
                    : "No product is linked to a store yet: a sync links them"
                }
              />
            ),
          }}
          pagination={{
            current: paging.currentPage + 1,
            pageSize: paging.pageLimit,
            total: products.data?.total ?? 0,
            showSizeChanger: true,
            onChange: (page, pageSize) =>
              setPaging((p) => ({
                ...p,
                currentPage: pageSize === p.pageLimit ? page - 1 : 0,
                pageLimit: pageSize,
              })),
          }}
          columns={[
            {
              title: "SKU",
              dataIndex: "sku_code",
              width: 170,
              render: (sku: string) => <Typography.Text code>{sku}</Typography.Text>,
            },
            {
              title: "Name",
              dataIndex: "name",
              render: (name: string, p) => (
                <>
                  {name}
                  {p.parent_id && <Typography.Text type="secondary"> · variant</Typography.Text>}
                </>
              ),
            },
            {
              title: "Price",
              dataIndex: "price",
              width: 130,
              align: "right",
              render: (price: number | string, p) => formatMoney(price, p.currency),
            },
            {
              title: "Stock",
              dataIndex: "stock_level",
              width: 90,
              align: "right",
              render: (n: number | null) => n ?? "—",
            },
            {
              title: "Store ids",
              key: "store",
              width: 170,
              render: (_, p) =>
                `#${p.link.bcProductId}${p.link.bcVariantId ? ` · variant #${p.link.bcVariantId}` : ""}`,
            },
            {
              title: "Last synced",
              key: "synced",
              width: 170,
              render: (_, p) => <DateText value={p.link.syncedAt} />,
            },
          ]}
        />
      )}
    </Card>
  );
}
