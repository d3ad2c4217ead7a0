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

/** A value bound by name at each call of a statement kept by shape (StatementCache.bound). */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * Gives a statement's build its values: a slot standing for each (StatementCache.bound), or the
 * values themselves (`valuesOf`) where a statement is built and sent once.
 */
export type Slots = <T = unknown>(name: string) => T;

/** The values themselves, for a build that is sent as it is (not kept by shape). */
export const valuesOf =
  (values: Record<string, unknown>): Slots =>
  <T>(name: string) =>
    values[name] as T;

/** A statement's text kept by shape, and the names of its values in the order they are bound. */
interface Bound {
  text: string;
  names: string[];
}

/**
 * Statements kept by shape whose values are bound by name: for a statement built of parts
 * (CTEs, a job's own update) whose values come in an order only its compiled text knows. The
 * build runs once per shape, with a slot for every value; the run engine's and the job queue's
 * statements, sent on every step, were a tenth of the app's work per step in Kysely's builders
 * and compiler.
 */
export class BoundStatements {
  private readonly kept = new Map<string, Bound>();

  /**
   * The statement of shape `key` with `values` bound. `build` makes and compiles it from
   * `slot(name)` for each value; a value written in directly (a parameter that is not a slot) is refused, since
   * it would be sent again with every later call of the shape: constants go in with `sql.lit`.
   */
  bind<R = unknown>(
    key: string,
    values: Record<string, unknown>,
    build: (slot: Slots) => CompiledQuery<R>,
  ): CompiledQuery<R> {
    let bound = this.kept.get(key);
    if (!bound) {
      const compiled = build(<T>(name: string) => new Slot(name) as T);
      const names = compiled.parameters.map((p) => {
        if (p instanceof Slot) return p.name;
        throw new Error(`Statement "${key}" binds a value that is not a slot: ${String(p)}`);
      });
      bound = { text: compiled.sql, names };
      if (this.kept.size < MAX_SHAPES) {
        this.kept.set(key, bound);
        prepareStatement(bound.text);
      }
    }
    const params = bound.names.map((name) => {
      if (!(name in values)) throw new Error(`Statement "${key}" has no value for "${name}"`);
      return values[name];
    });
    return CompiledQuery.raw(bound.text, params) as CompiledQuery<R>;
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
