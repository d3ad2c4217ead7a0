import { useOne, useSubscription } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { getLinks, getPages, getSuggestions, pdfKeys } from "./pdf-api";
import type { PdfRecord } from "./pdf-library-page";

/**
 * What the hotspot editor reads from the server for one page of a catalogue: the catalogue,
 * its pages, this page's links and suggested hotspots. Another admin's save (a live
 * `updated` event of this catalogue) refreshes them.
 */
export function usePdfEditorData(resource: string, id: string, page: number) {
  const queryClient = useQueryClient();
  const { result: pdf, query: pdfQuery } = useOne<PdfRecord>({ resource, id });
  const pages = useQuery({ queryKey: pdfKeys.pages(id), queryFn: () => getPages(id) });
  const current = pages.data?.find((p) => p.page === page);
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

  useSubscription({
    channel: `resources/${resource}`,
    types: ["updated"],
    onLiveEvent: (event) => {
      const ids = (event.payload as { ids?: string[] }).ids ?? [];
      if (!ids.includes(id)) return;
      void queryClient.invalidateQueries({ queryKey: ["pdfs", id] });
    },
  });

  return {
    pdf,
    pdfQuery,
    pages,
    current,
    pageCount: pages.data?.length ?? pdf?.page_count ?? 0,
    links,
    suggestions,
  };
}
