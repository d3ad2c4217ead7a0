/**
 * The asset manager's API (docs/dam-api.md) as typed calls over the DAM service base,
 * with the session rules of every client (bearer token, 417 refresh, 401/406 sign-out).
 * React Query keys live here too, so every screen invalidates the same ones.
 */
import type { AxiosProgressEvent } from "axios";
import { createServiceClient } from "../../../providers/http";
import type {
  AssetType,
  DamAsset,
  DamFolder,
  DamFolderDetails,
  DamUploadResponse,
} from "../../../schemas/dam";

const client = createServiceClient("dam");

export interface ListAnswer<T> {
  data: T[];
  total: number;
}

export interface AssetQuery {
  folderId: string | null;
  q?: string;
  tag?: string;
  /** Only assets of this kind (the picker's images). */
  type?: AssetType;
  sort?: string;
  page?: number;
  pageSize?: number;
}

export interface Selection {
  folderIds: string[];
  assetIds: string[];
}

/** Query keys: everything under `["dam"]`, so one invalidation refreshes the whole manager. */
export const damKeys = {
  all: ["dam"] as const,
  folders: (parentId: string | null, sort = "name") => ["dam", "folders", parentId ?? "root", sort] as const,
  folder: (id: string) => ["dam", "folder", id] as const,
  assets: (query: AssetQuery) => ["dam", "assets", query] as const,
};

/** Folders are few per level; one page of this size is the whole level in practice. */
const FOLDER_PAGE = 200;

const omitEmpty = (params: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ""));

export async function listFolders(parentId: string | null, sort = "name"): Promise<ListAnswer<DamFolder>> {
  const { data } = await client.get<ListAnswer<DamFolder>>("/folders", {
    params: omitEmpty({ parentId, sort, pageSize: FOLDER_PAGE }),
  });
  return data;
}

export async function getFolder(id: string): Promise<DamFolderDetails> {
  return (await client.get<DamFolderDetails>(`/folders/${encodeURIComponent(id)}`)).data;
}

export async function createFolder(name: string, parentId: string | null): Promise<DamFolder> {
  // A create: one Idempotency-Key for all its sends (providers/http.ts).
  return (await client.post<DamFolder>("/folders", { name, parentId }, { idempotent: true })).data;
}

export async function updateFolder(
  id: string,
  changes: { name?: string; parentId?: string | null },
): Promise<DamFolder> {
  return (await client.patch<DamFolder>(`/folders/${encodeURIComponent(id)}`, changes)).data;
}

export async function listAssets(query: AssetQuery): Promise<ListAnswer<DamAsset>> {
  const { folderId, ...rest } = query;
  const searching = Boolean(query.q || query.tag);
  const { data } = await client.get<ListAnswer<DamAsset>>("/assets", {
    params: omitEmpty({ ...rest, folderId: searching ? undefined : folderId }),
  });
  return data;
}

export async function updateAsset(
  id: string,
  changes: Partial<Pick<DamAsset, "name" | "alt" | "tags" | "folderId">>,
): Promise<DamAsset> {
  return (await client.patch<DamAsset>(`/assets/${encodeURIComponent(id)}`, changes)).data;
}

/** Fraction of the request body sent, 0..1, when the browser knows it. */
export type OnProgress = (fraction: number) => void;

const progressOf = (onProgress?: OnProgress) =>
  onProgress
    ? (event: AxiosProgressEvent) => {
        if (event.total) onProgress(Math.min(1, event.loaded / event.total));
      }
    : undefined;

/** Uploads one file into a folder (one request a file, so each has its own progress). */
export async function uploadAsset(
  file: File,
  folderId: string | null,
  onProgress?: OnProgress,
  signal?: AbortSignal,
): Promise<DamAsset> {
  const form = new FormData();
  // The folder comes before the files: the server reads the fields in order.
  if (folderId) form.append("folderId", folderId);
  form.append("file", file, file.name);
  const { data } = await client.post<DamUploadResponse>("/assets", form, {
    onUploadProgress: progressOf(onProgress),
    signal,
  });
  if (!data.data[0]) throw new Error(data.errors[0]?.message ?? `${file.name} could not be uploaded`);
  return data.data[0];
}

/** Replaces an asset's file (`forReplace`); the asset gets new, immutable URLs. */
export async function replaceAssetFile(id: string, file: File, onProgress?: OnProgress): Promise<DamAsset> {
  const form = new FormData();
  form.append("file", file, file.name);
  const { data } = await client.put<DamAsset>(`/assets/${encodeURIComponent(id)}/file`, form, {
    onUploadProgress: progressOf(onProgress),
  });
  return data;
}

export async function moveSelection(selection: Selection, targetFolderId: string | null) {
  const { data } = await client.post<{ moved: { folders: number; assets: number } }>("/move", {
    ...selection,
    targetFolderId,
  });
  return data.moved;
}

export async function deleteSelection(selection: Selection) {
  const { data } = await client.post<{ deleted: { folders: number; assets: number } }>("/delete", selection);
  return data.deleted;
}

/** The selection as a zip, saved by the browser. */
export async function downloadSelection(selection: Selection, fileName: string): Promise<void> {
  const { data } = await client.post<Blob>("/download", selection, { responseType: "blob" });
  const href = URL.createObjectURL(data);
  const link = Object.assign(document.createElement("a"), { href, download: fileName });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
