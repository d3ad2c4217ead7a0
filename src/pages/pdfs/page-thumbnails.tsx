import { Card, Flex, Skeleton, Typography, theme } from "antd";
import { useEffect, useRef } from "react";
import type { PdfPage } from "../../../schemas/pdf-library";
import { FILL_CARD } from "./editor-layout";

/** The catalogue's pages as thumbnails, the current one marked and kept in view. */
export function PageThumbnails(props: {
  pages: PdfPage[];
  page: number;
  width: number;
  onGo: (page: number) => void;
}) {
  const { token } = theme.useToken();
  const nav = useRef<HTMLElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the page changes, to follow it.
  useEffect(() => {
    nav.current
      ?.querySelector(`[aria-current="page"]`)
      ?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [props.page]);

  return (
    <Card
      size="small"
      title={`${props.pages.length} page${props.pages.length === 1 ? "" : "s"}`}
      style={{ ...FILL_CARD.style, width: props.width, flex: "none" }}
      styles={{ ...FILL_CARD.styles, body: { ...FILL_CARD.styles.body, padding: 8 } }}
    >
      <Flex vertical gap={8} component="nav" aria-label="Pages" ref={nav}>
        {props.pages.map((p) => (
          <button
            key={p.page}
            type="button"
            aria-label={`Page ${p.page}`}
            aria-current={p.page === props.page ? "page" : undefined}
            onClick={() => props.onGo(p.page)}
            style={{
              border: `2px solid ${p.page === props.page ? token.colorPrimary : "transparent"}`,
              padding: 2,
              background: token.colorFillQuaternary,
              borderRadius: token.borderRadius,
              cursor: "pointer",
            }}
          >
            {p.images.thumbnail ? (
              <img
                src={p.images.thumbnail}
                alt=""
                loading="lazy"
                style={{ width: "100%", display: "block", aspectRatio: `${p.width} / ${p.height}` }}
              />
            ) : (
              <Skeleton.Image active style={{ width: "100%", height: "auto", aspectRatio: "1 / 1.41" }} />
            )}
            <Typography.Text style={{ fontSize: 12 }}>{p.page}</Typography.Text>
          </button>
        ))}
      </Flex>
    </Card>
  );
}
