/**
 * What the engine's parts share: the registered kinds (normalised), the definition cache, the
 * job names and keys of steps, and the engine's limits.
 */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../db";
import type { JobLogger, JobQueue } from "../jobs";
import { retryDelayMs } from "../jobs";
import type {
  Db,
  RetryPolicy,
  RunKind,
  StepContext,
  StepContextBase,
  StepDefinition,
  StepExecutor,
  StepOutcome,
} from "./contract";
import { loadDefinition } from "./runs.repository";

/** How deep a chain of runs causing runs may go (a run nothing caused is depth 0). */
export const MAX_RUN_DEPTH = 5;
/** A step's attempts when its kind does not say: the first and two retries. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, delayMs: retryDelayMs };
/**
 * Times the queue may take one job of a step. Failures of the step itself are the kind's
 * retries (each a new job); these are for a worker that died or a database that failed around
 * the step. The last take does not run the step but fails it, so a step that kills its worker
 * every time ends as a failed run to look at, not as a job nobody reads.
 */
export const STEP_JOB_ATTEMPTS = 5;
export const DEFAULT_CONCURRENCY = 4;
const ERROR_TEXT_MAX = 2000;
const CACHED_DEFINITIONS = 500;

export interface NormalExecutor {
  prepare?(ctx: StepContextBase<StepDefinition, unknown>): Promise<unknown>;
  run(ctx: StepContext<StepDefinition, unknown>): Promise<StepOutcome | undefined> | StepOutcome | undefined;
}

/** A registered kind, as the engine uses it. */
export interface KindEntry {
  name: string;
  /** The jobs of its steps: `run.<kind>`. */
  jobName: string;
  kind: RunKind<unknown, StepDefinition, unknown>;
  executors: Map<string, NormalExecutor>;
}

export interface StepJob {
  runId: string;
  key: string;
}

/** The singleton key of a step's job: one pending job per step of a run. */
export const stepJobKey = (runId: string, key: string) => `run:${runId}:${key}`;

export const KIND_NAME = /^[a-z][a-z0-9-]{0,59}$/;

export function normaliseExecutors(
  executors: Record<string, StepExecutor<never, never>>,
): Map<string, NormalExecutor> {
  const map = new Map<string, NormalExecutor>();
  for (const [type, executor] of Object.entries(executors)) {
    map.set(type, (typeof executor === "function" ? { run: executor } : executor) as NormalExecutor);
  }
  return map;
}

export function retryPolicyOf(entry: KindEntry, step: StepDefinition | undefined): RetryPolicy {
  const { retry } = entry.kind;
  if (!retry) return DEFAULT_RETRY;
  if (typeof retry === "function") return step ? retry(step) : DEFAULT_RETRY;
  return retry;
}

export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.slice(0, ERROR_TEXT_MAX);
}

/**
 * Definitions by hash. A hash names one content for ever, so a cached definition is never
 * stale, on any instance: the cache only saves a read per step.
 */
export class DefinitionCache {
  private readonly entries = new Map<string, unknown>();
  /** Hashes known to be in run_definitions, committed (read from it, or a run's step ran on it). */
  private readonly stored = new Set<string>();

  /** Whether the definition of `hash` is stored for sure: a start need not write it again. */
  isStored(hash: string): boolean {
    return this.stored.has(hash);
  }

  /** The definition of `hash` is committed (a run on it was read back, its step ran). */
  markStored(hash: string): void {
    if (this.stored.size >= CACHED_DEFINITIONS) this.stored.clear();
    this.stored.add(hash);
  }

  remember(hash: string, definition: unknown): void {
    this.entries.delete(hash);
    this.entries.set(hash, definition);
    if (this.entries.size > CACHED_DEFINITIONS) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  async get(db: Db, hash: string): Promise<unknown> {
    if (this.entries.has(hash)) {
      const definition = this.entries.get(hash);
      this.remember(hash, definition);
      return definition;
    }
    const definition = await loadDefinition(db, hash);
    this.remember(hash, definition);
    this.markStored(hash);
    return definition;
  }
}

export interface EngineCore {
  db: Kysely<Database>;
  jobs: JobQueue;
  log: JobLogger;
  kinds: Map<string, KindEntry>;
  definitions: DefinitionCache;
  maxDepth: number;
  /** The change feed's job is registered (a kind asked for onRunsChanged). */
  feedRegistered: boolean;
}

export function kindEntry(core: EngineCore, kind: string): KindEntry {
  const entry = core.kinds.get(kind);
  if (!entry) throw new Error(`Run kind "${kind}" is not registered`);
  return entry;
}

/** Runs `work` in `db` if it is a transaction already, else in a new one. */
export function inTransaction<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<Database>);
  return db.transaction().execute(work);
}
