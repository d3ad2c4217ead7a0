import { Tooltip, Typography } from "antd";

const FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A date-time in the reader's locale, with the exact ISO time on hover; `fallback` when empty. */
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
      <time dateTime={date.toISOString()}>{FORMAT.format(date)}</time>
    </Tooltip>
  );
}
