/**
 * The edit screen shows a stored date the way the list and show page do: the pickers are
 * rendered (React on the server side, no browser) with an API value and their input read.
 */
import type { WidgetProps } from "@rjsf/utils";
import { createElement, type FunctionComponent } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formatDmyTime, formatIsoDay, formatTimeOfDay } from "../../lib/dates";
import { DayWidget, InstantWidget, TimeOfDayWidget } from "./date-widgets";

const noop = () => {};

/** The value of the picker's input, as the user sees it. */
function shown(widget: FunctionComponent<WidgetProps>, value: unknown): string | undefined {
  const props = { id: "root_field", value, required: false, onChange: noop, onBlur: noop, onFocus: noop };
  const markup = renderToStaticMarkup(createElement(widget, props as unknown as WidgetProps));
  return /<input[^>]*\svalue="([^"]*)"/.exec(markup)?.[1];
}

describe("the pickers show what the list and the show page show", () => {
  it("a day", () => {
    expect(shown(DayWidget, "2024-03-05")).toBe(formatIsoDay("2024-03-05"));
    expect(shown(DayWidget, "2024-03-05")).toBe("05-03-2024");
  });

  it("an instant, in local time", () => {
    const before = process.env.TZ;
    process.env.TZ = "Asia/Kolkata";
    try {
      expect(shown(InstantWidget, "2024-03-05T20:45:00.000Z")).toBe("06-03-2024 02:15");
      expect(shown(InstantWidget, "2024-03-05T20:45:00.000Z")).toBe(
        formatDmyTime(new Date("2024-03-05T20:45:00.000Z")),
      );
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it("a time of day", () => {
    expect(shown(TimeOfDayWidget, "09:05:00")).toBe(formatTimeOfDay("09:05:00"));
  });

  it("nothing for a blank field", () => {
    expect(shown(DayWidget, undefined) ?? "").toBe("");
  });
});
