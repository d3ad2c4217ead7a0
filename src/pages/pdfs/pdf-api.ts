/**
 * The PDF library's calls beyond the generic resource routes (docs/pdf-library-api.md):
 * resumable uploads, pages, hotspot links, search and suggestions. React Query keys too.
 */
import { http } from "../../../providers/http";
import type { LinkSuggestion, PageLinks, PdfPage, PdfUploadState } from "../../../schemas/pdf-library";
import { missingChunks, uploadedBytes } from "./resumable";

export const pdfKeys = {
  pages: (id: string) => ["pdfs", id, "pages"] as const,
  links: (id: string, page: number) => ["pdfs", id, "links", page] as const,
  suggestions: (id: string, page: number) => ["pdfs", id, "suggestions", page] as const,
  search: (id: string, q: string) => ["pdfs", id, "search", q] as const,
};

export async function getPages(id: string): Promise<PdfPage[]> {
  return (await http.get<{ data: PdfPage[] }>(`/api/pdfs/${id}/pages`)).data.data;
}

export async function getLinks(id: string, page: number): Promise<PageLinks> {
  return (await http.get<PageLinks>(`/api/pdfs/${id}/pages/${page}/links`)).data;
}

export async function putLinks(id: string, page: number, body: PageLinks): Promise<PageLinks> {
  return (await http.put<PageLinks>(`/api/pdfs/${id}/pages/${page}/links`, body)).data;
}

export async function getSuggestions(id: string, page: number): Promise<LinkSuggestion[]> {
  return (await http.get<{ data: LinkSuggestion[] }>(`/api/pdfs/${id}/pages/${page}/suggestions`)).data.data;
}

export async function searchPages(id: string, q: string): Promise<{ page: number; snippet: string }[]> {
  return (
    await http.get<{ data: { page: number; snippet: string }[] }>(`/api/pdfs/${id}/search`, { params: { q } })
  ).data.data;
}

/** Tries a chunk this often before the upload gives up (a dropped connection comes back). */
const CHUNK_TRIES = 5;
const RESUME_KEY = "atelier.pdf-upload.";

/** Where an upload of this very file (name, size, date) got to, so a reload resumes it. */
const resumeKey = (file: File, pdfId?: string) =>
  `${RESUME_KEY}${pdfId ?? "new"}:${file.name}:${file.size}:${file.lastModified}`;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** A 4xx answer is final (the file is refused); anything else is worth another try. */
const isFinal = (error: unknown) => {
  const status = (error as { response?: { status?: number } }).response?.status;
  return status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429;
};

/**
 * Uploads a PDF in chunks (`POST /api/pdfs/uploads`, then each missing chunk, then
 * `complete`). A failed chunk is sent again with growing pauses; an upload of the same file
 * interrupted earlier (even by a reload) resumes from the chunks the server already has.
 * With `pdfId` the file replaces that catalogue's (`forReplace`). Resolves with the PDF's id.
 */
export async function uploadPdf(
  file: File,
  options: { name?: string; pdfId?: string; signal?: AbortSignal },
  onProgress: (fraction: number) => void,
): Promise<string> {
  const key = resumeKey(file, options.pdfId);
  let state: PdfUploadState | null = null;
  const saved = localStorage.getItem(key);
  if (saved) {
    state = await http.get<PdfUploadState>(`/api/pdfs/uploads/${saved}`).then(
      (r) => r.data,
      () => null,
    );
  }
  if (!state) {
    state = (
      await http.post<PdfUploadState>("/api/pdfs/uploads", {
        fileName: file.name,
        size: file.size,
        ...(options.name ? { name: options.name } : {}),
        ...(options.pdfId ? { pdfId: options.pdfId } : {}),
      })
    ).data;
    localStorage.setItem(key, state.id);
  }
  const upload = state;
  onProgress(uploadedBytes(upload, upload.received) / upload.size);

  const received = new Set(upload.received);
  for (const index of missingChunks(upload)) {
    const start = index * upload.chunkSize;
    const blob = file.slice(start, Math.min(file.size, start + upload.chunkSize));
    for (let attempt = 1; ; attempt++) {
      try {
        await http.put(`/api/pdfs/uploads/${upload.id}/chunks/${index}`, blob, {
          headers: { "Content-Type": "application/octet-stream" },
          signal: options.signal,
          onUploadProgress: (e) =>
            onProgress((uploadedBytes(upload, received) + (e.loaded ?? 0)) / upload.size),
        });
        received.add(index);
        break;
      } catch (error) {
        if (options.signal?.aborted || isFinal(error) || attempt >= CHUNK_TRIES) {
          if (isFinal(error)) localStorage.removeItem(key);
          throw error;
        }
        await sleep(500 * 2 ** attempt, options.signal);
      }
    }
  }
  const { data } = await http.post<{ id: string }>(`/api/pdfs/uploads/${upload.id}/complete`);
  localStorage.removeItem(key);
  onProgress(1);
  return data.id;
}
