/** Saving a downloaded file, and reading the error of a failed blob download. Browser only. */
import { getErrorMessage } from "../../lib/errors";

/**
 * The file name a `Content-Disposition` header gives (`attachment; filename="x.csv"`), else
 * `fallback`. Path separators are dropped: the name is the server's suggestion, not a path.
 *
 * @example
 * attachmentName('attachment; filename="contact-submissions.csv"', "export.csv"); // "contact-submissions.csv"
 * attachmentName(undefined, "products.csv"); // "products.csv"
 */
export function attachmentName(header: unknown, fallback: string): string {
  const match = typeof header === "string" ? /filename="?([^";]+)"?/i.exec(header) : null;
  const name = match?.[1].trim().replace(/[/\\]/g, "-");
  return name || fallback;
}

/** Offers `blob` to the user as a file called `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The message of a failed `responseType: "blob"` call: the error body arrives as a Blob,
 * so it is read as JSON first and then given to the usual helper.
 */
export async function blobErrorMessage(error: unknown): Promise<string> {
  const response = (error as { response?: { data?: unknown } } | null)?.response;
  if (response && response.data instanceof Blob) {
    try {
      response.data = JSON.parse(await response.data.text());
    } catch {
      response.data = undefined;
    }
  }
  return getErrorMessage(error);
}
