/**
 * When a notification came, as the bell's panel says it: "Just now", "5 min ago", "3 h ago"
 * within a day, then the date and time as every screen writes them (DD-MM-YYYY HH:mm).
 */
import { formatDmyTime } from "../../lib/dates";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * @example
 * timeAgo("2025-03-01T10:00:00Z", new Date("2025-03-01T10:05:30Z")); // "5 min ago"
 */
export function timeAgo(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  const ago = now.getTime() - at.getTime();
  if (Number.isNaN(ago)) return "";
  if (ago < MINUTE) return "Just now";
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  if (ago < 24 * HOUR) return `${Math.floor(ago / HOUR)} h ago`;
  return formatDmyTime(at);
}
