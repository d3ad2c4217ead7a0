/**
 * A form's partial answers and funnel (docs/forms-api.md), over the forms service base: the
 * list, the CSV download, delete, and the funnel's steps over a date range and source.
 */
import { readTimeoutMs } from "../../../providers/data-provider";
import { createServiceClient } from "../../../providers/http";
import { attachmentName, saveBlob } from "../../resources/csv/download";

const client = createServiceClient("forms");
const formPath = (id: string) => `/forms/${encodeURIComponent(id)}`;

export interface PartialAnswer {
  id: string;
  created_at: string;
  updated_at: string;
  expires_at: string;
  /** The page the visitor was on, from 1, of `pages`. */
  page: number;
  pages: number;
  utm_source: string;
  answers: Record<string, unknown>;
}

export async function listPartials(formId: string, page: number, pageSize: number) {
  const res = await client.get<{ data: PartialAnswer[]; total: number }>(`${formPath(formId)}/partials`, {
    params: { page, pageSize },
    timeout: readTimeoutMs(),
  });
  return res.data;
}

export async function deletePartial(formId: string, id: string) {
  await client.delete(`${formPath(formId)}/partials/${encodeURIComponent(id)}`);
}

export async function downloadPartials(formId: string) {
  const res = await client.get<Blob>(`${formPath(formId)}/partials/export.csv`, { responseType: "blob" });
  saveBlob(res.data, attachmentName(res.headers["content-disposition"], "partial-answers.csv"));
}

export interface FunnelStep {
  key: string;
  label: string;
  count: number;
  dropOff: number | null;
  dropOffRate: number | null;
}

export interface Funnel {
  from: string;
  to: string;
  source: string | null;
  pages: number;
  steps: FunnelStep[];
  sources: Array<{ source: string; views: number; starts: number; completions: number }>;
}

export async function getFunnel(formId: string, from: string, to: string, source: string | null) {
  const res = await client.get<Funnel>(`${formPath(formId)}/funnel`, {
    params: { from, to, ...(source === null ? {} : { source }) },
    timeout: readTimeoutMs(),
  });
  return res.data;
}
