/**
 * The online store's calls (docs/store-api.md): its connected stores and the carts list. The API token goes to the
 * server once and never comes back.
 */
import { createServiceClient } from "../../../providers/http";
import type {
  CreateStoreConnection,
  StoreCart,
  StoreCheck,
  StoreConnection,
  UpdateStoreConnection,
} from "../../../schemas/store";

const client = createServiceClient("api");
const PATH = "/api/store/connections";
const one = (id: string) => `${PATH}/${encodeURIComponent(id)}`;

export const storeKeys = { connections: ["store", "connections"] as const };

export async function listConnections(): Promise<StoreConnection[]> {
  return (await client.get<{ data: StoreConnection[] }>(PATH)).data.data;
}

/** Connects a store; the server checks it with the store first (400 on the field at fault). */
export async function createConnection(body: CreateStoreConnection): Promise<StoreConnection> {
  return (await client.post<StoreConnection>(PATH, body)).data;
}

export async function updateConnection(id: string, body: UpdateStoreConnection): Promise<StoreConnection> {
  return (await client.patch<StoreConnection>(one(id), body)).data;
}

export async function testConnection(id: string): Promise<StoreCheck> {
  return (await client.post<StoreCheck>(`${one(id)}/test`)).data;
}

export async function removeConnection(id: string): Promise<void> {
  await client.delete(one(id));
}

/** A page of the carts list (`/api/store/carts`, the list contract). */
export interface CartQuery {
  page: number;
  pageSize: number;
  q?: string;
  source?: StoreCart["source"];
  status?: StoreCart["status"];
}

export const cartKeys = { list: (query: CartQuery) => ["store", "carts", query] as const };

export async function listCarts(query: CartQuery): Promise<{ data: StoreCart[]; total: number }> {
  const filters = [
    ...(query.source ? [{ field: "source", operator: "eq", value: query.source }] : []),
    ...(query.status ? [{ field: "status", operator: "eq", value: query.status }] : []),
  ];
  const params = {
    page: query.page,
    pageSize: query.pageSize,
    ...(query.q?.trim() ? { q: query.q.trim() } : {}),
    ...(filters.length ? { filters: JSON.stringify(filters) } : {}),
  };
  return (await client.get<{ data: StoreCart[]; total: number }>("/api/store/carts", { params })).data;
}
