/**
 * The CMS admin API as typed calls over the CMS service base (session rules of every client),
 * and the React Query keys the CMS screens share.
 */
import { createServiceClient } from "../../../providers/http";
import type { ContentField, ContentTypeKind } from "../../../schemas/cms-fields";
import type { NavItem } from "../../../schemas/cms-navigation";
import type { DamAsset } from "../../../schemas/dam";
import type { FieldChange, VersionSummary } from "../../../schemas/versions";
import type { ContentTypeRecord } from "./entry-definition";

const client = createServiceClient("cms");

export const cmsKeys = {
  types: ["cms", "content-types"] as const,
  versions: (type: string, id: string) => ["cms", "versions", type, id] as const,
  navigations: (domainId: string) => ["cms", "navigations", domainId] as const,
  tokens: (domainId: string) => ["cms", "tokens", domainId] as const,
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

export type { VersionSummary };

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

export interface DomainRecord {
  id: string;
  key: string;
  name: string;
  default_locale: string;
  /** `hi-IN`, or `ta-IN → hi-IN` (schemas/cms-locales.ts). */
  locales: string[];
}

export async function listDomains(): Promise<DomainRecord[]> {
  return (await client.get<{ data: DomainRecord[] }>("/domains", { params: { pageSize: 200, sort: "name" } }))
    .data.data;
}

export interface NavigationRecord {
  id: string;
  domain_id: string;
  name: string;
  title: string;
  max_depth: number;
  items: NavItem[];
}

export async function listNavigations(domainId: string): Promise<NavigationRecord[]> {
  return (await client.get<{ data: NavigationRecord[] }>("/navigations", { params: { domain: domainId } }))
    .data.data;
}

export async function createNavigation(body: Omit<NavigationRecord, "id">): Promise<NavigationRecord> {
  return (await client.post<NavigationRecord>("/navigations", body)).data;
}

export async function updateNavigation(
  id: string,
  body: Partial<Omit<NavigationRecord, "id">>,
): Promise<NavigationRecord> {
  return (await client.patch<NavigationRecord>(`/navigations/${encodeURIComponent(id)}`, body)).data;
}

/** A type's entries as select options (label field, newest first), for links to entries. */
export async function listEntryOptions(
  type: string,
  labelField: string,
): Promise<Array<{ value: string; label: string }>> {
  const { data } = await client.get<{ data: Array<Record<string, unknown>> }>(
    `/entries/${encodeURIComponent(type)}`,
    {
      params: { pageSize: 200 },
    },
  );
  return data.data.map((e) => ({ value: String(e.id), label: String(e[labelField] ?? e.id) }));
}

export interface ApiToken {
  id: string;
  name: string;
  /** The token's first characters, to tell tokens apart. */
  prefix: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  createdAt: string;
}

const tokensPath = (domainId: string) => `/domains/${encodeURIComponent(domainId)}/tokens`;

export async function listTokens(domainId: string): Promise<ApiToken[]> {
  return (await client.get<{ data: ApiToken[] }>(tokensPath(domainId))).data.data;
}

/** Makes a token; the answer's `token` is the only time it is shown. */
export async function createToken(domainId: string, name: string): Promise<ApiToken & { token: string }> {
  return (await client.post<ApiToken & { token: string }>(tokensPath(domainId), { name })).data;
}

export async function revokeToken(domainId: string, tokenId: string): Promise<void> {
  await client.delete(`${tokensPath(domainId)}/${encodeURIComponent(tokenId)}`);
}

export interface MediaPage {
  mediaDtoList: DamAsset[];
  metaData: { pagination: { page: number; pageSize: number; total: number; pageCount: number } };
}

export async function listMedia(page: number, pageSize: number, q: string): Promise<MediaPage> {
  return (await client.get<MediaPage>("/media", { params: { page, pageSize, ...(q ? { q } : {}) } })).data;
}

export async function uploadMedia(file: File, onProgress: (percent: number) => void): Promise<DamAsset[]> {
  const form = new FormData();
  form.append("file", file);
  const { data } = await client.post<{ data: DamAsset[] }>("/media", form, {
    onUploadProgress: (e) => onProgress(e.total ? Math.round((e.loaded / e.total) * 100) : 0),
  });
  return data.data;
}

export async function updateMedia(
  id: string,
  body: { alt?: string; caption?: string; focalPoint?: { x: number; y: number } | null },
): Promise<DamAsset> {
  return (await client.patch<DamAsset>(`/media/${encodeURIComponent(id)}`, body)).data;
}

export interface MediaUse {
  type: string;
  typeName: string;
  id: string;
  label: string;
}

export async function mediaUsage(id: string): Promise<MediaUse[]> {
  return (await client.get<{ data: MediaUse[] }>(`/media/${encodeURIComponent(id)}/usage`)).data.data;
}

export async function deleteMedia(id: string, confirm: boolean): Promise<void> {
  await client.delete(`/media/${encodeURIComponent(id)}`, { params: confirm ? { confirm: true } : {} });
}

export async function scheduleEntry(
  type: string,
  id: string,
  body: { publishAt?: string | null; unpublishAt?: string | null },
): Promise<void> {
  await client.post(`${entryPath(type, id)}/schedule`, body);
}

/** A preview address of an entry's draft (POST /cms/entries/{type}/{id}/preview). */
export interface EntryPreview {
  url: string;
  expiresAt: string;
  domain: { id: string; key: string; name: string };
  domains: Array<{ id: string; key: string; name: string; hasPreview: boolean }>;
}

export async function previewEntry(type: string, id: string, domainId?: string): Promise<EntryPreview> {
  return (await client.post<EntryPreview>(`/entries/${type}/${id}/preview`, domainId ? { domainId } : {}))
    .data;
}

/** An entry's locales (GET /cms/entries/{type}/{id}/locales; server/modules/cms/entry-locales.ts). */
export interface EntryLocales {
  entryId: string;
  defaultLocales: string[];
  locales: Array<{
    code: string;
    fallback: string | null;
    variantId: string | null;
    status: "draft" | "published" | "unpublished" | null;
    draftChanged: boolean;
    updatedAt: string | null;
    behind: boolean;
  }>;
}

export async function listEntryLocales(type: string, id: string): Promise<EntryLocales> {
  return (await client.get<EntryLocales>(`/entries/${type}/${id}/locales`)).data;
}

/** Starts the entry in `locale` from the default locale's values, or `from`'s. */
export async function startEntryLocale(
  type: string,
  id: string,
  locale: string,
  from?: string,
): Promise<{ id: string }> {
  return (
    await client.post<{ id: string }>(`/entries/${type}/${id}/locales`, from ? { locale, from } : { locale })
  ).data;
}
