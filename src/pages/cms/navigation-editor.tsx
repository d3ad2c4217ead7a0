/**
 * One navigation's items as a sortable list: drag a row by its handle (mouse, touch, or the
 * keyboard: focus the handle, Space to lift, arrows to move, Space to drop) and it moves with
 * the items under it; indent and outdent nest it; hidden items stay in the tree but not on the
 * site. Rows are the flat form of the tree (nav-tree.ts).
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
  KeyboardSensor,
  PointerSensor,
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
import { type FlatItem, moveRow, removeRow, shiftDepth } from "./nav-tree";

const KIND_LABELS = { entry: "Entry", url: "Link", group: "Group" } as const;
const INDENT = 28;

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
          style={{ cursor: "grab", touchAction: "none" }}
          {...attributes}
          {...listeners}
        />
        <Typography.Text strong>{item.label}</Typography.Text>
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
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = rows.map((r) => r.item.id);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onChange(moveRow(rows, ids.indexOf(String(active.id)), ids.indexOf(String(over.id))));
  };
  if (!rows.length) return <Empty description="No items yet: add the first one below" />;
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        screenReaderInstructions: {
          draggable:
            "To move an item, press Space, use the arrow keys, then press Space again to drop it, or Escape to cancel.",
        },
      }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ul style={{ padding: 0, margin: 0 }} aria-label="Navigation items">
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
              onRemove={() => onChange(removeRow(rows, index))}
            />
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}
