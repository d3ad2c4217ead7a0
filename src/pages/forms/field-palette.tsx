/**
 * The builder's palette: every field kind, grouped. Drag one onto the canvas to put it at a
 * place (mouse, touch, or the keyboard: Space to lift, arrows to choose the place, Space to
 * drop), or click it / press Enter on it to add it at the end.
 */
import { useDraggable } from "@dnd-kit/core";
import { Typography } from "antd";
import type { KeyboardEvent } from "react";
import { FORM_FIELD_LABELS, type FormFieldKind } from "../../../schemas/forms";
import { paletteId } from "./builder-dnd";
import { FieldKindIcon } from "./field-kind-icons";
import { PALETTE_GROUPS } from "./field-rules";

function PaletteItem({ kind, onAdd }: { kind: FormFieldKind; onAdd: (kind: FormFieldKind) => void }) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: paletteId(kind) });
  const label = FORM_FIELD_LABELS[kind];
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Enter adds at the end; Space (the keyboard sensor's key) lifts it to drag.
    if (event.key === "Enter") {
      event.preventDefault();
      onAdd(kind);
      return;
    }
    listeners?.onKeyDown?.(event);
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a <button> would also add the field on the Space that lifts it to drag.
    <div
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      role="button"
      tabIndex={0}
      onKeyDown={onKeyDown}
      onClick={() => onAdd(kind)}
      aria-label={`Add ${label}`}
      className={`fb-palette-item${isDragging ? " fb-palette-item--dragging" : ""}`}
      data-testid={`palette-${kind}`}
    >
      <span className="fb-palette-icon">
        <FieldKindIcon kind={kind} />
      </span>
      <span>{label}</span>
    </div>
  );
}

export function FieldPalette({ onAdd }: { onAdd: (kind: FormFieldKind) => void }) {
  return (
    <nav aria-label="Field kinds" className="fb-palette">
      {PALETTE_GROUPS.map((group) => (
        <section key={group.title} aria-label={group.title}>
          <Typography.Text type="secondary" className="fb-palette-title">
            {group.title}
          </Typography.Text>
          {group.kinds.map((kind) => (
            <PaletteItem key={kind} kind={kind} onAdd={onAdd} />
          ))}
        </section>
      ))}
    </nav>
  );
}

/** What follows the pointer while a kind is dragged from the palette. */
export function PaletteGhost({ kind }: { kind: FormFieldKind }) {
  return (
    <div className="fb-palette-item fb-palette-ghost">
      <span className="fb-palette-icon">
        <FieldKindIcon kind={kind} />
      </span>
      <span>{FORM_FIELD_LABELS[kind]}</span>
    </div>
  );
}
