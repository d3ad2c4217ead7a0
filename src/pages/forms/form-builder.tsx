/**
 * The Build tab: the palette, the canvas of field cards and, on the right, the selected field's
 * properties or the live preview. Every change goes through the builder's reducer (spec §4).
 * Loaded on its own (dnd-kit and the public renderer come with it), when the tab first shows.
 */
import { EditOutlined, EyeOutlined } from "@ant-design/icons";
import {
  DndContext,
  type DragEndEvent,
  type DragMoveEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { arrayMove } from "@dnd-kit/sortable";
import { Alert, App, Empty, Segmented, Spin } from "antd";
import { lazy, Suspense, useMemo, useRef, useState } from "react";
import type { FormFieldDef } from "../../../schemas/form-definition";
import type { FormFieldKind } from "../../../schemas/forms";
import { useFillHeight } from "../../hooks/use-fill-height";
import {
  builderCollisions,
  builderKeyboardCoordinates,
  dropIndex,
  inLowerHalf,
  paletteKind,
} from "./builder-dnd";
import { FieldCanvas } from "./field-canvas";
import { FieldPalette, PaletteGhost } from "./field-palette";
import { cleanField, createField, fieldProblems, followLabel } from "./field-rules";
import { PropertyPanel } from "./property-panel";
import { renameInSettings } from "./settings-rules";
import type { FormDraft } from "./use-form-draft";

const FormPreview = lazy(() => import("./form-preview"));

export interface FormBuilderProps {
  draft: FormDraft;
  name: string;
  slug: string;
  /** Whether a field's id is fixed (the published form has it). */
  idLocked: (id: string) => boolean;
}

type Pane = "properties" | "preview";

/** Room kept under the builder: the card's and the content's bottom padding. */
const BUILDER_BOTTOM = 40;
/** Below this the builder stops shrinking and the window scrolls instead. */
const MIN_BUILDER_HEIGHT = 480;

const INSTRUCTIONS =
  "Press Space to pick up, the arrow keys to move, Space again to drop, Escape to cancel. On a field kind, Enter adds it at the end.";

export default function FormBuilder({ draft, name, slug, idLocked }: FormBuilderProps) {
  const { modal } = App.useApp();
  const { state, dispatch, errors, problems, settings, setSettings, clearFieldErrors } = draft;
  const { items, selected, properties, edited } = state;
  const [pane, setPane] = useState<Pane>("properties");
  const [dragKind, setDragKind] = useState<FormFieldKind | null>(null);
  const [drop, setDrop] = useState<number | null>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: builderKeyboardCoordinates }),
  );
  const ids = items.map((f) => f.id);
  // The builder fills the window; its columns scroll on their own, so the palette, the field
  // being edited and its Apply button are all in view at once.
  const root = useRef<HTMLDivElement>(null);
  const height = useFillHeight(root, BUILDER_BOTTOM, MIN_BUILDER_HEIGHT);

  /** Runs `then`, after asking when the panel holds changes that would be lost. */
  const guard = (then: () => void) => {
    if (!edited || !properties) return then();
    modal.confirm({
      title: `Discard your changes to “${properties.label || properties.id}”?`,
      content: "They are not applied to the field yet.",
      okText: "Discard changes",
      okButtonProps: { danger: true },
      cancelText: "Keep editing",
      onOk: then,
    });
  };
  const add = (kind: FormFieldKind, index?: number) =>
    guard(() => {
      dispatch({ type: "add", field: createField(kind, ids), index });
      setPane("properties");
    });
  const select = (index: number) => {
    if (index === selected) return setPane("properties");
    guard(() => {
      dispatch({ type: "select", index });
      setPane("properties");
    });
  };
  const remove = (index: number) => {
    clearFieldErrors(items[index].id);
    dispatch({ type: "delete", index });
  };

  const panelProblems = useMemo(() => {
    if (selected === null || !properties) return {};
    const own = fieldProblems(properties, { fields: items, index: selected });
    return { ...errors.fields[items[selected]?.id], ...own };
  }, [selected, properties, items, errors.fields]);

  const cardProblems = useMemo(() => {
    const out: Record<string, string[]> = {};
    for (const f of items) {
      const messages = Object.values({ ...errors.fields[f.id], ...problems.fields[f.id] });
      if (messages.length) out[f.id] = messages;
    }
    return out;
  }, [items, errors.fields, problems.fields]);

  const apply = () => {
    if (selected === null || !properties) return;
    const before = items[selected];
    const field = cleanField(properties);
    dispatch({ type: "update", index: selected, field });
    clearFieldErrors(before.id);
    if (before.id !== field.id) {
      dispatch({ type: "renameField", from: before.id, to: field.id });
      const renamed = renameInSettings(settings, before.id, field.id);
      if (renamed !== settings) setSettings(renamed, "mail");
    }
  };
  const edit = (patch: Partial<FormFieldDef>) => {
    if (selected === null || !properties) return;
    const next = { ...patch };
    // A new field's id keeps following its label until it is typed by hand.
    if (next.label !== undefined && !idLocked(items[selected].id)) {
      const id = followLabel(
        properties,
        next.label,
        ids.filter((_, i) => i !== selected),
      );
      if (id) Object.assign(next, { id });
    }
    clearFieldErrors(items[selected].id);
    dispatch({ type: "edit", patch: next });
  };

  const onDragStart = ({ active }: DragStartEvent) => setDragKind(paletteKind(active.id));
  const onDragMove = ({ active, over }: DragMoveEvent) => {
    if (!paletteKind(active.id)) return;
    const at = dropIndex(over?.id, ids, inLowerHalf(active.rect.current.translated, over?.rect));
    if (at !== drop) setDrop(at);
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const kind = paletteKind(active.id);
    setDragKind(null);
    setDrop(null);
    if (kind) {
      const at = dropIndex(over?.id, ids, inLowerHalf(active.rect.current.translated, over?.rect));
      if (at !== null) add(kind, at);
      return;
    }
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from >= 0 && to >= 0) dispatch({ type: "reorder", items: arrayMove(items, from, to) });
  };
  const onDragCancel = () => {
    setDragKind(null);
    setDrop(null);
  };

  const label = (id: string | number) => {
    const kind = paletteKind(id);
    return kind ? `the new ${kind} field` : (items.find((f) => f.id === id)?.label ?? String(id));
  };
  const place = (id: string | number | undefined) =>
    id === undefined ? "nowhere" : id === "canvas:end" ? "the end of the form" : `“${label(id)}”`;

  const previewDefinition = useMemo(() => {
    const fields = items.map((f, i) => (i === selected && properties ? properties : f)).map(cleanField);
    return { fields, settings };
  }, [items, selected, properties, settings]);

  const other = [...errors.other, ...problems.other];
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={builderCollisions}
      onDragStart={onDragStart}
      onDragMove={onDragMove}
      onDragOver={onDragMove}
      onDragEnd={onDragEnd}
      onDragCancel={onDragCancel}
      accessibility={{
        screenReaderInstructions: { draggable: INSTRUCTIONS },
        announcements: {
          onDragStart: ({ active }) => `Picked up ${label(active.id)}.`,
          onDragOver: ({ active, over }) => `${label(active.id)} is over ${place(over?.id)}.`,
          onDragEnd: ({ active, over }) => `${label(active.id)} dropped at ${place(over?.id)}.`,
          onDragCancel: ({ active }) => `Moving ${label(active.id)} was cancelled.`,
        },
      }}
    >
      <div className="fb-builder" ref={root} style={{ height }}>
        <aside className="fb-column fb-column--palette">
          <FieldPalette onAdd={add} />
        </aside>
        <div className="fb-column fb-column--canvas">
          {other.length > 0 && (
            <Alert type="error" showIcon message={other.join(" ")} style={{ marginBottom: 12 }} />
          )}
          <FieldCanvas
            items={items}
            selected={selected}
            problems={cardProblems}
            drop={drop === null ? null : { index: drop }}
            adding={dragKind !== null}
            onSelect={select}
            onDelete={remove}
          />
        </div>
        <aside className="fb-column fb-column--side" aria-label="Field properties and preview">
          <Segmented<Pane>
            block
            value={pane}
            onChange={setPane}
            options={[
              { value: "properties", label: "Properties", icon: <EditOutlined aria-hidden /> },
              { value: "preview", label: "Preview", icon: <EyeOutlined aria-hidden /> },
            ]}
            className="fb-pane-switch"
          />
          {pane === "preview" ? (
            <div className="fb-side-scroll">
              <Suspense fallback={<Spin style={{ display: "block", padding: 48 }} />}>
                <FormPreview name={name} slug={slug} definition={previewDefinition} />
              </Suspense>
            </div>
          ) : selected !== null && properties ? (
            <PropertyPanel
              key={items[selected]?.id}
              field={properties}
              fields={items}
              edited={edited}
              idLocked={idLocked(items[selected].id)}
              problems={panelProblems}
              onEdit={edit}
              onChangeKind={(kind) => dispatch({ type: "changeKind", index: selected, kind })}
              onApply={apply}
              onCancel={() => dispatch({ type: "select", index: selected })}
            />
          ) : (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description="Select a field on the canvas to edit it, or add one from the palette."
              className="fb-side-empty"
            />
          )}
        </aside>
      </div>
      <DragOverlay dropAnimation={null}>{dragKind ? <PaletteGhost kind={dragKind} /> : null}</DragOverlay>
    </DndContext>
  );
}
