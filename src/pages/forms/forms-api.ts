/**
 * The form builder's calls (docs/forms-api.md) over the forms service base, with the session
 * rules of every client: a form's draft, publishing, and its versions.
 */
import { createServiceClient } from "../../../providers/http";
import { SERVICE_BASES } from "../../../providers/service-bases";
import type { FormDefinition } from "../../../schemas/form-definition";

const client = createServiceClient("forms");

const formPath = (id: string) => `/forms/${encodeURIComponent(id)}`;

export const formKeys = {
  versions: (id: string) => ["forms", "versions", id] as const,
  version: (id: string, version: number) => ["forms", "versions", id, version] as const,
};

/** A form as a record of the engine resource `forms` (schemas/form-records.ts). */
export interface FormRecord {
  id: string;
  name: string;
  slug: string;
  description?: string | null;
  accepting: boolean;
  status: "draft" | "published";
  has_changes: boolean;
  published_version: number | null;
  published_at: string | null;
}

/** The draft the builder edits; `revision` goes back with the next save. */
export interface DraftAnswer {
  definition: FormDefinition;
  revision: number;
  updatedAt: string;
}

export async function getDraft(id: string): Promise<DraftAnswer> {
  return (await client.get<DraftAnswer>(`${formPath(id)}/draft`)).data;
}

/** Replaces the draft; rejects with 409 when `revision` is not the stored one any more. */
export async function saveDraft(
  id: string,
  definition: FormDefinition,
  revision: number,
): Promise<DraftAnswer> {
  return (await client.put<DraftAnswer>(`${formPath(id)}/draft`, { definition, revision })).data;
}

export async function publishForm(id: string): Promise<{ version: number; publishedAt: string }> {
  return (await client.post<{ version: number; publishedAt: string }>(`${formPath(id)}/publish`, {})).data;
}

export interface FormVersion {
  version: number;
  kind: "save" | "publish" | "restore";
  createdAt: string;
  createdBy: string | null;
  author?: string | null;
}

export async function listFormVersions(id: string): Promise<FormVersion[]> {
  const { data } = await client.get<FormVersion[] | { data: FormVersion[] }>(`${formPath(id)}/versions`);
  return Array.isArray(data) ? data : data.data;
}

export async function getFormVersion(
  id: string,
  version: number,
): Promise<{ version: number; definition: FormDefinition }> {
  return (
    await client.get<{ version: number; definition: FormDefinition }>(`${formPath(id)}/versions/${version}`)
  ).data;
}

export async function restoreFormVersion(id: string, version: number): Promise<void> {
  await client.post(`${formPath(id)}/versions/${version}/restore`, {});
}

/** The forms service's public address, absolute (the base may be a path on this origin). */
export function formsOrigin(): string {
  const base = new URL(`${SERVICE_BASES.forms}/`, window.location.origin);
  return base.href.replace(/\/$/, "");
}

/** Where the public reads a form. */
export const publicFormUrl = (slug: string) => `${formsOrigin()}/f/${encodeURIComponent(slug)}`;

/** The snippet that mounts a form in another site (docs/forms-api.md, Embedding). */
export function embedSnippet(slug: string, mode: "inline" | "iframe"): string {
  const iframe = mode === "iframe" ? ' data-mode="iframe"' : "";
  return `<div data-atelier-form="${slug}"${iframe}></div>\n<script src="${formsOrigin()}/embed.js" async></script>`;
}
