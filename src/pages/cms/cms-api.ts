/**
 * The CMS admin API as typed calls over the CMS service base (session rules of every client),
 * and the React Query keys the CMS screens share.
 */
import { createServiceClient } from "../../../providers/http";
import type { ContentField, ContentTypeKind } from "../../../schemas/cms-fields";
import type { FieldChange } from "../../../schemas/versions";
import type { ContentTypeRecord } from "./entry-definition";

const client = createServiceClient("cms");

export const cmsKeys = {
  types: ["cms", "content-types"] as const,
  versions: (type: string, id: string) => ["cms", "versions", type, id] as const,
};

export async function listContentTypes(): Promise<ContentTypeRecord[]> {
  return (await client.get<{ data: ContentTypeRecord[] }>("/content-types")).data.data;
}

export interface TypeBody {
  kind: ContentTypeKind;
  apiName: string;
  name: string;
  properties: Record<string, ContentField>;
  required: string[];
}

export async function createContentType(body: TypeBody): Promise<ContentTypeRecord> {
  return (await client.post<ContentTypeRecord>("/content-types", body)).data;
}

export interface TypeChangeBody {
  name?: string;
  properties: Record<string, ContentField>;
  required: string[];
  renames?: Record<string, string>;
  confirm?: boolean;
}

export async function updateContentType(apiName: string, body: TypeChangeBody): Promise<ContentTypeRecord> {
  return (await client.patch<ContentTypeRecord>(`/content-types/${encodeURIComponent(apiName)}`, body)).data;
}

export async function deleteContentType(apiName: string, confirm: boolean): Promise<void> {
  await client.delete(`/content-types/${encodeURIComponent(apiName)}`, {
    params: confirm ? { confirm: true } : {},
  });
}

const entryPath = (type: string, id: string) =>
  `/entries/${encodeURIComponent(type)}/${encodeURIComponent(id)}`;

export async function publishEntry(type: string, id: string): Promise<void> {
  await client.post(`${entryPath(type, id)}/publish`, {});
}

export async function unpublishEntry(type: string, id: string): Promise<void> {
  await client.post(`${entryPath(type, id)}/unpublish`);
}

export interface VersionSummary {
  number: number;
  kind: "save" | "publish" | "restore";
  createdAt: string;
  author: string | null;
}

export async function listVersions(type: string, id: string): Promise<VersionSummary[]> {
  return (await client.get<{ data: VersionSummary[] }>(`${entryPath(type, id)}/versions`)).data.data;
}

export async function diffVersions(
  type: string,
  id: string,
  from: number | "current",
  to: number | "current",
): Promise<FieldChange[]> {
  return (
    await client.get<{ changes: FieldChange[] }>(`${entryPath(type, id)}/versions/diff`, {
      params: { from, to },
    })
  ).data.changes;
}

export async function restoreVersion(type: string, id: string, number: number): Promise<void> {
  await client.post(`${entryPath(type, id)}/versions/${number}/restore`);
}
