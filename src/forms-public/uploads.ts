/**
 * The file field: each chosen file is sent as soon as it is picked to the input's
 * `data-upload-url` (`POST /forms/f/{slug}/files?field=<id>`, multipart, one `file` part), which
 * answers `{ id, name, size, type }`; the answer then carries those ids (the check wants 16 to
 * 64 letters, digits, `_` or `-`). A field is `data-uploading` while files are on their way,
 * and submitting waits for it.
 */
import { MAX_FILES_PER_FIELD } from "../../schemas/form-answers";
import { FILES_DATA } from "./form-dom";

/** Upload problems, in words, or null when every file was taken. */
export async function uploadFiles(
  input: HTMLInputElement,
  fetchImpl: typeof fetch = fetch,
): Promise<string | null> {
  const url = input.dataset.uploadUrl;
  const files = [...(input.files ?? [])];
  input.dataset[FILES_DATA] = "[]";
  if (!url || !files.length) return null;
  if (files.length > MAX_FILES_PER_FIELD) return `Choose at most ${MAX_FILES_PER_FIELD} files.`;
  const maxMb = Number(input.dataset.maxSizeMb);
  const tooLarge = files.find((f) => Number.isFinite(maxMb) && maxMb > 0 && f.size > maxMb * 1024 * 1024);
  if (tooLarge) return `${tooLarge.name} is larger than ${maxMb} MB.`;

  // Files picked again while the first ones upload replace them: only the latest pick counts.
  const pick = String(Number(input.dataset.pick ?? 0) + 1);
  input.dataset.pick = pick;
  const block = input.closest<HTMLElement>(".atf-field");
  block?.setAttribute("data-uploading", "");
  try {
    const ids: string[] = [];
    for (const file of files) {
      const body = new FormData();
      body.append("file", file, file.name);
      const response = await fetchImpl(url, { method: "POST", body, credentials: "omit" }).catch(() => null);
      const answer = (await response?.json().catch(() => null)) as { id?: unknown; message?: unknown } | null;
      if (input.dataset.pick !== pick) return null;
      if (!response?.ok || typeof answer?.id !== "string") {
        return typeof answer?.message === "string" ? answer.message : `${file.name} could not be uploaded.`;
      }
      ids.push(answer.id);
    }
    if (input.dataset.pick === pick) input.dataset[FILES_DATA] = JSON.stringify(ids);
    return null;
  } finally {
    if (input.dataset.pick === pick) block?.removeAttribute("data-uploading");
  }
}
