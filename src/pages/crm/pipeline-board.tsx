/**
 * The pipeline board (issue 16): open opportunities as columns by stage, filtered by search,
 * owner and expected close; cards dragged within and between columns (mouse or keyboard) or
 * onto Won and Lost, which ask for a note and a reason. Moves show at once and another user's
 * show live (use-board.ts); columns are virtualised, so thousands of cards stay smooth.
 * Loaded on its own (dnd-kit and the virtualiser come with it) by the CRM page.
 */
import { DndContext } from "@dnd-kit/core";
import { useGetIdentity } from "@refinedev/core";
import { useCallback, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { resourceByName } from "../../../resources";
import type { MeResponse } from "../../../schemas/auth";
import type { BoardCard, BoardColumn as Column } from "../../../schemas/crm-board";
import { LoadError } from "../../components/load-error";
import { PageLoader } from "../../components/page-loader";
import { useFillHeight } from "../../hooks/use-fill-height";
import { loadFailed } from "../../lib/load-failure";
import { recordPath } from "../../resources/routes";
import { AddOpportunityDialog } from "./add-opportunity-dialog";
import type { BoardFilters, Closing } from "./board-api";
import { CARD_HEIGHT, CardBody } from "./board-card";
import { BoardColumn } from "./board-column";
import type { DropTarget } from "./board-state";
import { type BoardFilterValues, BoardToolbar, OWNER_ME } from "./board-toolbar";
import { BoardZones, type Outcome } from "./board-zones";
import { CloseDialog } from "./close-dialog";
import { useBoard } from "./use-board";
import { useBoardDrag } from "./use-board-drag";
import "./pipeline-board.css";

/** Room under the board (the page's bottom padding); below the minimum the window scrolls instead. */
const BOARD_BOTTOM = 24;
const MIN_BOARD_HEIGHT = 420;

const FILTER_KEYS = ["q", "owner", "from", "to"] as const;

const opportunities = resourceByName("opportunities");
const hrefOf = (id: string) => (opportunities ? recordPath(opportunities, "show", id) : "#");

/** Today in the reader's calendar, `YYYY-MM-DD`. */
function localToday(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

export default function PipelineBoard() {
  const [params, setParams] = useSearchParams();
  const values = useMemo<BoardFilterValues>(
    () => Object.fromEntries(FILTER_KEYS.map((k) => [k, params.get(k) || undefined])),
    [params],
  );
  const setValues = useCallback(
    (next: BoardFilterValues) =>
      setParams(
        (current) => {
          const out = new URLSearchParams(current);
          for (const k of FILTER_KEYS) {
            const v = next[k];
            if (v) out.set(k, v);
            else out.delete(k);
          }
          return out;
        },
        { replace: true },
      ),
    [setParams],
  );
  const { data: me } = useGetIdentity<MeResponse>();
  const filters = useMemo<BoardFilters>(
    () => ({ ...values, owner: values.owner === OWNER_ME ? me?.userID : values.owner }),
    [values, me?.userID],
  );
  const waitingForMe = values.owner === OWNER_ME && !me;

  const { query, board, move, close, refresh, setDragging } = useBoard(filters, !waitingForMe);
  const [closing, setClosing] = useState<{ card: BoardCard; outcome: Outcome } | null>(null);
  const [adding, setAdding] = useState<Column | null>(null);

  const onDrop = useCallback(
    (card: BoardCard, target: DropTarget) => {
      if (target.kind === "column") void move(card.id, target.stage, target.index);
      else setClosing({ card, outcome: target.kind });
    },
    [move],
  );
  const root = useRef<HTMLDivElement>(null);
  const drag = useBoardDrag({ board, root, onDrop, onDragging: setDragging });
  const height = useFillHeight(root, BOARD_BOTTOM, MIN_BOARD_HEIGHT);

  const owners = useMemo(() => {
    const map = new Map((board?.owners ?? []).map((o) => [o.id, o.name]));
    if (me) map.set(me.userID, `${me.first_name} ${me.last_name}`.trim());
    return map;
  }, [board?.owners, me]);
  const today = localToday();
  const onAdd = useCallback(
    (stage: string) => setAdding(board?.columns.find((c) => c.stage === stage) ?? null),
    [board?.columns],
  );
  const confirmClose = useCallback(
    async (card: BoardCard, body: Closing) => {
      await close(card.id, body);
      setClosing(null);
    },
    [close],
  );

  const toolbar = (
    <BoardToolbar
      values={values}
      onChange={setValues}
      owners={board?.owners ?? []}
      columns={board?.columns ?? []}
      truncated={board?.truncated ?? false}
    />
  );
  if (loadFailed(query) && !board)
    return (
      <>
        {toolbar}
        <LoadError what="pipeline board" error={query.error} onRetry={() => query.refetch()} />
      </>
    );

  const { active, target } = drag;
  const classes = ["pb-board"];
  if (active) classes.push(active.keyboard ? "pb-board--keyboard" : "pb-board--pointer");
  return (
    <>
      {toolbar}
      <DndContext {...drag.dndProps}>
        <div ref={root} className={classes.join(" ")} style={{ height }} data-testid="pipeline-board">
          {!board ? (
            <PageLoader />
          ) : (
            <>
              <div className="pb-columns" aria-busy={query.isFetching}>
                {board.columns.map((column) => {
                  const cards = board.cards[column.stage] ?? [];
                  const dragged =
                    active && active.card.stage === column.stage
                      ? cards.findIndex((c) => c.id === active.card.id)
                      : -1;
                  return (
                    <BoardColumn
                      key={column.stage}
                      column={column}
                      cards={cards}
                      draggedIndex={dragged >= 0 ? dragged : null}
                      dropIndex={
                        target?.kind === "column" && target.stage === column.stage ? target.index : null
                      }
                      owners={owners}
                      hrefOf={hrefOf}
                      today={today}
                      onAdd={onAdd}
                      register={drag.register}
                    />
                  );
                })}
              </div>
              <BoardZones
                over={target && target.kind !== "column" ? target.kind : null}
                dragging={Boolean(active)}
              />
            </>
          )}
        </div>
        {active && !active.keyboard && (
          <div
            ref={drag.ghost}
            className="pb-card pb-card--ghost"
            style={{ ...drag.ghostStyle(), height: CARD_HEIGHT }}
            aria-hidden
          >
            <CardBody
              card={active.card}
              owner={active.card.owner_id ? owners.get(active.card.owner_id) : undefined}
              href={hrefOf(active.card.id)}
              today={today}
            />
          </div>
        )}
      </DndContext>
      <div className="pb-sr-only" aria-live="assertive" aria-atomic>
        {drag.spoken}
      </div>
      <CloseDialog closing={closing} onCancel={() => setClosing(null)} onConfirm={confirmClose} />
      <AddOpportunityDialog
        column={adding}
        owners={board?.owners ?? []}
        onClose={() => setAdding(null)}
        onCreated={(id) => void refresh([id])}
      />
    </>
  );
}
