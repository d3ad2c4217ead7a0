/**
 * A sequence's steps, built: the ordered list on the left (add a step of each type, drag or
 * use the keyboard to reorder, delete), the selected step's fields on the right, and Save, which
 * stores them as the sequence's next version. Clients enrolled before keep the version they
 * started with. The same checks as the server's mark each step as it is edited; a save someone
 * else made meanwhile is refused (409) and offered to reload.
 */
import { PlusOutlined, ReloadOutlined, SaveOutlined, UndoOutlined } from "@ant-design/icons";
import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Dropdown, Empty, Space, Spin, Tag, Typography } from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import type { SequenceStep, SequenceSteps } from "../../../../schemas/crm-sequence-steps";
import { LoadError } from "../../../components/load-error";
import { useUnsavedWarning } from "../../../hooks/use-unsaved-warning";
import { getErrorMessage, statusOf } from "../../../lib/errors";
import { moveStep, newStep, problemsByStep, STEP_TYPES_IN_MENU, stepTitle } from "./sequence-steps";
import { getSteps, saveSteps, sequenceKeys } from "./sequences-api";
import { STEP_ICONS, StepCard } from "./step-card";
import { StepEditor } from "./step-editor";

const INSTRUCTIONS =
  "To move a step, press Space or Enter on its handle, use the up and down arrows to move it, then Space or Enter to drop it, or Escape to cancel.";

interface FieldError {
  field: string;
  message: string;
}

const detailsOf = (error: unknown): FieldError[] =>
  ((error as { response?: { data?: { details?: FieldError[] } } })?.response?.data?.details ?? []).filter(
    (d) => d.field.startsWith("steps."),
  );

export function SequenceBuilder({ sequenceId, onSaved }: { sequenceId: string; onSaved: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: sequenceKeys.steps(sequenceId), queryFn: () => getSteps(sequenceId) });
  const [saved, setSaved] = useState<SequenceSteps | null>(null);
  const [steps, setSteps] = useState<SequenceStep[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [answered, setAnswered] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState(false);
  const [stale, setStale] = useState(false);
  // The "Add step" menu, closed as soon as a kind is chosen (it would cover the steps).
  const [menuOpen, setMenuOpen] = useState(false);
  // A step just added: its editor's first field takes the focus once it is shown.
  const added = useRef<string | null>(null);
  const editorColumn = useRef<HTMLDivElement>(null);

  // The stored steps become the working copy when they first arrive (and after a reload).
  useEffect(() => {
    if (query.data && saved === null) {
      setSaved(query.data);
      setSteps(query.data.steps);
      setSelected(query.data.steps[0]?.key ?? null);
    }
  }, [query.data, saved]);

  useEffect(() => {
    if (!selected || added.current !== selected) return;
    added.current = null;
    editorColumn.current
      ?.querySelector<HTMLElement>("input.ant-input, textarea, input.ant-input-number-input")
      ?.focus();
  }, [selected]);

  const dirty = saved !== null && JSON.stringify(saved.steps) !== JSON.stringify(steps);
  useUnsavedWarning(dirty);
  const problems = useMemo(() => problemsByStep(steps, answered), [steps, answered]);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  if (query.isError)
    return <LoadError what="the steps" error={query.error} onRetry={() => query.refetch()} />;
  if (!saved) return <Spin style={{ display: "block", padding: 64 }} />;

  const edit = (next: SequenceStep[]) => {
    setSteps(next);
    setAnswered([]);
  };
  const add = (type: SequenceStep["type"]) => {
    setMenuOpen(false);
    const step = newStep(type, steps);
    edit([...steps, step]);
    added.current = step.key;
    setSelected(step.key);
  };
  const remove = (key: string) => {
    const index = steps.findIndex((s) => s.key === key);
    const next = steps.filter((s) => s.key !== key);
    edit(next);
    if (selected === key) setSelected(next[Math.min(index, next.length - 1)]?.key ?? null);
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = steps.findIndex((s) => s.key === active.id);
    const to = steps.findIndex((s) => s.key === over.id);
    if (from >= 0 && to >= 0) edit(moveStep(steps, from, to));
  };
  const reload = async () => {
    setStale(false);
    const fresh = await queryClient.fetchQuery({
      queryKey: sequenceKeys.steps(sequenceId),
      queryFn: () => getSteps(sequenceId),
      staleTime: 0,
    });
    setSaved(fresh);
    setSteps(fresh.steps);
    setAnswered([]);
    setSelected(fresh.steps[0]?.key ?? null);
  };
  const save = async () => {
    setBusy(true);
    try {
      const stored = await saveSteps(sequenceId, steps, saved.version);
      setSaved(stored);
      setSteps(stored.steps);
      queryClient.setQueryData(sequenceKeys.steps(sequenceId), stored);
      message.success(`Saved as version ${stored.version}`);
      onSaved();
    } catch (error) {
      if (statusOf(error) === 409) setStale(true);
      else {
        setAnswered(detailsOf(error));
        message.error(getErrorMessage(error));
      }
    } finally {
      setBusy(false);
    }
  };

  const count = [...problems.values()].reduce((n, fields) => n + [...fields.values()].flat().length, 0);
  const index = steps.findIndex((s) => s.key === selected);
  const current = index >= 0 ? steps[index] : undefined;
  const nameOf = (id: string | number) => {
    const i = steps.findIndex((s) => s.key === id);
    return i < 0 ? "the step" : `step ${i + 1}, ${stepTitle(steps[i])}`;
  };
  const placeOf = (id: string | number | undefined) => {
    const i = steps.findIndex((s) => s.key === id);
    return i < 0 ? "no place" : `position ${i + 1} of ${steps.length}`;
  };

  return (
    <div className="seq-builder">
      <div className="seq-builder-bar">
        <Space wrap>
          <Typography.Text type="secondary">Version {saved.version}</Typography.Text>
          {dirty && <Tag color="gold">Unsaved changes</Tag>}
          {count > 0 && <Tag color="error">{count === 1 ? "1 problem" : `${count} problems`}</Tag>}
        </Space>
        <Space wrap>
          <Button icon={<UndoOutlined />} disabled={!dirty || busy} onClick={() => edit(saved.steps)}>
            Discard changes
          </Button>
          <Button type="primary" icon={<SaveOutlined />} loading={busy} disabled={!dirty} onClick={save}>
            Save steps
          </Button>
        </Space>
      </div>
      {stale && (
        <Alert
          type="warning"
          showIcon
          message="Someone saved these steps since you opened them"
          description="Reload to see their version (your changes here are dropped), then make yours again."
          action={
            <Button size="small" icon={<ReloadOutlined />} onClick={reload}>
              Reload
            </Button>
          }
          style={{ marginBottom: 12 }}
        />
      )}
      <div className="seq-builder-columns">
        <section className="seq-steps" aria-label="Steps">
          {steps.length === 0 ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description="No steps yet: add an email, an SMS, a wait or a task."
            />
          ) : (
            <DndContext
              sensors={sensors}
              collisionDetection={closestCenter}
              onDragEnd={onDragEnd}
              accessibility={{
                screenReaderInstructions: { draggable: INSTRUCTIONS },
                announcements: {
                  onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}.`,
                  onDragOver: ({ active, over }) => `${nameOf(active.id)} is over ${placeOf(over?.id)}.`,
                  onDragEnd: ({ active, over }) => `${nameOf(active.id)} dropped at ${placeOf(over?.id)}.`,
                  onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled.`,
                },
              }}
            >
              <SortableContext items={steps.map((s) => s.key)} strategy={verticalListSortingStrategy}>
                <ol className="seq-step-list">
                  {steps.map((step, i) => (
                    <StepCard
                      key={step.key}
                      step={step}
                      index={i}
                      count={steps.length}
                      selected={step.key === selected}
                      problems={[...(problems.get(step.key)?.values() ?? [])].flat()}
                      onSelect={() => setSelected(step.key)}
                      onDelete={() => remove(step.key)}
                    />
                  ))}
                </ol>
              </SortableContext>
            </DndContext>
          )}
          <Dropdown
            trigger={["click"]}
            open={menuOpen}
            onOpenChange={setMenuOpen}
            autoFocus
            menu={{
              items: STEP_TYPES_IN_MENU.map((t) => ({
                key: t.type,
                label: t.label,
                icon: STEP_ICONS[t.type],
              })),
              onClick: ({ key }) => add(key as SequenceStep["type"]),
            }}
          >
            <Button type="dashed" block icon={<PlusOutlined />} className="seq-add">
              Add step
            </Button>
          </Dropdown>
        </section>
        <div className="seq-editor-column" ref={editorColumn}>
          {current ? (
            <StepEditor
              key={current.key}
              step={current}
              index={index}
              problems={problems.get(current.key) ?? new Map()}
              onChange={(step) => edit(steps.map((s) => (s.key === step.key ? step : s)))}
            />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Select a step to edit it, or add one." />
          )}
        </div>
      </div>
    </div>
  );
}
