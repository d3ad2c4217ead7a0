/**
 * Business rules a schema cannot express, per resource (a registry, not a switch). A rule
 * runs inside the write's transaction, after validation, and throws HttpError to refuse.
 */
import type { Expression, Kysely, SqlBool } from "kysely";
import type { AppContext } from "../context";
import type { Row } from "./records";

// biome-ignore lint/suspicious/noExplicitAny: rules query any table of the engine.
export type AnyDb = Kysely<any>;

export interface WriteContext {
  db: AnyDb;
  /** The stored record on update, null on create. */
  existing: Row | null;
  /** The fields being written. */
  values: Row;
  /**
   * Columns the rule sets itself, written with the fields: server-owned (read-only) ones such
   * as the time an opportunity closed. Starts empty.
   */
  set: Row;
}

export interface AfterWriteContext {
  db: AnyDb;
  /** The record before the write; null on create. */
  existing: Row | null;
  /** The row as stored now. */
  row: Row;
  /** Null: the system (an automation's step). */
  actorId: string | null;
  /** The app's services (notifications, jobs), for what the write sets in motion. */
  app: AppContext;
  /** What caused the write (an automation's run, whose chain what it starts continues). */
  cause?: object | null;
}

/**
 * What `quiet` answers for a write: `true`, the rules leave it alone; an SQL condition on the
 * stored row, they leave it alone when the condition holds; `false`, they may act on it.
 */
export type Quiet = boolean | Expression<SqlBool>;

export interface ResourceRules {
  /**
   * Which writes the rules leave alone, from the names of the fields a write sets (never their
   * values: the engine keeps the answer per set of fields). Every rule runs in the write's
   * transaction, and a write that needs none is one statement: most writes of most resources
   * touch no field a rule watches. The engine then:
   * - `true`: sends the write as one statement, no transaction, no rule;
   * - a condition on the stored row (an update only; it names the resource's table, as
   *   `products.id`, and binds no value): sends the update guarded by it, as one statement.
   *   Should the guard stop it (or the record not exist), the update runs again, with the
   *   rules, in a transaction;
   * - `false`, or no `quiet` at all: runs the rules for every write.
   */
  quiet?(mode: "create" | "update", fields: readonly string[]): Quiet;
  beforeWrite?(ctx: WriteContext): Promise<void>;
  /**
   * After the row is written, in the same transaction: for what must exist exactly when the
   * write does (a client's timeline entry of an opportunity's move). Throwing undoes the write.
   * Runs for CSV imports too, once per written row.
   */
  afterWrite?(ctx: AfterWriteContext): Promise<void>;
  /**
   * Before records are deleted, in the delete's transaction: refuses (throws HttpError) a delete
   * that would strand what no foreign key guards (an option value records still hold), or
   * deletes what belongs to them with them (an automation's runs).
   */
  beforeDelete?(ctx: { db: AnyDb; ids: readonly string[]; app: AppContext }): Promise<void>;
  /**
   * After deleted rows are committed, with the rows as they were: for what lives outside the
   * database (stored files). Errors are logged, not answered: the delete has happened.
   */
  afterDelete?(rows: Row[], app: AppContext): Promise<void>;
}

export type RulesRegistry = Readonly<Record<string, ResourceRules>>;
