/**
 * The SQL statements this process sends, captured at the drivers (pg.Client#query, the app's
 * PGlite connection, and PGlite's query and exec called by anything else), so the bench can
 * show what one engine request costs the database whatever builds the statement. Bench-only
 * instrumentation: installed around one request, then removed.
 */
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { PGliteConnection } from "../server/db/pglite-dialect";

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** Starts capturing; `stop()` restores the drivers and returns the statements' text in order. */
export function captureStatements(): { stop(): string[] } {
  const seen: string[] = [];
  const text = (arg: unknown) =>
    typeof arg === "string"
      ? arg
      : String(
          (arg as { text?: string; sql?: string } | null)?.text ?? (arg as { sql?: string })?.sql ?? arg,
        );
  const patched: Array<[Record<string, Method>, string, Method]> = [];
  // Inside the app's PGlite connection, which runs marked statements without PGlite's query
  // (server/db/pglite-dialect.ts): its statement is counted there, once.
  let inConnection = 0;
  const patch = (proto: Record<string, Method>, name: string, outer = false) => {
    const original = proto[name];
    patched.push([proto, name, original]);
    proto[name] = function (this: unknown, ...args: unknown[]) {
      // Kept as sent; made one line at stop(), so capturing under load costs little.
      if (!inConnection || outer) seen.push(text(args[0]));
      if (!outer) return original.apply(this, args);
      inConnection++;
      const done = () => inConnection--;
      const result = original.apply(this, args) as Promise<unknown>;
      result.then(done, done);
      return result;
    };
  };
  patch(pg.Client.prototype as unknown as Record<string, Method>, "query");
  patch(PGliteConnection.prototype as unknown as Record<string, Method>, "executeQuery", true);
  patch(PGlite.prototype as unknown as Record<string, Method>, "query");
  patch(PGlite.prototype as unknown as Record<string, Method>, "exec");
  return {
    stop() {
      for (const [proto, name, original] of patched.reverse()) proto[name] = original;
      return seen.map((s) => s.replace(/\s+/g, " ").trim());
    },
  };
}
