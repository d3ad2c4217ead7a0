/**
 * Images as thumbnails: a few and a count in a list cell, all on a show page; a thumbnail opens
 * the full-size preview, which loads then.
 */
import { Flex, Typography, theme } from "antd";
import { lazy, Suspense, useState } from "react";
import { IMAGE_PLACEHOLDER } from "./image-placeholder";

export const EMPTY_VALUE = <Typography.Text type="secondary">—</Typography.Text>;

const CELL_THUMBS = 3;

const ImagePreview = lazy(() => import("./image-preview"));

/**
 * Image URLs as thumbnails (a few and a count in a cell, all on the show page); a thumbnail
 * opens the full-size preview, which loads then.
 */
export function Thumbnails({ urls, variant }: { urls: string[]; variant: "cell" | "detail" }) {
  const { token } = theme.useToken();
  const [opened, setOpened] = useState<number | null>(null);
  if (urls.length === 0) return EMPTY_VALUE;
  const size = variant === "cell" ? 28 : 72;
  const shown = variant === "cell" ? urls.slice(0, CELL_THUMBS) : urls;
  const more = urls.length - shown.length;
  return (
    <Flex
      gap={4}
      align="center"
      wrap="wrap"
      aria-label={`${urls.length} ${urls.length === 1 ? "image" : "images"}`}
    >
      {shown.map((url, index) => (
        <button
          // biome-ignore lint/suspicious/noArrayIndexKey: a URL may repeat; the position is its identity.
          key={`${index}-${url}`}
          type="button"
          aria-label={`Open image ${index + 1}`}
          onClick={(event) => {
            event.stopPropagation();
            setOpened(index);
          }}
          style={{ padding: 0, border: 0, background: "none", cursor: "zoom-in", lineHeight: 0 }}
        >
          <img
            src={url}
            width={size}
            height={size}
            alt=""
            loading="lazy"
            onError={(event) => {
              if (event.currentTarget.src !== IMAGE_PLACEHOLDER) event.currentTarget.src = IMAGE_PLACEHOLDER;
            }}
            style={{
              objectFit: "cover",
              borderRadius: token.borderRadiusSM,
              background: token.colorFillTertiary,
            }}
          />
        </button>
      ))}
      {more > 0 && <Typography.Text type="secondary">+{more}</Typography.Text>}
      {opened !== null && (
        <Suspense fallback={null}>
          <ImagePreview urls={urls} current={opened} onClose={() => setOpened(null)} />
        </Suspense>
      )}
    </Flex>
  );
}
