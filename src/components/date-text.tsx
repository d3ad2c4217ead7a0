import { Tooltip, Typography } from "antd";
import { formatDmyTime } from "../lib/dates";

/**
 * A date-time as every screen writes it (`DD-MM-YYYY HH:mm`, the reader's local time), with
 * the exact ISO time on hover; `fallback` when empty.
 */
export function DateText({
  value,
  fallback = "Never",
}: {
  value: string | null | undefined;
  fallback?: string;
}) {
  if (!value) return <Typography.Text type="secondary">{fallback}</Typography.Text>;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <Typography.Text type="secondary">{fallback}</Typography.Text>;
  return (
    <Tooltip title={date.toISOString()}>
      <time dateTime={date.toISOString()}>{formatDmyTime(date)}</time>
    </Tooltip>
  );
}
