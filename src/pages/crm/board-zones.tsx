/**
 * The Won and Lost places under the columns: drop a card on one to close it (a dialog asks for
 * a note, and for Lost, the reason). Always in view, so the keyboard's way there (right of the
 * last column) and the pointer's are the same places.
 */
import { CloseCircleOutlined, TrophyOutlined } from "@ant-design/icons";
import { useDroppable } from "@dnd-kit/core";

export type Outcome = "won" | "lost";

const WORDS: Readonly<Record<Outcome, { title: string; hint: string }>> = {
  won: { title: "Won", hint: "Drop here to mark as won" },
  lost: { title: "Lost", hint: "Drop here to mark as lost" },
};

function Zone({ outcome, active, dragging }: { outcome: Outcome; active: boolean; dragging: boolean }) {
  const { setNodeRef } = useDroppable({ id: `zone:${outcome}` });
  const classes = ["pb-zone", `pb-zone--${outcome}`];
  if (dragging) classes.push("pb-zone--ready");
  if (active) classes.push("pb-zone--over");
  return (
    <div ref={setNodeRef} className={classes.join(" ")} data-zone={outcome}>
      {outcome === "won" ? <TrophyOutlined aria-hidden /> : <CloseCircleOutlined aria-hidden />}
      <strong>{WORDS[outcome].title}</strong>
      <span className="pb-zone-hint">{WORDS[outcome].hint}</span>
    </div>
  );
}

export function BoardZones({ over, dragging }: { over: Outcome | null; dragging: boolean }) {
  return (
    <div className="pb-zones">
      <Zone outcome="won" active={over === "won"} dragging={dragging} />
      <Zone outcome="lost" active={over === "lost"} dragging={dragging} />
    </div>
  );
}
