/**
 * The content types, read once per session and shared: the builder, the entry screens and the
 * menu (each collection and single is a menu entry under CMS) all read this one query.
 */
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { cmsKeys, listContentTypes } from "./cms-api";
import { type ContentTypeRecord, entryDefinition } from "./entry-definition";

export function useContentTypes(enabled = true) {
  return useQuery({ queryKey: cmsKeys.types, queryFn: listContentTypes, enabled, staleTime: 60_000 });
}

/** The entry resource definitions of the collections and singles. */
export function useEntryDefinitions(types: readonly ContentTypeRecord[] | undefined) {
  return useMemo(
    () => (types ?? []).filter((t) => t.kind !== "component").map((t) => entryDefinition(t, types ?? [])),
    [types],
  );
}
