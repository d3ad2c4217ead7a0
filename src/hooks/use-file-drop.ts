/**
 * Drop files onto an area: `dropping` while files are dragged over it (for its highlight),
 * and `onFiles` with what was dropped. Drags that carry no files are left alone, so items
 * dragged within the page keep their own drop targets.
 */
import { type DragEvent, useState } from "react";

export function useFileDrop(onFiles: (files: File[]) => void) {
  const [dropping, setDropping] = useState(false);
  const handlers = {
    onDragOver: (event: DragEvent) => {
      if (!event.dataTransfer.types.includes("Files")) return;
      event.preventDefault();
      setDropping(true);
    },
    onDragLeave: (event: DragEvent) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropping(false);
    },
    onDrop: (event: DragEvent) => {
      if (!event.dataTransfer.files.length) return;
      event.preventDefault();
      setDropping(false);
      onFiles([...event.dataTransfer.files]);
    },
  };
  return { dropping, handlers };
}
