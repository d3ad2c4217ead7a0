/** Uploads into the asset manager: the shared queue, sending to `POST /dam/assets`. */
import { useQueryClient } from "@tanstack/react-query";
import { type UploadQueue, useUploadQueue } from "../../hooks/use-upload-queue";
import { damKeys, uploadAsset } from "./dam-api";

/** Queue files for a folder (null: the top level); every finished file refreshes the manager. */
export function useUploads(): UploadQueue<string | null> {
  const queryClient = useQueryClient();
  return useUploadQueue<string | null>(async (file, folderId, onProgress) => {
    await uploadAsset(file, folderId, onProgress);
    void queryClient.invalidateQueries({ queryKey: damKeys.all });
  });
}
