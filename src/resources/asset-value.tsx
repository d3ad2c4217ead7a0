/**
 * A field holding asset ids (CMS media fields), shown as the assets' thumbnails with their
 * names on a show page. The assets are read once per set of ids through the CMS media library
 * (`/cms/media?ids=`), so a user sees the ones the library shows them.
 */
import { useQuery } from "@tanstack/react-query";
import { Flex, Skeleton, Tooltip, Typography } from "antd";
import { createServiceClient } from "../../providers/http";
import type { DamAsset } from "../../schemas/dam";
import { EMPTY_VALUE, Thumbnails } from "./thumbnails";

const cms = createServiceClient("cms");

async function assetsByIds(ids: readonly string[]): Promise<DamAsset[]> {
  const answer = await cms.get<{ mediaDtoList: DamAsset[] }>("/media", {
    params: { ids: ids.join(","), pageSize: 100 },
  });
  return answer.data.mediaDtoList;
}

export function AssetValue({ ids, variant }: { ids: string[]; variant: "cell" | "detail" }) {
  const key = [...new Set(ids)].sort();
  const assets = useQuery({
    queryKey: ["cms", "media", "by-ids", key.join(",")],
    queryFn: () => assetsByIds(key),
  });
  if (!ids.length) return EMPTY_VALUE;
  if (assets.isLoading) return <Skeleton.Image active style={{ width: 28, height: 28 }} />;
  const byId = new Map((assets.data ?? []).map((a) => [a.id, a]));
  const found = ids.map((id) => byId.get(id)).filter((a): a is DamAsset => Boolean(a));
  const missing = ids.length - found.length;
  return (
    <Flex vertical gap={4}>
      <Thumbnails urls={found.map((a) => a.thumbnailUrl ?? a.url)} variant={variant} />
      {variant === "detail" && found.length > 0 && (
        <Typography.Text type="secondary">{found.map((a) => a.name).join(", ")}</Typography.Text>
      )}
      {missing > 0 && (
        <Tooltip title="Deleted, or in a folder you cannot see">
          <Typography.Text type="secondary">
            {missing === 1 ? "1 asset not available" : `${missing} assets not available`}
          </Typography.Text>
        </Tooltip>
      )}
    </Flex>
  );
}
