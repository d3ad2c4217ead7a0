/**
 * Where the DAM is: folder, search and page live in the address (`?folder=…&q=…&page=…`), so
 * the back button, a reload and a shared link all land on the same place.
 */
import { useCallback } from "react";
import { useSearchParams } from "react-router";

/** The page's address for a folder (null: the top level), search and page cleared. */
export const folderHref = (id: string | null) => ({ search: id ? `?folder=${encodeURIComponent(id)}` : "" });

export interface DamPlace {
  folderId: string | null;
  q: string;
  page: number;
  searching: boolean;
  /** `#tag` searches by tag, anything else by name. */
  tag: string | undefined;
}

export type DamMove = { folder?: string | null; q?: string; page?: number };

/** The place in the address, and `go` to change it (a new folder clears search and page). */
export function useDamLocation(onMoved: () => void): DamPlace & { go: (changes: DamMove) => void } {
  const [params, setParams] = useSearchParams();
  const folderId = params.get("folder");
  const q = params.get("q") ?? "";
  const page = Math.max(1, Number(params.get("page")) || 1);

  const go = useCallback(
    (changes: DamMove) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          const set = (key: string, value: string | null | undefined) =>
            value ? next.set(key, value) : next.delete(key);
          if ("folder" in changes) {
            set("folder", changes.folder);
            next.delete("q");
            next.delete("page");
          }
          if ("q" in changes) {
            set("q", changes.q);
            next.delete("page");
          }
          if ("page" in changes) set("page", changes.page && changes.page > 1 ? String(changes.page) : null);
          return next;
        },
        // Typing a search replaces the entry instead of stacking one per search.
        { replace: "q" in changes && !("folder" in changes) },
      );
      onMoved();
    },
    [setParams, onMoved],
  );

  return {
    folderId,
    q,
    page,
    searching: q.trim() !== "",
    tag: q.startsWith("#") ? q.slice(1).trim() : undefined,
    go,
  };
}
