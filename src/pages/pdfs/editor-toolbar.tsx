import { LeftOutlined, RightOutlined, ZoomInOutlined, ZoomOutOutlined } from "@ant-design/icons";
import { Button, Flex, InputNumber, Space, Tooltip } from "antd";
import type { Zoom } from "./use-zoom";
import { MAX_ZOOM, ZOOM_STEPS, zoomLabel } from "./zoom";

/**
 * Above the page: previous/next page and the page number, then the zoom — out, the current
 * percentage (a click shows the actual size), in, Fit width and Fit page.
 */
export function EditorToolbar(props: {
  page: number;
  pageCount: number;
  onGo: (page: number) => void;
  zoom: Zoom;
}) {
  const { page, pageCount, onGo, zoom } = props;
  const label = zoomLabel(zoom.zoom);
  return (
    <Flex justify="space-between" align="center" wrap gap={8} role="toolbar" aria-label="Page and zoom">
      <Space size={4}>
        <Tooltip title="Previous page (Page Up)">
          <Button
            icon={<LeftOutlined />}
            aria-label="Previous page"
            disabled={page <= 1}
            onClick={() => onGo(page - 1)}
          />
        </Tooltip>
        <InputNumber
          aria-label="Page number"
          min={1}
          max={pageCount}
          value={page}
          onPressEnter={(e) => onGo(Number((e.target as HTMLInputElement).value))}
          onStep={(v) => onGo(Number(v))}
          addonAfter={`of ${pageCount}`}
          style={{ width: 128 }}
        />
        <Tooltip title="Next page (Page Down)">
          <Button
            icon={<RightOutlined />}
            aria-label="Next page"
            disabled={page >= pageCount}
            onClick={() => onGo(page + 1)}
          />
        </Tooltip>
      </Space>
      <Space size={8}>
        <Space.Compact>
          <Tooltip title="Zoom out (−)">
            <Button
              icon={<ZoomOutOutlined />}
              aria-label="Zoom out"
              disabled={zoom.zoom <= ZOOM_STEPS[0]}
              onClick={() => zoom.step(-1)}
            />
          </Tooltip>
          <Tooltip title="Actual size (100%)">
            <Button
              data-testid="zoom-level"
              aria-label={`Zoom ${label}: show the actual size`}
              onClick={() => zoom.set(1)}
              style={{ width: 60, fontVariantNumeric: "tabular-nums" }}
            >
              {label}
            </Button>
          </Tooltip>
          <Tooltip title="Zoom in (+)">
            <Button
              icon={<ZoomInOutlined />}
              aria-label="Zoom in"
              disabled={zoom.zoom >= MAX_ZOOM}
              onClick={() => zoom.step(1)}
            />
          </Tooltip>
        </Space.Compact>
        <Space.Compact>
          <Tooltip title="The page as wide as the space (0)">
            <Button
              aria-pressed={zoom.mode === "width"}
              type={zoom.mode === "width" ? "primary" : "default"}
              ghost={zoom.mode === "width"}
              onClick={zoom.fitWidth}
            >
              Fit width
            </Button>
          </Tooltip>
          <Tooltip title="The whole page in view">
            <Button
              aria-pressed={zoom.mode === "page"}
              type={zoom.mode === "page" ? "primary" : "default"}
              ghost={zoom.mode === "page"}
              onClick={zoom.fitPage}
            >
              Fit page
            </Button>
          </Tooltip>
        </Space.Compact>
      </Space>
    </Flex>
  );
}
