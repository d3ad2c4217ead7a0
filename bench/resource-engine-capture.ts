/**
 * The SQL statements this process sends, captured at the drivers (pg.Client#query, PGlite's
 * query and exec), so the bench can show what one engine request costs the database whatever
 * builds the statement. Bench-only instrumentation: installed around one request, then removed.
 */
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** Starts capturing; `stop()` restores the drivers and returns the statements' text in order. */
export function captureStatements(): { stop(): string[] } {
  const seen: string[] = [];
  const text = (arg: unknown) =>
    typeof arg === "string" ? arg : String((arg as { text?: string } | null)?.text ?? arg);
  const patched: Array<[Record<string, Method>, string, Method]> = [];
  const patch = (proto: Record<string, Method>, name: string) => {
    const original = proto[name];
    patched.push([proto, name, original]);
    proto[name] = function (this: unknown, ...args: unknown[]) {
      seen.push(text(args[0]).replace(/\s+/g, " ").trim());
      return original.apply(this, args);
    };
  };
  patch(pg.Client.prototype as unknown as Record<string, Method>, "query");
  patch(PGlite.prototype as unknown as Record<string, Method>, "query");
  patch(PGlite.prototype as unknown as Record<string, Method>, "exec");
  return {
    stop() {
      for (const [proto, name, original] of patched.reverse()) proto[name] = original;
      return seen;
    },
  };
}
