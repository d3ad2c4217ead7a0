import { ariaDescribedByIds, type WidgetProps } from "@rjsf/utils";
import { DatePicker, TimePicker } from "antd";
import type { Dayjs } from "dayjs";
import {
  DAY_INPUT_FORMATS,
  DAY_TIME_INPUT_FORMATS,
  dayFromWire,
  dayToWire,
  instantFromWire,
  instantToWire,
  TIME_FORMAT,
  TIME_INPUT_FORMATS,
  timeFromWire,
  timeToWire,
} from "./date-values";

const FULL_WIDTH = { width: "100%" };

/** What the three pickers share: id, label link, focus events, errors, clearing. */
function pickerProps(props: WidgetProps, toWire: (value: Dayjs) => string) {
  const { id, value, required, disabled, readonly, rawErrors, onChange, onBlur, onFocus } = props;
  return {
    id,
    name: id,
    "aria-describedby": ariaDescribedByIds(id),
    allowClear: !required,
    disabled: disabled || readonly,
    status: rawErrors?.length ? ("error" as const) : undefined,
    // A cleared picker is a blank field (undefined), like every other input of the form.
    onChange: (next: Dayjs | null) => onChange(next ? toWire(next) : undefined),
    onBlur: () => onBlur(id, value),
    onFocus: () => onFocus(id, value),
    getPopupContainer: (node: HTMLElement) => node.parentElement ?? document.body,
    style: FULL_WIDTH,
  };
}

/**
 * A `date` field: shown and typed `DD-MM-YYYY` (`5-3-2024` works, spec §5), sent as
 * `YYYY-MM-DD`; the calendar day never moves with the browser's time zone.
 */
export function DayWidget(props: WidgetProps) {
  return (
    <DatePicker
      {...pickerProps(props, dayToWire)}
      value={dayFromWire(props.value)}
      format={DAY_INPUT_FORMATS}
      placeholder={props.placeholder || "DD-MM-YYYY"}
    />
  );
}

/** A `date-time` field: shown and typed `DD-MM-YYYY HH:mm` in local time, sent as an ISO instant. */
export function InstantWidget(props: WidgetProps) {
  return (
    <DatePicker
      {...pickerProps(props, instantToWire)}
      value={instantFromWire(props.value)}
      format={DAY_TIME_INPUT_FORMATS}
      showTime={{ format: TIME_FORMAT }}
      placeholder={props.placeholder || "DD-MM-YYYY HH:mm"}
    />
  );
}

/** A `time` field: shown and typed `HH:mm`, sent as `HH:MM:SS` (a time of day has no zone). */
export function TimeOfDayWidget(props: WidgetProps) {
  return (
    <TimePicker
      {...pickerProps(props, timeToWire)}
      value={timeFromWire(props.value)}
      format={TIME_INPUT_FORMATS}
      placeholder={props.placeholder || "HH:mm"}
    />
  );
}
