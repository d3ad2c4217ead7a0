import { ExportOutlined } from "@ant-design/icons";
import { Show } from "@refinedev/antd";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Empty, Flex, Skeleton, Space } from "antd";
import { useCallback, useMemo, useRef, useState } from "react";
import { useParams, useSearchParams } from "react-router";
import { LoadError } from "../../components/load-error";
import { useFillHeight } from "../../hooks/use-fill-height";
import type { ScreenProps } from "../../resources/types";
import { CopyDialog } from "./copy-dialog";
import { COLUMN_GAP, THUMBNAILS_WIDTH } from "./editor-layout";
import { EditorToolbar } from "./editor-toolbar";
import { addLink, copiedLinks, removeLink, select, undo, updateLink } from "./hotspot-editor-state";
import { HotspotSidebar } from "./hotspot-sidebar";
import { PageSearchInput, type SearchHit, SearchResults } from "./page-search";
import { PageThumbnails } from "./page-thumbnails";
import { PageViewport } from "./page-viewport";
import { getLinks, pdfKeys, putLinks } from "./pdf-api";
import { publicUrl } from "./pdf-library-page";
import { PdfStatus } from "./pdf-status";
import { useEditorKeys } from "./use-editor-keys";
import { useHotspotDraft } from "./use-hotspot-draft";
import { usePdfEditorData } from "./use-pdf-editor-data";
import { useZoom } from "./use-zoom";

/** Below this the editor stops shrinking and the window scrolls instead. */
const MIN_EDITOR_HEIGHT = 420;
/** Room kept under the editor: the content's and the card's bottom padding. */
const EDITOR_BOTTOM = 40;

/**
 * `/pdf/pdfs/show/:id`: a catalogue's pages and its hotspot editor. Browse pages (thumbnails,
 * arrows, search in the text), zoom (fit width by default, fit page, steps, Ctrl+wheel),
 * draw/move/resize hotspots, set each one's action and button, undo, save (refused with the
 * other version loaded when someone saved in between), copy hotspots to another page, and
 * accept suggested Add Product hotspots where a product's SKU is printed on the page.
 * Another admin's saves show up live.
 */
export default function PdfViewerPage({ def }: ScreenProps) {
  const { id = "" } = useParams();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get("page")) || 1);
  const [copying, setCopying] = useState(false);
  const [hits, setHits] = useState<SearchHit[] | null>(null);

  const data = usePdfEditorData(def.name, id, page);
  const { pdf, pdfQuery, pages, current, pageCount } = data;
  const draft = useHotspotDraft(id, page, data.links.data);
  const { editor, setEditor } = draft;
  const suggestions = useMemo(() => data.suggestions.data ?? [], [data.suggestions.data]);

  const root = useRef<HTMLDivElement>(null);
  const height = useFillHeight(root, EDITOR_BOTTOM, MIN_EDITOR_HEIGHT);
  const viewport = useRef<HTMLElement>(null);
  const [pageWidth, pageHeight] = [current?.width, current?.height];
  const pageSize = useMemo(
    () => (pageWidth && pageHeight ? { width: pageWidth, height: pageHeight } : null),
    [pageWidth, pageHeight],
  );
  const zoom = useZoom(viewport, pageSize);

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

  useEditorKeys(root, {
    undo: () => setEditor(undo),
    save: () => void draft.save(),
    removeSelected: () => {
      if (editor.selected === null) return false;
      setEditor((s) => (s.selected === null ? s : removeLink(s, s.selected)));
      return true;
    },
    deselect: () => setEditor((s) => select(s, null)),
    hasSelection: () => editor.selected !== null,
    nextPage: () => goTo(page + 1),
    previousPage: () => goTo(page - 1),
    zoomIn: () => zoom.step(1),
    zoomOut: () => zoom.step(-1),
    fitWidth: zoom.fitWidth,
  });

  const copyTo = async (to: number, which: "all" | "selected") => {
    const chosen =
      which === "selected" && editor.selected !== null ? [editor.links[editor.selected]] : editor.links;
    const there = await getLinks(id, to);
    const answer = await putLinks(id, to, {
      revision: there.revision,
      links: [...there.links, ...copiedLinks(chosen)],
    });
    queryClient.setQueryData(pdfKeys.links(id, to), answer);
    message.success(`${chosen.length} hotspot${chosen.length === 1 ? "" : "s"} copied to page ${to}`);
    setCopying(false);
  };

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
      contentProps={{ styles: { body: { padding: 16 } } }}
      headerButtons={
        pdf && (
          <Space wrap>
            <PdfStatus pdf={pdf} />
            {Boolean(pages.data?.length) && <PageSearchInput id={id} onResults={setHits} />}
            <Button icon={<ExportOutlined />} href={publicUrl(pdf)} target="_blank" disabled={!pdf.pdfstatus}>
              Public page
            </Button>
          </Space>
        )
      }
    >
      {!pages.data?.length ? (
        pages.isError ? (
          <LoadError what="catalogue's pages" error={pages.error} onRetry={() => pages.refetch()} />
        ) : pages.isLoading ? (
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
        <div ref={root} style={{ height }}>
          <Flex gap={COLUMN_GAP} align="stretch" style={{ height: "100%" }}>
            <PageThumbnails pages={pages.data} page={page} width={THUMBNAILS_WIDTH} onGo={goTo} />
            <Flex vertical gap={8} style={{ flex: 1, minWidth: 0 }}>
              <EditorToolbar page={page} pageCount={pageCount} onGo={goTo} zoom={zoom} />
              {hits && <SearchResults hits={hits} onGo={goTo} onClose={() => setHits(null)} />}
              {draft.conflict && (
                <Alert
                  type="warning"
                  showIcon
                  message="Someone else saved this page's hotspots"
                  description="Your changes are not saved. Load their version to go on from it (your changes on this page are dropped)."
                  action={
                    <Button size="small" onClick={draft.loadTheirs}>
                      Load their version
                    </Button>
                  }
                />
              )}
              <PageViewport
                viewport={viewport}
                page={current}
                zoom={zoom}
                editor={editor}
                suggestions={suggestions}
                onSelect={(i) => setEditor((s) => select(s, i))}
                onDraw={(rect) => setEditor((s) => addLink(s, rect))}
                onChange={(i, rect) => setEditor((s) => updateLink(s, i, rect))}
              />
            </Flex>
            <HotspotSidebar
              page={page}
              pageCount={pageCount}
              editor={editor}
              setEditor={setEditor}
              saving={draft.saving}
              onSave={() => void draft.save()}
              onUndo={() => setEditor(undo)}
              onCopy={() => setCopying(true)}
              suggestions={suggestions}
              onAccept={draft.acceptSuggestion}
            />
          </Flex>
          <CopyDialog
            open={copying}
            page={page}
            pageCount={pageCount}
            hasSelection={editor.selected !== null}
            onClose={() => setCopying(false)}
            onCopy={copyTo}
          />
        </div>
      )}
    </Show>
  );
}
