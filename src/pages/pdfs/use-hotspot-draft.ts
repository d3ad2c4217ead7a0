import { useQueryClient } from "@tanstack/react-query";
import { App } from "antd";
import { useEffect, useRef, useState } from "react";
import type { PageLinks } from "../../../schemas/pdf-library";
import { getErrorMessage } from "../../lib/errors";
import {
  addLink,
  type EditorState,
  loaded,
  missingTarget,
  type Rect,
  saved,
  select,
} from "./hotspot-editor-state";
import { getLinks, pdfKeys, putLinks } from "./pdf-api";

const statusOf = (error: unknown) => (error as { response?: { status?: number } }).response?.status;

/**
 * A page's hotspots being edited: the draft (from the server's links), saving it with the
 * revision it started from, and the banner's other version when someone saved in between —
 * offered, never merged or overwritten silently. Leaving the browser tab with unsaved
 * changes asks first.
 */
export function useHotspotDraft(id: string, page: number, server: PageLinks | undefined) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [editor, setEditor] = useState<EditorState>(() => loaded([], 0));
  const [conflict, setConflict] = useState<PageLinks | null>(null);
  const [saving, setSaving] = useState(false);

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
  }, [server, page]);

  useEffect(() => {
    if (!editor.dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [editor.dirty]);

  const save = async (state: EditorState = editorRef.current) => {
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

  /** A suggested Add Product hotspot, added and saved in one click. */
  const acceptSuggestion = (s: { productId: string } & Rect) => {
    const next = addLink(editorRef.current, { x: s.x, y: s.y, w: s.w, h: s.h }, "addProduct", {
      productId: s.productId,
    });
    setEditor(next);
    void save(next);
  };

  return { editor, setEditor, conflict, saving, save, loadTheirs, acceptSuggestion };
}
