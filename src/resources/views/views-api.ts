/**
 * The saved-view and bulk-edit calls of a resource's list (docs/resource-api.md, "Saved views"
 * and "Bulk edit"), on the resource's own service base.
 */
import type { AxiosInstance } from "axios";
import { createServiceClient } from "../../../providers/http";
import { IDEMPOTENCY_HEADER } from "../../../providers/idempotency";
import type { ResourceDefinition, ServiceBaseName } from "../../../resources/contract";
import { resourcePath } from "../../../resources/contract";
import type {
  BulkUpdate,
  BulkUpdateInput,
  SavedView,
  SavedViewInput,
  SavedViewList,
} from "../../../schemas/saved-views";

const clients = new Map<ServiceBaseName, AxiosInstance>();
const clientOf = (def: ResourceDefinition) => {
  let client = clients.get(def.base);
  if (!client) {
    client = createServiceClient(def.base);
    clients.set(def.base, client);
  }
  return client;
};
const viewsPath = (def: ResourceDefinition) => `${resourcePath(def)}/views`;

export const viewKeys = {
  views: (resource: string) => ["saved-views", resource] as const,
  bulk: (resource: string, id: string) => ["bulk-update", resource, id] as const,
};

export async function listViews(def: ResourceDefinition): Promise<SavedViewList> {
  return (await clientOf(def).get<SavedViewList>(viewsPath(def))).data;
}

export async function createView(def: ResourceDefinition, input: SavedViewInput): Promise<SavedView> {
  return (await clientOf(def).post<SavedView>(viewsPath(def), input, { idempotent: true })).data;
}

export async function updateView(
  def: ResourceDefinition,
  id: string,
  input: Partial<SavedViewInput>,
): Promise<SavedView> {
  return (await clientOf(def).patch<SavedView>(`${viewsPath(def)}/${encodeURIComponent(id)}`, input)).data;
}

export async function deleteView(def: ResourceDefinition, id: string): Promise<void> {
  await clientOf(def).delete(`${viewsPath(def)}/${encodeURIComponent(id)}`);
}

export async function setDefaultView(def: ResourceDefinition, id: string | null): Promise<void> {
  await clientOf(def).put(`${viewsPath(def)}/default`, { id });
}

/**
 * Starts a bulk edit. `key` is the confirmation's Idempotency-Key: a second click, or a resend
 * after a lost answer, gets the first answer instead of a second edit.
 */
export async function startBulkUpdate(
  def: ResourceDefinition,
  input: BulkUpdateInput,
  key: string,
): Promise<BulkUpdate> {
  const answer = await clientOf(def).post<BulkUpdate>(`${resourcePath(def)}/bulk-update`, input, {
    idempotent: true,
    headers: { [IDEMPOTENCY_HEADER]: key },
  });
  return answer.data;
}

export async function getBulkUpdate(def: ResourceDefinition, id: string): Promise<BulkUpdate> {
  return (await clientOf(def).get<BulkUpdate>(`${resourcePath(def)}/bulk-update/${encodeURIComponent(id)}`))
    .data;
}
