/**
 * An entry's live preview beside its editor (issue 29): the domain's preview address, filled in
 * for the entry with a short-lived token (POST /cms/entries/{type}/{id}/preview), in a frame
 * sized as a phone, a tablet or a desktop and scaled to the pane. Each autosave of the draft
 * tells the site (`atelier:preview-saved` by postMessage), whose snippet reloads its page
 * (docs/cms-api.md "Live preview"); a site without the snippet has its frame reloaded instead.
 * The token is renewed before it expires.
 */
import {
  CloseOutlined,
  DesktopOutlined,
  ExportOutlined,
  MobileOutlined,
  ReloadOutlined,
  TabletOutlined,
} from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Flex, Segmented, Select, Spin, Tooltip, Typography, theme } from "antd";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { getErrorMessage } from "../../lib/errors";
import { previewEntry } from "./cms-api";

/** The frame's width per device, in CSS pixels (scaled down to fit the pane). */
export const PREVIEW_DEVICES = { phone: 390, tablet: 820, desktop: 1280 } as const;
type Device = keyof typeof PREVIEW_DEVICES;
const DEVICE_KEY = "atelier.cms.previewDevice";
/** A new token this long before the current one expires. */
const RENEW_BEFORE_MS = 5 * 60_000;

export const PREVIEW_READY = "atelier:preview-ready";
export const PREVIEW_SAVED = "atelier:preview-saved";

const storedDevice = (): Device => {
  const value = localStorage.getItem(DEVICE_KEY);
  return value === "phone" || value === "tablet" || value === "desktop" ? value : "desktop";
};

export interface EntryPreviewPaneProps {
  type: string;
  id: string;
  /** Changes after each autosave of the draft (its revision). */
  savedRevision: unknown;
  onClose: () => void;
}

export function EntryPreviewPane({ type, id, savedRevision, onClose }: EntryPreviewPaneProps) {
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [domainId, setDomainId] = useState<string>();
  const [device, setDevice] = useState<Device>(storedDevice);
  const [frameKey, setFrameKey] = useState(0);
  const [listening, setListening] = useState(false);
  const frame = useRef<HTMLIFrameElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const [stageSize, setStageSize] = useState({ width: 0, height: 0 });

  const preview = useQuery({
    queryKey: ["cms", "preview", type, id, domainId],
    queryFn: () => previewEntry(type, id, domainId),
    retry: false,
    gcTime: 0,
    // A new token (and address) before this one expires.
    refetchInterval: (query) => {
      const expires = query.state.data ? Date.parse(query.state.data.expiresAt) : 0;
      return expires ? Math.max(expires - Date.now() - RENEW_BEFORE_MS, 60_000) : false;
    },
  });
  const url = preview.data?.url;
  const origin = url ? new URL(url).origin : null;

  // The site's snippet says it listens: saves are then sent to it instead of reloading the frame.
  useEffect(() => {
    setListening(false);
    const onMessage = (event: MessageEvent) => {
      if (event.source === frame.current?.contentWindow && event.origin === origin) {
        if ((event.data as { type?: unknown } | null)?.type === PREVIEW_READY) setListening(true);
      }
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [origin]);

  // Each autosave: tell the site, or reload its frame.
  const firstRevision = useRef(savedRevision);
  useEffect(() => {
    if (savedRevision === firstRevision.current) return;
    const target = frame.current?.contentWindow;
    if (listening && target && origin) target.postMessage({ type: PREVIEW_SAVED, entryId: id }, origin);
    else setFrameKey((k) => k + 1);
  }, [savedRevision, listening, origin, id]);

  useLayoutEffect(() => {
    const element = stage.current;
    if (!element) return;
    const measure = () => setStageSize({ width: element.clientWidth, height: element.clientHeight });
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    measure();
    return () => observer.disconnect();
  }, []);

  const width = PREVIEW_DEVICES[device];
  // The stage's padding (12 px a side) stays around the frame.
  const scale = stageSize.width > 0 ? Math.min(1, (stageSize.width - 24) / width) : 1;
  const frameHeight = Math.max(stageSize.height - 24, 200);
  const domains = preview.data?.domains ?? [];
  const chooseDevice = (value: Device) => {
    setDevice(value);
    localStorage.setItem(DEVICE_KEY, value);
  };

  return (
    <section
      aria-label="Preview"
      data-testid="entry-preview"
      style={{
        // Below the app's sticky header (64 px), the frame stays in view as the form scrolls.
        position: "sticky",
        top: 80,
        height: "calc(100vh - 96px)",
        display: "flex",
        flexDirection: "column",
        background: token.colorBgContainer,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        overflow: "hidden",
      }}
    >
      <Flex
        align="center"
        gap={8}
        wrap
        style={{ padding: "8px 12px", borderBottom: `1px solid ${token.colorBorderSecondary}` }}
      >
        <Typography.Text strong>Preview</Typography.Text>
        {domains.filter((d) => d.hasPreview).length > 1 ? (
          <Select
            size="small"
            aria-label="Domain"
            value={preview.data?.domain.id}
            onChange={setDomainId}
            options={domains.filter((d) => d.hasPreview).map((d) => ({ value: d.id, label: d.name }))}
            style={{ minWidth: 140 }}
          />
        ) : (
          preview.data && <Typography.Text type="secondary">{preview.data.domain.name}</Typography.Text>
        )}
        <Segmented<Device>
          size="small"
          value={device}
          onChange={chooseDevice}
          options={[
            {
              value: "phone",
              icon: <MobileOutlined aria-hidden />,
              title: "Phone",
              label: <span className="atelier-sr-only">Phone</span>,
            },
            {
              value: "tablet",
              icon: <TabletOutlined aria-hidden />,
              title: "Tablet",
              label: <span className="atelier-sr-only">Tablet</span>,
            },
            {
              value: "desktop",
              icon: <DesktopOutlined aria-hidden />,
              title: "Desktop",
              label: <span className="atelier-sr-only">Desktop</span>,
            },
          ]}
          style={{ marginInlineStart: "auto" }}
        />
        <Tooltip title="Reload">
          <Button
            size="small"
            type="text"
            aria-label="Reload the preview"
            icon={<ReloadOutlined aria-hidden />}
            onClick={() => setFrameKey((k) => k + 1)}
            disabled={!url}
          />
        </Tooltip>
        <Tooltip title="Open in a new tab">
          <Button
            size="small"
            type="text"
            aria-label="Open the preview in a new tab"
            icon={<ExportOutlined aria-hidden />}
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            disabled={!url}
          />
        </Tooltip>
        <Tooltip title="Close the preview">
          <Button
            size="small"
            type="text"
            aria-label="Close the preview"
            icon={<CloseOutlined aria-hidden />}
            onClick={onClose}
          />
        </Tooltip>
      </Flex>
      <div
        ref={stage}
        style={{
          flex: 1,
          minHeight: 0,
          overflow: "hidden",
          background: token.colorFillTertiary,
          padding: 12,
        }}
      >
        {preview.isLoading && (
          <Flex justify="center" style={{ paddingTop: 48 }}>
            <Spin tip="Opening the preview…">
              <div style={{ width: 160, height: 40 }} />
            </Spin>
          </Flex>
        )}
        {preview.isError && (
          <Alert
            type="info"
            showIcon
            message="No preview for this entry yet"
            description={getErrorMessage(preview.error)}
            action={
              <Button size="small" onClick={() => navigate("/cms/domains")}>
                Domains
              </Button>
            }
          />
        )}
        {url && (
          <div style={{ width: width * scale, height: frameHeight, margin: "0 auto", overflow: "hidden" }}>
            <iframe
              key={`${url} ${frameKey}`}
              ref={frame}
              src={url}
              title="Preview of the draft"
              data-testid="entry-preview-frame"
              sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
              style={{
                width,
                height: frameHeight / scale,
                border: 0,
                background: "#fff",
                transform: `scale(${scale})`,
                transformOrigin: "0 0",
                boxShadow: token.boxShadowTertiary,
              }}
            />
          </div>
        )}
      </div>
      {url && (
        <Typography.Text type="secondary" style={{ padding: "6px 12px", fontSize: token.fontSizeSM }}>
          {listening
            ? "Live: the site refreshes each time the draft is saved."
            : "Reloads each time the draft is saved. Add the preview snippet to your site to refresh in place."}
        </Typography.Text>
      )}
    </section>
  );
}
