/**
 * The builder's canvas: the form's fields as a sortable list of cards, and below them the
 * place where a field dropped from the palette goes at the end (the whole canvas while the
 * form is empty).
 */
import { PlusOutlined } from "@ant-design/icons";
import { useDroppable } from "@dnd-kit/core";
import { SortableContext, verticalListSortingStrategy } from "@dnd-kit/sortable";
import type { FormFieldDef } from "../../../schemas/form-definition";
import { pageOfFields } from "../../../schemas/form-pages";
import { CANVAS_END } from "./builder-dnd";
import { type DropHint, FieldCard } from "./field-card";

/** Where a field dragged from the palette would go: before the field at `index` (or at the end). */
export interface DropPlace {
  index: number;
}

interface FieldCanvasProps {
  items: readonly FormFieldDef[];
  selected: number | null;
  problems: Readonly<Record<string, readonly string[]>>;
  drop: DropPlace | null;
  /** A kind is being dragged from the palette. */
  adding: boolean;
  onSelect: (index: number) => void;
  onDelete: (index: number) => void;
}

function EndZone({ empty, active }: { empty: boolean; active: boolean }) {
  const { setNodeRef, isOver } = useDroppable({ id: CANVAS_END });
  const classes = ["fb-end"];
  if (empty) classes.push("fb-end--empty");
  if (active && isOver) classes.push("fb-end--over");
  return (
    <div ref={setNodeRef} className={classes.join(" ")} data-testid="canvas-end">
      <PlusOutlined aria-hidden />
      <span>{empty ? "Drag a field here or click one in the palette" : "Drop here to add at the end"}</span>
    </div>
  );
}

export function FieldCanvas({
  items,
  selected,
  problems,
  drop,
  adding,
  onSelect,
  onDelete,
}: FieldCanvasProps) {
  const ids = items.map((f) => f.id);
  const pageOf = pageOfFields(items);
  const dependentsOf = (id: string) =>
    items.filter((f) => f.logic?.some((r) => r.conditions.some((c) => c.field === id))).map((f) => f.label);
  const hint = (index: number): DropHint => {
    if (!adding || !drop) return null;
    if (drop.index === index) return "before";
    return drop.index === items.length && index === items.length - 1 ? "after" : null;
  };
  return (
    <section className="fb-canvas" aria-label="Form fields">
      {items.length > 0 && (
        <SortableContext items={ids} strategy={verticalListSortingStrategy}>
          <ul className="fb-list">
            {items.map((field, index) => (
              <FieldCard
                key={field.id}
                field={field}
                index={index}
                count={items.length}
                selected={selected === index}
                problems={problems[field.id] ?? []}
                dependents={dependentsOf(field.id)}
                dropHint={hint(index)}
                onSelect={() => onSelect(index)}
                onDelete={() => onDelete(index)}
                pageNumber={field.kind === "page" ? (pageOf.get(field.id) ?? 0) + 1 : undefined}
              />
            ))}
          </ul>
        </SortableContext>
      )}
      <EndZone empty={items.length === 0} active={adding} />
    </section>
  );
}
