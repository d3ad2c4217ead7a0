/**
 * The store sync's calls (docs/store-api.md): start a sync, follow the recent ones, read one's
 * report, and the store product list (the list contract of /api/products).
 */
import { createServiceClient } from "../../../providers/http";
import type { StoreProductLink, StoreSync, StoreSyncWithReport } from "../../../schemas/store-sync";
import type { ListPaging } from "./store-products-paging";
import { toListQuery } from "./store-products-paging";

const client = createServiceClient("api");

export const syncKeys = {
  syncs: ["store", "syncs"] as const,
  sync: (id: string) => ["store", "syncs", id] as const,
  products: (paging: ListPaging) => ["store", "products", paging] as const,
};

/** Syncs a store (the default one unless named); answers the sync, or the one already under way. */
export async function startSync(connectionId?: string): Promise<StoreSync> {
  return (await client.post<StoreSync>("/api/store/sync", connectionId ? { connectionId } : {})).data;
}

/** The recent syncs, the latest first (no reports: light enough to follow a sync's progress). */
export async function listSyncs(): Promise<StoreSync[]> {
  return (await client.get<{ data: StoreSync[] }>("/api/store/sync")).data.data;
}

export async function getSync(id: string): Promise<StoreSyncWithReport> {
  return (await client.get<StoreSyncWithReport>(`/api/store/sync/${encodeURIComponent(id)}`)).data;
}

export interface StoreProduct {
  id: string;
  sku_code: string;
  name: string;
  price: number | string;
  currency: string;
  stock_level: number | null;
  parent_id: string | null;
  link: StoreProductLink;
}

export async function listStoreProducts(
  paging: ListPaging,
): Promise<{ data: StoreProduct[]; total: number }> {
  const answer = await client.get<{ data: StoreProduct[]; total: number }>("/api/store/products", {
    params: toListQuery(paging),
  });
  return answer.data;
}
