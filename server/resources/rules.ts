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
}

export interface ResourceRules {
  beforeWrite?(ctx: WriteContext): Promise<void>;
  /**
   * After deleted rows are committed, with the rows as they were: for what lives outside the
   * database (stored files). Errors are logged, not answered: the delete has happened.
   */
  afterDelete?(rows: Row[], app: AppContext): Promise<void>;
}

export type RulesRegistry = Readonly<Record<string, ResourceRules>>;
