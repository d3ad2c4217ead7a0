/**
 * The date and time range pickers of the list filters. antd's pickers are about a fifth of a
 * list screen's code, so this module is loaded on first use (see range-filters.tsx).
 */
import { DatePicker, TimePicker } from "antd";
import type { Dayjs } from "dayjs";
import {
  DAY_INPUT_FORMATS,
  dayFromWire,
  dayToWire,
  instantFromWire,
  TIME_INPUT_FORMATS,
  timeFromWire,
} from "../form/date-values";
import {
  DATE_RANGE_WIDTH,
  type DateRangeFilterProps,
  TIME_RANGE_WIDTH,
  type TimeRangeFilterProps,
} from "./range-filters";

/**
 * A date or date-time field between two days, both included, shown and typed `DD-MM-YYYY`
 * like every date of the generated screens. A `date` is compared by calendar day; a
 * `date-time` from the start of the first local day to the end of the last.
 */
export function DateRangePicker({ title, granularity, value, onChange, autoFocus }: DateRangeFilterProps) {
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
      autoFocus={autoFocus}
      placeholder={[`${title} from`, "to"]}
      format={DAY_INPUT_FORMATS}
      allowEmpty={[true, true]}
      value={[fromWire(value[0]), fromWire(value[1])]}
      onChange={(days) => onChange([toWire(days?.[0], "start"), toWire(days?.[1], "end")])}
      style={{ width: DATE_RANGE_WIDTH }}
    />
  );
}

/** A time-of-day field between two times, shown `HH:mm`, both minutes included. */
export function TimeRangePicker({ title, value, onChange, autoFocus }: TimeRangeFilterProps) {
  return (
    <TimePicker.RangePicker
      aria-label={`Filter by ${title}`}
      autoFocus={autoFocus}
      placeholder={[`${title} from`, "to"]}
      format={TIME_INPUT_FORMATS}
      allowEmpty={[true, true]}
      order={false}
      value={[timeFromWire(value[0]), timeFromWire(value[1])]}
      onChange={(times) =>
        onChange([times?.[0]?.format("HH:mm:00") ?? undefined, times?.[1]?.format("HH:mm:59") ?? undefined])
      }
      style={{ width: TIME_RANGE_WIDTH }}
    />
  );
}
