import {
  BulbOutlined,
  CopyOutlined,
  ExportOutlined,
  LeftOutlined,
  RightOutlined,
  SaveOutlined,
  UndoOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from "@ant-design/icons";
import { Show } from "@refinedev/antd";
import { useOne, useSubscription } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  Alert,
  App,
  Button,
  Card,
  Empty,
  Flex,
  Input,
  InputNumber,
  List,
  Modal,
  Radio,
  Skeleton,
  Space,
  Tooltip,
  Typography,
  theme,
} from "antd";
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useParams, useSearchParams } from "react-router";
import type { PageLinks } from "../../../schemas/pdf-library";
import { getErrorMessage } from "../../lib/errors";
import type { ScreenProps } from "../../resources/types";
import { HotspotCanvas } from "./hotspot-canvas";
import {
  addLink,
  copiedLinks,
  type EditorState,
  loaded,
  missingTarget,
  type Rect,
  removeLink,
  saved,
  select,
  undo,
  updateLink,
} from "./hotspot-editor-state";
import { HotspotPanel } from "./hotspot-panel";
import { getLinks, getPages, getSuggestions, pdfKeys, putLinks, searchPages } from "./pdf-api";
import { type PdfRecord, publicUrl } from "./pdf-library-page";
import { PdfStatus } from "./pdf-status";

const BASE_WIDTH = 760;
const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];

const statusOf = (error: unknown) => (error as { response?: { status?: number } }).response?.status;

/**
 * `/pdf/pdfs/show/:id`: a catalogue's pages and its hotspot editor. Browse pages (thumbnails,
 * arrows, search in the text), zoom, draw/move/resize hotspots, set each one's action and
 * button, undo, save (refused with the other version loaded when someone saved in between),
 * copy hotspots to another page, and accept suggested Add Product hotspots where a product's
 * SKU is printed on the page. Another admin's saves show up live.
 */
export default function PdfViewerPage({ def }: ScreenProps) {
  const { id = "" } = useParams();
  const { token } = theme.useToken();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get("page")) || 1);
  const [zoom, setZoom] = useState(1);
  const [editor, setEditor] = useState<EditorState>(() => loaded([], 0));
  const [conflict, setConflict] = useState<PageLinks | null>(null);
  const [saving, setSaving] = useState(false);
  const [copying, setCopying] = useState(false);
  const [results, setResults] = useState<{ page: number; snippet: string }[] | null>(null);

  const { result: pdf, query: pdfQuery } = useOne<PdfRecord>({ resource: def.name, id });
  const pages = useQuery({ queryKey: pdfKeys.pages(id), queryFn: () => getPages(id) });
  const current = pages.data?.find((p) => p.page === page);
  const pageCount = pages.data?.length ?? pdf?.page_count ?? 0;
  const links = useQuery({
    queryKey: pdfKeys.links(id, page),
    queryFn: () => getLinks(id, page),
    enabled: Boolean(current),
  });
  const suggestions = useQuery({
    queryKey: pdfKeys.suggestions(id, page),
    queryFn: () => getSuggestions(id, page),
    enabled: Boolean(current),
  });

  // The server's links become the draft, unless the draft has changes of its own: then a
  // newer server version is offered (the banner), never merged or overwritten silently.
  const editorRef = useRef(editor);
  editorRef.current = editor;
  /** `page:revision` of the server links the draft was loaded from. */
  const loadedFrom = useRef("");
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page starts from its own links.
  useEffect(() => {
    loadedFrom.current = "";
    setEditor(loaded([], 0));
    setConflict(null);
  }, [page]);
  useEffect(() => {
    const server = links.data;
    if (!server) return;
    const key = `${page}:${server.revision}`;
    if (loadedFrom.current === key) return;
    if (editorRef.current.dirty && loadedFrom.current.startsWith(`${page}:`)) {
      setConflict(server);
      return;
    }
    loadedFrom.current = key;
    setEditor(loaded(server.links, server.revision));
    setConflict(null);
  }, [links.data, page]);

  useSubscription({
    channel: `resources/${def.name}`,
    types: ["updated"],
    onLiveEvent: (event) => {
      const ids = (event.payload as { ids?: string[] }).ids ?? [];
      if (!ids.includes(id)) return;
      void queryClient.invalidateQueries({ queryKey: ["pdfs", id] });
    },
  });

  const goTo = useCallback(
    (next: number) => {
      if (next < 1 || (pageCount && next > pageCount) || next === page) return;
      const go = () => setParams({ page: String(next) }, { replace: true });
      if (!editor.dirty) return go();
      modal.confirm({
        title: `Page ${page} has unsaved hotspots`,
        content: "Leave them and go to the other page?",
        okText: "Discard and go",
        okButtonProps: { danger: true },
        cancelText: "Stay",
        onOk: go,
      });
    },
    [editor.dirty, modal, page, pageCount, setParams],
  );

  const save = async (state: EditorState = editor) => {
    const incomplete = state.links.findIndex((l) => missingTarget(l));
    if (incomplete >= 0) {
      setEditor((s) => select(s, incomplete));
      message.warning(`Hotspot ${incomplete + 1}: ${missingTarget(state.links[incomplete])}`);
      return;
    }
    setSaving(true);
    try {
      const answer = await putLinks(id, page, { revision: state.revision, links: state.links });
      loadedFrom.current = `${page}:${answer.revision}`;
      setEditor((s) => saved(s, answer.links, answer.revision));
      queryClient.setQueryData(pdfKeys.links(id, page), answer);
      void queryClient.invalidateQueries({ queryKey: pdfKeys.suggestions(id, page) });
      message.success(`Hotspots of page ${page} saved`);
    } catch (error) {
      if (statusOf(error) === 409) {
        setConflict(await getLinks(id, page));
      } else message.error(getErrorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  const loadTheirs = () => {
    if (!conflict) return;
    loadedFrom.current = `${page}:${conflict.revision}`;
    setEditor(loaded(conflict.links, conflict.revision));
    queryClient.setQueryData(pdfKeys.links(id, page), conflict);
    setConflict(null);
  };

  const acceptSuggestion = (s: { productId: string } & Rect) => {
    const next = addLink(editor, { x: s.x, y: s.y, w: s.w, h: s.h }, "addProduct", {
      productId: s.productId,
    });
    setEditor(next);
    void save(next);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.target as HTMLElement).closest("input, textarea, [role=combobox], .ant-select")) return;
    const mod = event.ctrlKey || event.metaKey;
    if (mod && event.key.toLowerCase() === "z") {
      event.preventDefault();
      setEditor(undo);
    } else if (mod && event.key.toLowerCase() === "s") {
      event.preventDefault();
      void save();
    } else if ((event.key === "Delete" || event.key === "Backspace") && editor.selected !== null) {
      event.preventDefault();
      setEditor((s) => (s.selected === null ? s : removeLink(s, s.selected)));
    } else if (event.key === "Escape") setEditor((s) => select(s, null));
    else if (event.key === "PageDown" || (event.key === "ArrowRight" && editor.selected === null))
      goTo(page + 1);
    else if (event.key === "PageUp" || (event.key === "ArrowLeft" && editor.selected === null))
      goTo(page - 1);
  };

  useEffect(() => {
    if (!editor.dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [editor.dirty]);

  const selectedLink = editor.selected !== null ? editor.links[editor.selected] : undefined;
  const imageSrc = current
    ? ((zoom > 1.5 ? current.images.zoom : current.images.screen) ?? current.images.screen)
    : undefined;
  const suggestionRects = useMemo(() => suggestions.data ?? [], [suggestions.data]);

  if (pdfQuery.isError) {
    return <Empty description="This catalogue does not exist (any more)." style={{ padding: 64 }} />;
  }

  return (
    <Show
      resource={def.name}
      recordItemId={id}
      title={pdf?.name ?? "Catalogue"}
      canEdit={false}
      isLoading={pdfQuery.isLoading}
      headerButtons={
        pdf && (
          <Space wrap>
            <PdfStatus pdf={pdf} />
            <Button icon={<ExportOutlined />} href={publicUrl(pdf)} target="_blank" disabled={!pdf.pdfstatus}>
              Public page
            </Button>
          </Space>
        )
      }
    >
      {!pages.data?.length ? (
        pages.isLoading ? (
          <Skeleton active />
        ) : (
          <Empty
            style={{ padding: 48 }}
            description={
              pdf?.pdflist_status === "error"
                ? `This PDF could not be processed: ${pdf.error_message}`
                : "The pages appear here as soon as they are processed."
            }
          />
        )
      ) : (
        // biome-ignore lint/a11y/noStaticElementInteractions: the editor's keyboard shortcuts.
        <div onKeyDown={onKeyDown}>
          <Flex gap={16} align="flex-start">
            <Card
              size="small"
              title={`${pageCount} pages`}
              style={{ width: 150, flex: "none" }}
              styles={{ body: { padding: 8, maxHeight: "calc(100vh - 260px)", overflowY: "auto" } }}
            >
              <Flex vertical gap={8} component="nav" aria-label="Pages">
                {pages.data.map((p) => (
                  <button
                    key={p.page}
                    type="button"
                    aria-label={`Page ${p.page}`}
                    aria-current={p.page === page ? "page" : undefined}
                    onClick={() => goTo(p.page)}
                    style={{
                      border: `2px solid ${p.page === page ? token.colorPrimary : "transparent"}`,
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
                        style={{ width: "100%", display: "block" }}
                      />
                    ) : (
                      <Skeleton.Image active style={{ width: 110, height: 150 }} />
                    )}
                    <Typography.Text style={{ fontSize: 12 }}>{p.page}</Typography.Text>
                  </button>
                ))}
              </Flex>
            </Card>

            <Flex vertical gap={12} style={{ flex: 1, minWidth: 0 }}>
              <Flex justify="space-between" wrap gap={8}>
                <Space wrap>
                  <Button
                    icon={<LeftOutlined />}
                    aria-label="Previous page"
                    disabled={page <= 1}
                    onClick={() => goTo(page - 1)}
                  />
                  <InputNumber
                    aria-label="Page number"
                    min={1}
                    max={pageCount}
                    value={page}
                    onPressEnter={(e) => goTo(Number((e.target as HTMLInputElement).value))}
                    onStep={(v) => goTo(Number(v))}
                    addonAfter={`of ${pageCount}`}
                    style={{ width: 130 }}
                  />
                  <Button
                    icon={<RightOutlined />}
                    aria-label="Next page"
                    disabled={page >= pageCount}
                    onClick={() => goTo(page + 1)}
                  />
                  <Button
                    icon={<ZoomOutOutlined />}
                    aria-label="Zoom out"
                    disabled={zoom <= ZOOMS[0]}
                    onClick={() => setZoom(ZOOMS[Math.max(0, ZOOMS.indexOf(zoom) - 1)])}
                  />
                  <Typography.Text style={{ minWidth: 44, textAlign: "center" }}>
                    {Math.round(zoom * 100)}%
                  </Typography.Text>
                  <Button
                    icon={<ZoomInOutlined />}
                    aria-label="Zoom in"
                    disabled={zoom >= ZOOMS.at(-1)!}
                    onClick={() => setZoom(ZOOMS[Math.min(ZOOMS.length - 1, ZOOMS.indexOf(zoom) + 1)])}
                  />
                </Space>
                <Input.Search
                  allowClear
                  placeholder="Search the catalogue's text"
                  aria-label="Search the catalogue"
                  style={{ width: 260 }}
                  onSearch={async (q) => setResults(q.trim() ? await searchPages(id, q.trim()) : null)}
                />
              </Flex>
              {results && (
                <Card
                  size="small"
                  title={`${results.length} page${results.length === 1 ? "" : "s"} found`}
                  extra={
                    <Button size="small" type="text" onClick={() => setResults(null)}>
                      Close
                    </Button>
                  }
                >
                  {results.length ? (
                    <List
                      size="small"
                      dataSource={results}
                      renderItem={(r) => (
                        <List.Item>
                          <Button type="link" size="small" onClick={() => goTo(r.page)}>
                            Page {r.page}
                          </Button>
                          <Typography.Text type="secondary">{r.snippet}</Typography.Text>
                        </List.Item>
                      )}
                    />
                  ) : (
                    <Typography.Text type="secondary">No page has these words.</Typography.Text>
                  )}
                </Card>
              )}
              {conflict && (
                <Alert
                  type="warning"
                  showIcon
                  message="Someone else saved this page's hotspots"
                  description="Your changes are not saved. Load their version to go on from it (your changes on this page are dropped)."
                  action={
                    <Button size="small" onClick={loadTheirs}>
                      Load their version
                    </Button>
                  }
                />
              )}
              <div
                style={{
                  overflow: "auto",
                  maxHeight: "calc(100vh - 300px)",
                  padding: 20,
                  background: token.colorFillQuaternary,
                  borderRadius: token.borderRadiusLG,
                }}
              >
                {current && imageSrc ? (
                  <HotspotCanvas
                    src={imageSrc}
                    width={current.width}
                    height={current.height}
                    displayWidth={BASE_WIDTH * zoom}
                    links={editor.links}
                    selected={editor.selected}
                    suggestions={suggestionRects}
                    editable
                    onSelect={(i) => setEditor((s) => select(s, i))}
                    onDraw={(rect) => setEditor((s) => addLink(s, rect))}
                    onChange={(i, rect) => setEditor((s) => updateLink(s, i, rect))}
                  />
                ) : (
                  <Skeleton.Image
                    active
                    style={{ width: BASE_WIDTH * zoom, height: BASE_WIDTH * zoom * 1.41 }}
                  />
                )}
              </div>
            </Flex>

            <Card
              size="small"
              style={{ width: 320, flex: "none" }}
              title={`Hotspots of page ${page}`}
              extra={
                <Space size={4}>
                  <Tooltip title="Undo (Ctrl+Z)">
                    <Button
                      size="small"
                      icon={<UndoOutlined />}
                      aria-label="Undo"
                      disabled={!editor.history.length}
                      onClick={() => setEditor(undo)}
                    />
                  </Tooltip>
                  <Tooltip title="Copy to another page">
                    <Button
                      size="small"
                      icon={<CopyOutlined />}
                      aria-label="Copy hotspots to another page"
                      disabled={!editor.links.length}
                      onClick={() => setCopying(true)}
                    />
                  </Tooltip>
                  <Button
                    size="small"
                    type="primary"
                    icon={<SaveOutlined />}
                    loading={saving}
                    disabled={!editor.dirty}
                    onClick={() => void save()}
                  >
                    Save
                  </Button>
                </Space>
              }
            >
              <Flex vertical gap={12}>
                {editor.dirty && <Typography.Text type="warning">Unsaved changes</Typography.Text>}
                {selectedLink && editor.selected !== null ? (
                  <HotspotPanel
                    link={selectedLink}
                    index={editor.selected}
                    pageCount={pageCount}
                    onChange={(patch) =>
                      setEditor((s) => (s.selected === null ? s : updateLink(s, s.selected, patch)))
                    }
                    onRemove={() => setEditor((s) => (s.selected === null ? s : removeLink(s, s.selected)))}
                  />
                ) : (
                  <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
                    {editor.links.length
                      ? `${editor.links.length} hotspot${editor.links.length === 1 ? "" : "s"}. Select one to change it, or drag on the page to draw another.`
                      : "Drag on the page to draw a hotspot."}
                  </Typography.Paragraph>
                )}
                {suggestionRects.length > 0 && (
                  <Card
                    size="small"
                    type="inner"
                    title={
                      <span>
                        <BulbOutlined /> Suggested
                      </span>
                    }
                  >
                    <List
                      size="small"
                      dataSource={suggestionRects}
                      renderItem={(s) => (
                        <List.Item
                          actions={[
                            <Button
                              key="add"
                              size="small"
                              onClick={() => acceptSuggestion(s)}
                              aria-label={`Add a hotspot for ${s.skuCode}`}
                            >
                              Add
                            </Button>,
                          ]}
                        >
                          <List.Item.Meta
                            title={s.productName}
                            description={`SKU ${s.skuCode} is on this page`}
                          />
                        </List.Item>
                      )}
                    />
                  </Card>
                )}
              </Flex>
            </Card>
          </Flex>
          <CopyDialog
            open={copying}
            page={page}
            pageCount={pageCount}
            hasSelection={editor.selected !== null}
            onClose={() => setCopying(false)}
            onCopy={async (to, which) => {
              const chosen =
                which === "selected" && editor.selected !== null
                  ? [editor.links[editor.selected]]
                  : editor.links;
              const there = await getLinks(id, to);
              const answer = await putLinks(id, to, {
                revision: there.revision,
                links: [...there.links, ...copiedLinks(chosen)],
              });
              queryClient.setQueryData(pdfKeys.links(id, to), answer);
              message.success(
                `${chosen.length} hotspot${chosen.length === 1 ? "" : "s"} copied to page ${to}`,
              );
              setCopying(false);
            }}
          />
        </div>
      )}
    </Show>
  );
}

function CopyDialog(props: {
  open: boolean;
  page: number;
  pageCount: number;
  hasSelection: boolean;
  onClose: () => void;
  onCopy: (to: number, which: "all" | "selected") => Promise<void>;
}) {
  const { message } = App.useApp();
  const [to, setTo] = useState<number | null>(null);
  const [which, setWhich] = useState<"all" | "selected">("all");
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      title="Copy hotspots to another page"
      open={props.open}
      onCancel={props.onClose}
      okText="Copy"
      okButtonProps={{ disabled: !to || to === props.page, loading: busy }}
      destroyOnHidden
      onOk={async () => {
        if (!to) return;
        setBusy(true);
        try {
          await props.onCopy(to, which);
        } catch (error) {
          message.error(getErrorMessage(error));
        } finally {
          setBusy(false);
        }
      }}
    >
      <Flex vertical gap={12}>
        <Radio.Group value={which} onChange={(e) => setWhich(e.target.value)}>
          <Radio value="all">All hotspots of page {props.page}</Radio>
          <Radio value="selected" disabled={!props.hasSelection}>
            The selected hotspot
          </Radio>
        </Radio.Group>
        <InputNumber
          aria-label="Copy to page"
          placeholder="Page"
          min={1}
          max={props.pageCount}
          value={to}
          onChange={(v) => setTo(v)}
          addonBefore="To page"
        />
        <Typography.Text type="secondary">
          They are added beside the hotspots that page already has.
        </Typography.Text>
      </Flex>
    </Modal>
  );
}
