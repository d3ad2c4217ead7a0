/**
 * An upload queue's logic, free of React: each file's progress (the spec's `uploadProgress`:
 * name, state, percentage, starting pending at 0 %), the queue's totals, a concurrency
 * limit, and byte counts for people. The asset manager and the PDF library share it.
 */

export type UploadState = "pending" | "uploading" | "done" | "error";

/** One file of the upload queue: the spec's `uploadProgress` (name, state, percentage). */
export interface UploadProgress {
  id: string;
  name: string;
  size: number;
  state: UploadState;
  /** 0–100; 100 only once the server has stored and checked the file. */
  percentage: number;
  /** Why it failed, for state "error". */
  message?: string;
}

/** New queue entries: every file starts pending at 0 %. */
export function queued(
  files: readonly { name: string; size: number }[],
  nextId: () => string,
): UploadProgress[] {
  return files.map((f) => ({ id: nextId(), name: f.name, size: f.size, state: "pending", percentage: 0 }));
}

/**
 * The percentage while bytes go up: the body's fraction, held at 99 until the server
 * answers (it still checks and stores the file after the last byte).
 */
export const sendingPercentage = (fraction: number) => Math.min(99, Math.max(0, Math.floor(fraction * 100)));

export function updateUpload(
  list: readonly UploadProgress[],
  id: string,
  change: Partial<Omit<UploadProgress, "id">>,
): UploadProgress[] {
  return list.map((u) => (u.id === id ? { ...u, ...change } : u));
}

/** The queue's totals, for the panel's header. */
export function uploadSummary(list: readonly UploadProgress[]) {
  const done = list.filter((u) => u.state === "done").length;
  const failed = list.filter((u) => u.state === "error").length;
  const active = list.length - done - failed;
  const bytes = list.reduce((sum, u) => sum + u.size, 0);
  const sent = list.reduce(
    (sum, u) => sum + (u.state === "done" ? u.size : (u.size * u.percentage) / 100),
    0,
  );
  return { done, failed, active, percentage: bytes ? Math.floor((sent / bytes) * 100) : 100 };
}

/**
 * Runs `task` over `items` with at most `limit` at a time, in order; resolves when all
 * have settled (a failed task does not stop the others).
 */
export async function runLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      await task(item).catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/**
 * A byte count for people, in binary units with one decimal below 10.
 *
 * @example
 * formatBytes(0); // "0 B"
 * formatBytes(1536); // "1.5 KB"
 * formatBytes(5 * 1024 ** 2); // "5.0 MB"
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = -1;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
