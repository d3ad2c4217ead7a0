/**
 * SQL text compiled once per statement shape. A resource's get, create and update send the same
 * statement every time, up to its values (and, for writes, up to which columns the body sets):
 * building and compiling it through Kysely's query builder on every request is work thrown away,
 * and so is PostgreSQL's parse and plan of it (such texts run as prepared statements there,
 * server/db/prepared.ts).
 */
import { type Compilable, CompiledQuery } from "kysely";
import { prepareStatement } from "./prepared";

/** Shapes kept per cache: a client sends few (our forms send one or two per resource). */
export const MAX_SHAPES = 64;

export class StatementCache {
  private readonly texts = new Map<string, string>();

  /** `instantsAsText`: its statements' rows bring `timestamptz` as text (server/db/prepared.ts). */
  constructor(private readonly options: { instantsAsText?: boolean } = {}) {}

  /** How many shapes are kept. */
  get size(): number {
    return this.texts.size;
  }

  /**
   * The statement of shape `key` with `params` bound in order. A new shape is built and compiled
   * by `build`; its text is kept for the next time only when it bound exactly `params`, in that
   * order (every value a parameter, none written into the text), so a kept text can never be
   * sent with values it was not compiled for.
   */
  query(key: string, params: readonly unknown[], build: () => Compilable): CompiledQuery {
    const text = this.texts.get(key);
    if (text !== undefined) return CompiledQuery.raw(text, [...params]);
    const compiled = build().compile();
    if (this.texts.size < MAX_SHAPES && sameValues(compiled.parameters, params)) {
      this.texts.set(key, compiled.sql);
      // Sent on every request: on PostgreSQL, worth parsing and planning once per connection.
      prepareStatement(compiled.sql, this.options);
    }
    return compiled;
  }
}

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, i) => Object.is(value, b[i]));
}

/**
 * Marks a compiled statement to run as a named prepared statement on PostgreSQL
 * (server/db/prepared.ts) and answers it: for the run engine's and the job queue's statements,
 * sent on every step with the same text up to their values, whose parse and plan was most of
 * PostgreSQL's work per step. Only for texts of a bounded number of shapes (no variable lists of
 * rows written into the text).
 */
export function prepared<R>(query: CompiledQuery<R>): CompiledQuery<R> {
  prepareStatement(query.sql);
  return query;
}
