/**
 * Business rules a schema cannot express, per resource (a registry, not a switch). A rule
 * runs inside the write's transaction, after validation, and throws HttpError to refuse.
 */
import type { Kysely } from "kysely";
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
  actorId: string;
  /** The app's services (notifications, jobs), for what the write sets in motion. */
  app: AppContext;
}

export interface ResourceRules {
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
