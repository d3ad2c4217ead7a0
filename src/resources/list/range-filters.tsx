import { CalendarOutlined, ClockCircleOutlined } from "@ant-design/icons";
import { Input, Space } from "antd";
import { lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { inSentence } from "../fields";

export type Range<T> = [T | undefined, T | undefined];

interface NumberRangeFilterProps {
  title: string;
  value: Range<number>;
  onChange: (value: Range<number>) => void;
}

const shown = (bound: number | undefined) => (bound === undefined ? "" : String(bound));

/** A typed number, or undefined for an empty box or one that is not a number yet. */
export function parseBound(text: string): number | undefined {
  const trimmed = text.trim().replace(",", ".");
  if (trimmed === "") return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Min and max of a number field; applied on Enter or when leaving the box, not per keystroke.
 * Plain inputs with a decimal keyboard: antd's InputNumber (its steppers unused here) would add
 * its own code to every list screen.
 */
export function NumberRangeFilter({ title, value, onChange }: NumberRangeFilterProps) {
  const name = inSentence(title);
  // Wide enough for "Min catalogue category ID", not wider than needed for "Min price".
  const minWidth = Math.min(260, Math.max(120, 64 + name.length * 7.5));
  const [min, max] = value;
  const [draft, setDraft] = useState<[string, string]>([shown(min), shown(max)]);
  useEffect(() => setDraft([shown(min), shown(max)]), [min, max]);
  const apply = () => {
    const next: Range<number> = [parseBound(draft[0]), parseBound(draft[1])];
    if (next[0] !== value[0] || next[1] !== value[1]) onChange(next);
    // What was not a number is put back as it was.
    else setDraft([shown(min), shown(max)]);
  };
  const box = (index: 0 | 1, label: string) => (
    <Input
      aria-label={`${label} ${title}`}
      placeholder={index === 0 ? `${label} ${name}` : label}
      inputMode="decimal"
      value={draft[index]}
      onChange={(event) =>
        setDraft(index === 0 ? [event.target.value, draft[1]] : [draft[0], event.target.value])
      }
      onBlur={apply}
      onPressEnter={apply}
      style={{ width: index === 0 ? minWidth : 100 }}
    />
  );
  return (
    <Space.Compact>
      {box(0, "Min")}
      {box(1, "Max")}
    </Space.Compact>
  );
}

export interface DateRangeFilterProps {
  title: string;
  /** `day`: the field is a `date` (ends sent as `YYYY-MM-DD`); `instant`: a `date-time` (ISO instants). */
  granularity: "day" | "instant";
  /** The range's ends as the API takes them. */
  value: Range<string>;
  onChange: (value: Range<string>) => void;
  autoFocus?: boolean;
}

export interface TimeRangeFilterProps {
  title: string;
  /** `HH:MM:SS` ends of the range. */
  value: Range<string>;
  onChange: (value: Range<string>) => void;
  autoFocus?: boolean;
}

export const DATE_RANGE_WIDTH = 290;
export const TIME_RANGE_WIDTH = 220;

const pickers = () => import("./range-pickers");
const LazyDateRange = lazy(async () => ({ default: (await pickers()).DateRangePicker }));
const LazyTimeRange = lazy(async () => ({ default: (await pickers()).TimeRangePicker }));

interface OnFirstUseProps {
  title: string;
  width: number;
  icon: ReactNode;
  /** Set (from the address): the picker is loaded at once to show it. */
  hasValue: boolean;
  picker: (autoFocus: boolean) => ReactNode;
}

/**
 * A box that looks like the picker and loads it when the pointer comes near or the box takes
 * focus, then hands focus over. antd's pickers are a fifth of a list screen's code, and most
 * visits never filter by date, so the first row is not kept waiting for them.
 */
function OnFirstUse({ title, width, icon, hasValue, picker }: OnFirstUseProps) {
  const [wanted, setWanted] = useState(hasValue);
  const [focused, setFocused] = useState(false);
  const standIn = (
    <Input
      aria-label={`Filter by ${title}`}
      placeholder={`${title} from → to`}
      readOnly
      suffix={<span aria-hidden>{icon}</span>}
      onPointerEnter={() => setWanted(true)}
      onFocus={() => {
        setFocused(true);
        setWanted(true);
      }}
      onBlur={() => setFocused(false)}
      style={{ width }}
    />
  );
  if (!wanted) return standIn;
  return <Suspense fallback={standIn}>{picker(focused)}</Suspense>;
}

/**
 * A date or date-time field between two days, both included, shown and typed `DD-MM-YYYY`
 * like every date of the generated screens (the picker itself is in range-pickers.tsx).
 */
export function DateRangeFilter(props: DateRangeFilterProps) {
  return (
    <OnFirstUse
      title={props.title}
      width={DATE_RANGE_WIDTH}
      icon={<CalendarOutlined />}
      hasValue={props.value.some((end) => end !== undefined)}
      picker={(autoFocus) => <LazyDateRange {...props} autoFocus={autoFocus} />}
    />
  );
}

/** A time-of-day field between two times, shown `HH:mm`, both minutes included. */
export function TimeRangeFilter(props: TimeRangeFilterProps) {
  return (
    <OnFirstUse
      title={props.title}
      width={TIME_RANGE_WIDTH}
      icon={<ClockCircleOutlined />}
      hasValue={props.value.some((end) => end !== undefined)}
      picker={(autoFocus) => <LazyTimeRange {...props} autoFocus={autoFocus} />}
    />
  );
}
