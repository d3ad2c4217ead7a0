/**
 * Business rules a schema cannot express, per resource (a registry, not a switch). A rule
 * runs inside the write's transaction, after validation, and throws HttpError to refuse.
 */
import type { Kysely } from "kysely";
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
}

export type RulesRegistry = Readonly<Record<string, ResourceRules>>;
