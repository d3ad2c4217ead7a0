/**
 * One navigation's items as a sortable list: drag a row by its handle (mouse, touch, or the
 * keyboard: focus the handle, Space to lift, Arrow Up and Down to move, Arrow Right and Left
 * to nest and un-nest, Space to drop) and it moves with the items under it; a sideways mouse
 * drag nests too, as do the Indent and Outdent buttons; hidden items stay in the tree but not
 * on the site. Rows are the flat form of the tree (nav-tree.ts). What a screen reader hears
 * names the item and its place, never dnd-kit's internal ids.
 */
import {
  ArrowLeftOutlined,
  ArrowRightOutlined,
  DeleteOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  HolderOutlined,
} from "@ant-design/icons";
import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  type DragMoveEvent,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { Button, Empty, Flex, Tag, Tooltip, Typography, theme } from "antd";
import { useRef } from "react";
import { focusFirst } from "../../hooks/use-focus-return";
import { dropRow, type FlatItem, placeOf, removeRow, shiftDepth } from "./nav-tree";

const KIND_LABELS = { entry: "Entry", url: "Link", group: "Group" } as const;
const INDENT = 28;

export const DRAG_INSTRUCTIONS =
  "To move an item, press Space, then Arrow Up and Down to move it, Arrow Right to nest it under the item above and Arrow Left to take it out a level; press Space again to drop it, or Escape to cancel.";

/**
 * Arrow Right and Left move the lifted row one indent sideways (the drop nests it by that);
 * Up and Down move it between rows as the sortable list does.
 */
const nestingCoordinates: KeyboardCoordinateGetter = (event, args) => {
  if (event.code === "ArrowRight" || event.code === "ArrowLeft") {
    event.preventDefault();
    const by = event.code === "ArrowRight" ? INDENT : -INDENT;
    return { ...args.currentCoordinates, x: args.currentCoordinates.x + by };
  }
  // Up and Down keep the sideways offset: the nesting chosen so far stays chosen.
  const next = sortableKeyboardCoordinates(event, args);
  return next && { ...next, x: args.currentCoordinates.x };
};

interface RowProps {
  row: FlatItem;
  index: number;
  count: number;
  maxDepth: number;
  onShift: (by: 1 | -1) => void;
  onToggle: () => void;
  onRemove: () => void;
}

function Row({ row, index, count, maxDepth, onShift, onToggle, onRemove }: RowProps) {
  const { token } = theme.useToken();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({
      id: row.item.id,
    });
  const { item } = row;
  const target = item.kind === "url" ? item.url : item.kind === "entry" ? `${item.type} entry` : null;
  return (
    <li
      ref={setNodeRef}
      data-testid="nav-row"
      data-depth={row.depth}
      style={{
        transform: CSS.Translate.toString(transform),
        transition,
        listStyle: "none",
        marginInlineStart: row.depth * INDENT,
        marginBottom: 6,
        padding: "6px 8px",
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
        background: isDragging ? token.colorPrimaryBg : token.colorBgContainer,
        opacity: item.hidden ? 0.6 : 1,
        position: "relative",
        zIndex: isDragging ? 2 : undefined,
      }}
    >
      <Flex align="center" gap={8}>
        <Button
          ref={setActivatorNodeRef}
          type="text"
          size="small"
          icon={<HolderOutlined aria-hidden />}
          aria-label={`Move ${item.label} (position ${index + 1} of ${count})`}
          data-handle={item.id}
          style={{ cursor: "grab", touchAction: "none" }}
          {...attributes}
          {...listeners}
        />
        <Typography.Text strong>{item.label}</Typography.Text>
        {Object.entries(item.labels ?? {}).map(([code, text]) => (
          <Typography.Text key={code} type="secondary">
            {code}: {text}
          </Typography.Text>
        ))}
        <Tag>{KIND_LABELS[item.kind]}</Tag>
        {target && (
          <Typography.Text type="secondary" ellipsis style={{ maxWidth: 320 }}>
            {target}
          </Typography.Text>
        )}
        {item.hidden && <Tag color="orange">Hidden</Tag>}
        <Flex gap={0} style={{ marginInlineStart: "auto" }}>
          <Tooltip title="Outdent">
            <Button
              type="text"
              size="small"
              aria-label={`Outdent ${item.label}`}
              icon={<ArrowLeftOutlined aria-hidden />}
              disabled={row.depth === 0}
              onClick={() => onShift(-1)}
            />
          </Tooltip>
          <Tooltip title="Nest under the item above">
            <Button
              type="text"
              size="small"
              aria-label={`Indent ${item.label}`}
              icon={<ArrowRightOutlined aria-hidden />}
              disabled={index === 0 || row.depth >= maxDepth - 1}
              onClick={() => onShift(1)}
            />
          </Tooltip>
          <Tooltip title={item.hidden ? "Show on the site" : "Hide from the site"}>
            <Button
              type="text"
              size="small"
              aria-label={`${item.hidden ? "Show" : "Hide"} ${item.label}`}
              icon={item.hidden ? <EyeOutlined aria-hidden /> : <EyeInvisibleOutlined aria-hidden />}
              onClick={onToggle}
            />
          </Tooltip>
          <Tooltip title="Remove with the items under it">
            <Button
              type="text"
              size="small"
              danger
              aria-label={`Remove ${item.label}`}
              icon={<DeleteOutlined aria-hidden />}
              onClick={onRemove}
            />
          </Tooltip>
        </Flex>
      </Flex>
    </li>
  );
}

export function NavigationEditor({
  rows,
  maxDepth,
  onChange,
}: {
  rows: FlatItem[];
  maxDepth: number;
  onChange: (rows: FlatItem[]) => void;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: nestingCoordinates }),
  );
  const ids = rows.map((r) => r.item.id);
  // How far sideways the lifted row is, in indents: read when it drops and by the announcements.
  const sideways = useRef(0);
  const list = useRef<HTMLUListElement>(null);
  const projected = (active: UniqueIdentifier, over: UniqueIdentifier | undefined) =>
    dropRow(
      rows,
      ids.indexOf(String(active)),
      ids.indexOf(String(over ?? active)),
      sideways.current,
      maxDepth,
    );
  const label = (id: UniqueIdentifier) => rows.find((r) => r.item.id === id)?.item.label ?? "The item";
  const place = (active: UniqueIdentifier, over: UniqueIdentifier | undefined) =>
    placeOf(projected(active, over), String(active));
  // The place said last: a move that changes nothing (the keyboard's first step) says nothing.
  const said = useRef("");
  const sayPlace = (active: UniqueIdentifier, over: UniqueIdentifier | undefined) => {
    const where = place(active, over);
    if (where === said.current) return undefined;
    said.current = where;
    return `${label(active)} would go to ${where}.`;
  };
  const onDragMove = ({ delta }: DragMoveEvent) => {
    sideways.current = Math.round(delta.x / INDENT);
  };
  // Said once the row is down: worked out before the list changes under the announcement.
  const dropped = useRef("");
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const next = over ? projected(active.id, over.id) : rows;
    dropped.current = `${label(active.id)} was dropped at ${placeOf(next, String(active.id))}.`;
    if (next.some((r, i) => r.item.id !== rows[i].item.id || r.depth !== rows[i].depth)) onChange(next);
  };
  if (!rows.length) return <Empty description="No items yet: add the first one below" />;
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragStart={() => {
        sideways.current = 0;
      }}
      onDragMove={onDragMove}
      onDragEnd={onDragEnd}
      onDragCancel={() => {
        sideways.current = 0;
      }}
      accessibility={{
        screenReaderInstructions: { draggable: DRAG_INSTRUCTIONS },
        announcements: {
          onDragStart: ({ active }) => {
            said.current = place(active.id, active.id);
            return `Picked up ${label(active.id)}, ${said.current}.`;
          },
          onDragMove: ({ active, over }) => sayPlace(active.id, over?.id),
          onDragOver: ({ active, over }) => sayPlace(active.id, over?.id),
          onDragEnd: () => dropped.current,
          onDragCancel: ({ active }) => `Moving ${label(active.id)} was cancelled; it stays where it was.`,
        },
      }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ul ref={list} style={{ padding: 0, margin: 0 }} aria-label="Navigation items">
          {rows.map((row, index) => (
            <Row
              key={row.item.id}
              row={row}
              index={index}
              count={rows.length}
              maxDepth={maxDepth}
              onShift={(by) => onChange(shiftDepth(rows, index, by, maxDepth))}
              onToggle={() =>
                onChange(
                  rows.map((r, i) =>
                    i === index ? { ...r, item: { ...r.item, hidden: !r.item.hidden } } : r,
                  ),
                )
              }
              onRemove={() => {
                const next = removeRow(rows, index);
                onChange(next);
                // The removed row's buttons are gone: focus the row now in its place, the one
                // above, or the form that adds items.
                const after = next[index] ?? next[index - 1];
                focusFirst(
                  () =>
                    after
                      ? list.current?.querySelector<HTMLElement>(`[data-handle="${after.item.id}"]`)
                      : null,
                  () => document.querySelector<HTMLElement>("input[data-nav-add]"),
                );
              }}
            />
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}
