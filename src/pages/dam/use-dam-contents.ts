/**
 * What the DAM shows for a place: the folder's details, its sub-folders (not while searching)
 * and a page of assets, as one list of items in display order.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { App } from "antd";
import { useEffect, useMemo } from "react";
import { failureStatus, loadFailed } from "../../lib/load-failure";
import { damKeys, getFolder, listAssets, listFolders } from "./dam-api";
import { assetItem, type DamItem, folderItem } from "./dam-items";
import { type AssetSort, folderSortOf } from "./dam-logic";
import type { DamMove, DamPlace } from "./use-dam-location";

export const PAGE_SIZE = 60;

export function useDamContents(place: DamPlace, sort: AssetSort, go: (changes: DamMove) => void) {
  const { message } = App.useApp();
  const { folderId, q, page, searching, tag } = place;

  const details = useQuery({
    queryKey: damKeys.folder(folderId ?? ""),
    queryFn: () => getFolder(folderId as string),
    enabled: folderId !== null,
    retry: false,
  });
  const folders = useQuery({
    queryKey: damKeys.folders(folderId, folderSortOf(sort)),
    queryFn: () => listFolders(folderId, folderSortOf(sort)),
    enabled: !searching,
  });
  const assetQuery = {
    folderId,
    q: searching && !tag ? q.trim() : undefined,
    tag,
    sort,
    page,
    pageSize: PAGE_SIZE,
  };
  const assets = useQuery({
    queryKey: damKeys.assets(assetQuery),
    queryFn: () => listAssets(assetQuery),
    placeholderData: keepPreviousData,
  });

  // The folder was deleted (here or by someone else): back to the top level.
  const missing = failureStatus(details.error) === 404;
  useEffect(() => {
    if (!missing) return;
    message.warning("That folder no longer exists");
    go({ folder: null });
  }, [missing, message, go]);

  const items = useMemo<DamItem[]>(
    () => [
      ...(searching ? [] : (folders.data?.data ?? []).map(folderItem)),
      ...(assets.data?.data ?? []).map(assetItem),
    ],
    [searching, folders.data, assets.data],
  );

  // What failed to load, for the error shown in place of the items (never "This folder is empty").
  const failed = !searching && loadFailed(folders) ? folders : loadFailed(assets) ? assets : null;

  return {
    place: details.data,
    items,
    assets: assets.data,
    loading: (folders.isLoading && !searching) || assets.isLoading,
    failure: failed && {
      error: failed.error,
      retry: () => Promise.all([searching ? null : folders.refetch(), assets.refetch()]),
    },
  };
}
