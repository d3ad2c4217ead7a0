/**
 * An upload queue (`uploadProgress`) for any screen: files start pending at 0 %, go up a
 * few at a time with their own progress, and end done or with the server's reason.
 * Finished entries stay until cleared, so a person sees what happened to each file.
 */
import { useCallback, useRef, useState } from "react";
import { getErrorMessage } from "../lib/errors";
import { queued, runLimited, sendingPercentage, type UploadProgress, updateUpload } from "../lib/uploads";

/** Files sent at once: enough to fill the pipe, few enough to show steady progress. */
const PARALLEL_UPLOADS = 3;

/** Sends one file; reports the fraction sent (0..1) as it goes. */
export type SendFile<T> = (file: File, target: T, onProgress: (fraction: number) => void) => Promise<void>;

export interface UploadQueue<T> {
  uploads: UploadProgress[];
  /** Queues files for a target (a folder, a catalogue…); resolves when all have settled. */
  enqueue: (files: readonly File[], target: T) => Promise<void>;
  clearFinished: () => void;
}

/**
 * @example
 * const { uploads, enqueue } = useUploadQueue<string | null>((file, folderId, onProgress) =>
 *   uploadAsset(file, folderId, onProgress).then(() => refresh()));
 */
export function useUploadQueue<T>(send: SendFile<T>, parallel = PARALLEL_UPLOADS): UploadQueue<T> {
  const [uploads, setUploads] = useState<UploadProgress[]>([]);
  const counter = useRef(0);
  const sendRef = useRef(send);
  sendRef.current = send;

  const enqueue = useCallback(
    async (files: readonly File[], target: T) => {
      if (!files.length) return;
      const entries = queued(files, () => `upload-${++counter.current}`);
      setUploads((list) => [...list, ...entries]);
      const set = (id: string, change: Partial<UploadProgress>) =>
        setUploads((list) => updateUpload(list, id, change));
      await runLimited(
        entries.map((entry, i) => ({ entry, file: files[i] })),
        parallel,
        async ({ entry, file }) => {
          set(entry.id, { state: "uploading" });
          try {
            await sendRef.current(file, target, (fraction) =>
              set(entry.id, { percentage: sendingPercentage(fraction) }),
            );
            set(entry.id, { state: "done", percentage: 100 });
          } catch (error) {
            set(entry.id, { state: "error", message: getErrorMessage(error) });
          }
        },
      );
    },
    [parallel],
  );

  const clearFinished = useCallback(
    () => setUploads((list) => list.filter((u) => u.state === "pending" || u.state === "uploading")),
    [],
  );

  return { uploads, enqueue, clearFinished };
}
