/** Catalogue PDFs set up through the API for the browser tests: uploaded, then waited on. */
import { expect } from "@playwright/test";
import type { ApiSession } from "./helpers";

/** A catalogue as the API answers it (the fields the tests read). */
export interface UploadedPdf {
  id: string;
  slug: string;
  name: string;
  pdflist_status: string;
  error_message: string | null;
}

/** Uploads `buffer` as `fileName` (optionally named); answers the new catalogue, queued for processing. */
export async function uploadPdf(
  admin: ApiSession,
  fileName: string,
  buffer: Buffer,
  name?: string,
): Promise<UploadedPdf> {
  const response = await admin.send("POST", "/api/pdfs", {
    multipart: {
      ...(name === undefined ? {} : { name }),
      file: { name: fileName, mimeType: "application/pdf", buffer },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as UploadedPdf;
}

/**
 * Waits until processing of catalogue `id` has ended (ready or error) and answers the catalogue.
 * Processing is a queued job, slow on a busy machine: the wait is a cap, not a timing check.
 */
export async function processedPdf(admin: ApiSession, id: string, timeout = 90_000): Promise<UploadedPdf> {
  let pdf: UploadedPdf | undefined;
  await expect
    .poll(
      async () => {
        pdf = await admin.expect<UploadedPdf>("GET", `/api/pdfs/${id}`, 200);
        return pdf.pdflist_status === "ready" || pdf.pdflist_status === "error";
      },
      { message: `catalogue ${id} is processed`, timeout, intervals: [250, 500, 1000] },
    )
    .toBe(true);
  return pdf!;
}
