/**
 * The pipeline board's data: loaded once for the filters, then kept current card by card. A
 * move or a close shows at once and is then confirmed by the server (or undone, with the
 * reason, when refused); another user's change comes as a live `opportunities` event and only
 * the changed cards are read again (with the columns' figures). While a card is being dragged,
 * changes wait, so the columns do not shift under the pointer.
 */
import { useSubscription } from "@refinedev/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App } from "antd";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { getErrorMessage } from "../../lib/errors";
import {
  type BoardFilters,
  boardKeys,
  type Closing,
  closeOpportunity,
  getBoard,
  moveOpportunity,
} from "./board-api";
import {
  type BoardState,
  findCard,
  isSamePlace,
  mergeCards,
  moveCard,
  neighboursAt,
  removeCard,
  toBoardState,
} from "./board-state";

/** Changed cards read again in one request at most; more, and the whole board is. */
const MAX_REFRESH_IDS = 200;
/** Live events within this time are read in one request. */
const LIVE_BATCH_MS = 150;

export function useBoard(filters: BoardFilters, enabled = true) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const key = useMemo(() => boardKeys.board(filters), [filters]);
  const query = useQuery({
    queryKey: key,
    queryFn: async () => toBoardState(await getBoard(filters)),
    staleTime: 30_000,
    enabled,
  });

  const pending = useRef(new Set<string>());
  const waiting = useRef(new Set<string>());
  const dragging = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const filtersRef = useRef(filters);
  filtersRef.current = filters;

  const update = useCallback(
    (change: (state: BoardState) => BoardState) =>
      queryClient.setQueryData<BoardState>(key, (state) => (state ? change(state) : state)),
    [queryClient, key],
  );

  /** Reads these cards (and every column's figures) again and merges them in. */
  const refresh = useCallback(
    async (ids: string[]) => {
      if (!ids.length) return;
      if (ids.length > MAX_REFRESH_IDS) {
        await queryClient.invalidateQueries({ queryKey: key });
        return;
      }
      try {
        const fresh = await getBoard({ ...filtersRef.current, ids });
        update((state) => mergeCards(state, fresh, ids, pending.current));
      } catch {
        // The next change or a reload will bring the board up to date; nothing the user did failed.
      }
    },
    [queryClient, key, update],
  );

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    if (dragging.current) return;
    const ids = [...waiting.current];
    waiting.current.clear();
    void refresh(ids);
  }, [refresh]);

  useEffect(() => () => clearTimeout(timer.current), []);

  useSubscription({
    channel: "resources/opportunities",
    types: ["created", "updated", "deleted"],
    onLiveEvent: (event) => {
      for (const id of (event.payload as { ids?: unknown[] }).ids ?? []) waiting.current.add(String(id));
      clearTimeout(timer.current);
      timer.current = setTimeout(flush, LIVE_BATCH_MS);
    },
  });
  // A stage renamed, added or reordered changes the columns: read the board again.
  useSubscription({
    channel: "resources/dropdowns",
    types: ["created", "updated", "deleted"],
    onLiveEvent: () => void queryClient.invalidateQueries({ queryKey: boardKeys.all }),
  });

  const setDragging = useCallback(
    (on: boolean) => {
      dragging.current = on;
      if (!on && waiting.current.size) flush();
    },
    [flush],
  );

  /** Runs a change of one card: shown at once, confirmed by the server, undone when refused. */
  const change = useCallback(
    async (id: string, local: (state: BoardState) => BoardState, remote: () => Promise<unknown>) => {
      const before = queryClient.getQueryData<BoardState>(key);
      pending.current.add(id);
      update(local);
      try {
        await remote();
        pending.current.delete(id);
        await refresh([id]);
        return true;
      } catch (error) {
        pending.current.delete(id);
        if (before) queryClient.setQueryData(key, before);
        void refresh([id]);
        throw error;
      }
    },
    [queryClient, key, update, refresh],
  );

  /** Moves a card to `index` among the other cards of `stage`. */
  const move = useCallback(
    async (id: string, stage: string, index: number) => {
      const state = queryClient.getQueryData<BoardState>(key);
      const card = state && findCard(state, id);
      if (!state || !card || isSamePlace(state, card, stage, index)) return;
      const target = { stage, ...neighboursAt(state, id, stage, index) };
      try {
        await change(
          id,
          (s) => moveCard(s, id, stage, index),
          () => moveOpportunity(id, target),
        );
      } catch (error) {
        message.error(`“${card.title}” was not moved: ${getErrorMessage(error)}`);
      }
    },
    [queryClient, key, change, message],
  );

  /**
   * Closes a card as won or lost; rejects with the server's answer, which the dialog shows at
   * its field. Not shown before the server agrees: a lost card needs a reason it may refuse.
   */
  const close = useCallback(
    async (id: string, closing: Closing) => {
      await closeOpportunity(id, closing);
      update((s) => removeCard(s, id));
      await refresh([id]);
    },
    [update, refresh],
  );

  return { query, board: query.data, move, close, refresh, setDragging };
}
