import { DatePicker, InputNumber, Space, TimePicker } from "antd";
import type { Dayjs } from "dayjs";
import { useEffect, useState } from "react";
import { inSentence } from "../fields";
import {
  DAY_INPUT_FORMATS,
  dayFromWire,
  dayToWire,
  instantFromWire,
  TIME_INPUT_FORMATS,
  timeFromWire,
} from "../form/date-values";

type Range<T> = [T | undefined, T | undefined];

interface NumberRangeFilterProps {
  title: string;
  value: Range<number>;
  onChange: (value: Range<number>) => void;
}

/** Min and max of a number field; applied on Enter or when leaving the box, not per keystroke. */
export function NumberRangeFilter({ title, value, onChange }: NumberRangeFilterProps) {
  const name = inSentence(title);
  // Wide enough for "Min catalogue category ID", not wider than needed for "Min price".
  const minWidth = Math.min(260, Math.max(120, 64 + name.length * 7.5));
  const [draft, setDraft] = useState<Range<number>>(value);
  const [min, max] = value;
  useEffect(() => setDraft([min, max]), [min, max]);
  const apply = () => {
    if (draft[0] !== value[0] || draft[1] !== value[1]) onChange(draft);
  };
  const box = (index: 0 | 1, label: string) => (
    <InputNumber
      aria-label={`${label} ${title}`}
      placeholder={index === 0 ? `${label} ${name}` : label}
      value={draft[index] ?? null}
      min={0}
      onChange={(next) =>
        setDraft(index === 0 ? [next ?? undefined, draft[1]] : [draft[0], next ?? undefined])
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

interface DateRangeFilterProps {
  title: string;
  /** `day`: the field is a `date` (ends sent as `YYYY-MM-DD`); `instant`: a `date-time` (ISO instants). */
  granularity: "day" | "instant";
  /** The range's ends as the API takes them. */
  value: Range<string>;
  onChange: (value: Range<string>) => void;
}

/**
 * A date or date-time field between two days, both included, shown and typed `DD-MM-YYYY`
 * like every date of the generated screens. A `date` is compared by calendar day; a
 * `date-time` from the start of the first local day to the end of the last.
 */
export function DateRangeFilter({ title, granularity, value, onChange }: DateRangeFilterProps) {
  const byDay = granularity === "day";
  const fromWire = (end: string | undefined) => (byDay ? dayFromWire(end) : instantFromWire(end));
  const toWire = (day: Dayjs | null | undefined, end: "start" | "end") => {
    if (!day) return undefined;
    if (byDay) return dayToWire(day);
    return (end === "start" ? day.startOf("day") : day.endOf("day")).toISOString();
  };
  return (
    <DatePicker.RangePicker
      aria-label={`Filter by ${title}`}
      placeholder={[`${title} from`, "to"]}
      format={DAY_INPUT_FORMATS}
      allowEmpty={[true, true]}
      value={[fromWire(value[0]), fromWire(value[1])]}
      onChange={(days) => onChange([toWire(days?.[0], "start"), toWire(days?.[1], "end")])}
      style={{ width: 290 }}
    />
  );
}

interface TimeRangeFilterProps {
  title: string;
  /** `HH:MM:SS` ends of the range. */
  value: Range<string>;
  onChange: (value: Range<string>) => void;
}

/** A time-of-day field between two times, shown `HH:mm`, both minutes included. */
export function TimeRangeFilter({ title, value, onChange }: TimeRangeFilterProps) {
  return (
    <TimePicker.RangePicker
      aria-label={`Filter by ${title}`}
      placeholder={[`${title} from`, "to"]}
      format={TIME_INPUT_FORMATS}
      allowEmpty={[true, true]}
      order={false}
      value={[timeFromWire(value[0]), timeFromWire(value[1])]}
      onChange={(times) =>
        onChange([times?.[0]?.format("HH:mm:00") ?? undefined, times?.[1]?.format("HH:mm:59") ?? undefined])
      }
      style={{ width: 220 }}
    />
  );
}
