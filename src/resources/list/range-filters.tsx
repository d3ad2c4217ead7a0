import { DatePicker, InputNumber, Space } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useEffect, useState } from "react";
import { inSentence } from "../fields";

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
  /** ISO date-times of the range's ends. */
  value: Range<string>;
  onChange: (value: Range<string>) => void;
}

const toDay = (iso: string | undefined): Dayjs | null => (iso && dayjs(iso).isValid() ? dayjs(iso) : null);

/** A date-time field between two days, both included (start of the first, end of the last). */
export function DateRangeFilter({ title, value, onChange }: DateRangeFilterProps) {
  return (
    <DatePicker.RangePicker
      aria-label={`Filter by ${title}`}
      placeholder={[`${title} from`, "to"]}
      format="DD-MM-YYYY"
      allowEmpty={[true, true]}
      value={[toDay(value[0]), toDay(value[1])]}
      onChange={(days) =>
        onChange([days?.[0]?.startOf("day").toISOString(), days?.[1]?.endOf("day").toISOString()])
      }
      style={{ width: 290 }}
    />
  );
}
