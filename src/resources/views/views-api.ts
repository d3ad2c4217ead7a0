/**
 * The saved-view and bulk-edit calls of a resource's list (docs/resource-api.md, "Saved views"
 * and "Bulk edit"), on the resource's own service base.
 */
import { http } from "../../../providers/http";
import { IDEMPOTENCY_HEADER } from "../../../providers/idempotency";
import { SERVICE_BASES } from "../../../providers/service-bases";
import type { ResourceDefinition } from "../../../resources/contract";
import type {
  BulkUpdate,
  BulkUpdateInput,
  SavedView,
  SavedViewInput,
  SavedViewList,
} from "../../../schemas/saved-views";

/** A resource's collection as the data provider reaches it: the API under `/api`, the others at their base. */
const collection = (def: ResourceDefinition) =>
  `${def.base === "api" ? "/api" : SERVICE_BASES[def.base]}/${def.name}`;
const viewsPath = (def: ResourceDefinition) => `${collection(def)}/views`;

export const viewKeys = {
  views: (resource: string) => ["saved-views", resource] as const,
  bulk: (resource: string, id: string) => ["bulk-update", resource, id] as const,
};

export async function listViews(def: ResourceDefinition): Promise<SavedViewList> {
  return (await http.get<SavedViewList>(viewsPath(def))).data;
}

export async function createView(def: ResourceDefinition, input: SavedViewInput): Promise<SavedView> {
  return (await http.post<SavedView>(viewsPath(def), input, { idempotent: true })).data;
}

export async function updateView(
  def: ResourceDefinition,
  id: string,
  input: Partial<SavedViewInput>,
): Promise<SavedView> {
  return (await http.patch<SavedView>(`${viewsPath(def)}/${encodeURIComponent(id)}`, input)).data;
}

export async function deleteView(def: ResourceDefinition, id: string): Promise<void> {
  await http.delete(`${viewsPath(def)}/${encodeURIComponent(id)}`);
}

export async function setDefaultView(def: ResourceDefinition, id: string | null): Promise<void> {
  await http.put(`${viewsPath(def)}/default`, { id });
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
  const answer = await http.post<BulkUpdate>(`${collection(def)}/bulk-update`, input, {
    idempotent: true,
    headers: { [IDEMPOTENCY_HEADER]: key },
  });
  return answer.data;
}

export async function getBulkUpdate(def: ResourceDefinition, id: string): Promise<BulkUpdate> {
  return (await http.get<BulkUpdate>(`${collection(def)}/bulk-update/${encodeURIComponent(id)}`)).data;
}
