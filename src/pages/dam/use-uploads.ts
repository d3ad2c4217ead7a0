/**
 * The upload queue (`uploadProgress`): files start pending at 0 %, go up three at a time
 * with their own progress, and end done or with the server's reason. Finished entries
 * stay until cleared, so a person sees what happened to each file.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import { getErrorMessage } from "../../lib/errors";
import { damKeys, uploadAsset } from "./dam-api";
import { queued, runLimited, sendingPercentage, type UploadProgress, updateUpload } from "./dam-logic";

/** Files sent at once: enough to fill the pipe, few enough to show steady progress. */
const PARALLEL_UPLOADS = 3;

export interface Uploads {
  uploads: UploadProgress[];
  /** Queues files for a folder (null: the top level); resolves when all have settled. */
  enqueue: (files: readonly File[], folderId: string | null) => Promise<void>;
  clearFinished: () => void;
}

export function useUploads(): Uploads {
  const queryClient = useQueryClient();
  const [uploads, setUploads] = useState<UploadProgress[]>([]);
  const counter = useRef(0);

  const enqueue = useCallback(
    async (files: readonly File[], folderId: string | null) => {
      if (!files.length) return;
      const entries = queued(files, () => `upload-${++counter.current}`);
      setUploads((list) => [...list, ...entries]);
      const set = (id: string, change: Partial<UploadProgress>) =>
        setUploads((list) => updateUpload(list, id, change));
      await runLimited(
        entries.map((entry, i) => ({ entry, file: files[i] })),
        PARALLEL_UPLOADS,
        async ({ entry, file }) => {
          set(entry.id, { state: "uploading" });
          try {
            await uploadAsset(file, folderId, (fraction) =>
              set(entry.id, { percentage: sendingPercentage(fraction) }),
            );
            set(entry.id, { state: "done", percentage: 100 });
            void queryClient.invalidateQueries({ queryKey: damKeys.all });
          } catch (error) {
            set(entry.id, { state: "error", message: getErrorMessage(error) });
          }
        },
      );
    },
    [queryClient],
  );

  const clearFinished = useCallback(
    () => setUploads((list) => list.filter((u) => u.state === "pending" || u.state === "uploading")),
    [],
  );

  return { uploads, enqueue, clearFinished };
}
