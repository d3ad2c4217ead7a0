import { Tag, theme } from "antd";
import { formatIsoDay } from "../../lib/dates";

export interface DailyChartProps {
  /** One entry per day, in order. */
  bars: { day: string; count: number }[];
  /** A second series drawn as a line over the bars (same days). */
  line?: { day: string; count: number }[];
  barLabel: string;
  lineLabel?: string;
  height?: number;
}

const PAD = { top: 16, right: 12, bottom: 28, left: 36 };

/** Nice round tick values from 0 to at least `max`. */
export function ticks(max: number, count = 4): number[] {
  if (max <= 0) return [0, 1];
  const raw = max / count;
  const step = [1, 2, 5, 10].map((m) => m * 10 ** Math.floor(Math.log10(raw))).find((s) => s >= raw) ?? raw;
  return Array.from({ length: Math.ceil(max / step) + 1 }, (_, i) => i * step);
}

/** A day on the axis, as the screens write days (`DD-MM`, the year left to the caption). */
export const axisDay = (day: string): string => formatIsoDay(day).slice(0, 5);

/**
 * One series per day as bars and another as a line (a catalogue's views and visitors, a
 * form's views and submissions), in plain SVG: a few hundred bytes instead of a chart
 * library, and it scales to its container's width. A bar's tooltip gives the day's two counts.
 */
export function DailyChart({ bars, line, barLabel, lineLabel, height = 220 }: DailyChartProps) {
  const { token } = theme.useToken();
  const width = 760;
  const max = Math.max(1, ...bars.map((b) => b.count), ...(line ?? []).map((p) => p.count));
  const axis = ticks(max);
  const top = axis.at(-1) ?? 1;
  const innerW = width - PAD.left - PAD.right;
  const innerH = height - PAD.top - PAD.bottom;
  const step = innerW / Math.max(1, bars.length);
  const y = (v: number) => PAD.top + innerH - (v / top) * innerH;
  const x = (i: number) => PAD.left + i * step + step / 2;
  const labelEvery = Math.ceil(bars.length / 8);

  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={`${barLabel}${lineLabel ? ` and ${lineLabel}` : ""} per day`}
      style={{ width: "100%", height: "auto", display: "block" }}
    >
      {axis.map((t) => (
        <g key={t}>
          <line
            x1={PAD.left}
            x2={width - PAD.right}
            y1={y(t)}
            y2={y(t)}
            stroke={token.colorBorderSecondary}
          />
          <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" fontSize={11} fill={token.colorTextSecondary}>
            {t}
          </text>
        </g>
      ))}
      {bars.map((b, i) => (
        <rect
          key={b.day}
          x={x(i) - Math.max(1, step * 0.35)}
          y={y(b.count)}
          width={Math.max(2, step * 0.7)}
          height={Math.max(0, y(0) - y(b.count))}
          rx={2}
          fill={token.colorPrimary}
          opacity={0.85}
        >
          <title>
            {`${formatIsoDay(b.day)}: ${b.count} ${barLabel.toLowerCase()}${
              line?.[i] && lineLabel ? `, ${line[i].count} ${lineLabel.toLowerCase()}` : ""
            }`}
          </title>
        </rect>
      ))}
      {line && line.length > 0 && (
        <polyline
          fill="none"
          stroke={token.colorWarning}
          strokeWidth={2}
          points={line.map((p, i) => `${x(i)},${y(p.count)}`).join(" ")}
        />
      )}
      {bars.map((b, i) =>
        // Counted from the last day, so the latest day always has its label.
        (bars.length - 1 - i) % labelEvery === 0 ? (
          <text
            key={b.day}
            x={x(i)}
            y={height - 8}
            textAnchor="middle"
            fontSize={11}
            fill={token.colorTextSecondary}
          >
            {axisDay(b.day)}
          </text>
        ) : null,
      )}
    </svg>
  );
}

/** A chart legend entry: the series' colour as a dot beside its name, in the text colour (readable on any series colour). */
export function LegendTag({ colour, children }: { colour: string; children: string }) {
  return (
    <Tag bordered={false}>
      <span
        aria-hidden
        style={{
          display: "inline-block",
          width: 8,
          height: 8,
          borderRadius: 4,
          background: colour,
          marginInlineEnd: 6,
        }}
      />
      {children}
    </Tag>
  );
}
