/**
 * The run engine (docs/runs.md): modules register a kind of run (its flow, step executors,
 * exit check and hooks), then start, exit, signal, cancel and retry runs; each step runs as a
 * job of the durable queue (step-runner.ts). contract.ts holds the types.
 */
import type { Kysely } from "kysely";
import type { Database } from "../db";
import { conflict, notFound } from "../http/errors";
import type { JobLogger, JobQueue } from "../jobs";
import { flushMoves } from "./batch-moves";
import type { Db, Run, RunEngine, StartResult } from "./contract";
import {
  DEFAULT_CONCURRENCY,
  DefinitionCache,
  type EngineCore,
  inTransaction,
  KIND_NAME,
  type KindEntry,
  kindEntry,
  MAX_RUN_DEPTH,
  normaliseExecutors,
  STEP_JOB_ATTEMPTS,
  stepJobKey,
} from "./core";
import { RunChainError } from "./errors";
import { registerFeed } from "./feed";
import { canonicalJson, hashOfCanonical } from "./rows";
import { countRuns, getRun, listRuns, stepsOf } from "./runs.reads";
import {
  activeRunByDedupeKey,
  deleteOwnerRuns,
  deleteQueuedJobs,
  insertRun,
  lockActiveRuns,
  lockRun,
  saveDefinition,
  startRun,
  subjectsAwaiting,
  updateRun,
  updateStep,
} from "./runs.repository";
import { enqueueStep } from "./step-jobs";
import { stepJobHandler } from "./step-runner";
import { completeStep, endRun } from "./transitions";

export interface RunEngineOptions {
  db: Kysely<Database>;
  jobs: JobQueue;
  log: JobLogger;
  /** Deepest chain of runs causing runs (default MAX_RUN_DEPTH). */
  maxDepth?: number;
}

const MAX_PAGE_SIZE = 200;

/** A definition object's canonical form and hash (canonicalDefinition), kept per object. */
const canonicalForms = new WeakMap<object, { hash: string; definition: unknown }>();

/**
 * A definition as the database will give it back (JSON only, the same on every instance) and
 * its hash. Kept per object: a caller that starts many runs of one definition passes the same
 * object (an automation's flow, one per published version), which must not change afterwards.
 */
function canonicalDefinition(value: unknown): { hash: string; definition: unknown } {
  const kept = value !== null && typeof value === "object" ? canonicalForms.get(value) : undefined;
  if (kept) return kept;
  const canonical = canonicalJson(value);
  const form = { hash: hashOfCanonical(canonical), definition: JSON.parse(canonical) as unknown };
  if (value !== null && typeof value === "object") canonicalForms.set(value, form);
  return form;
}

/**
 * Creates the engine on the app's database and job queue (app.ts: `ctx.runs`).
 *
 * @example
 * ctx.runs.registerKind("sequence", {
 *   flow: linearFlow,
 *   executors: {
 *     email: async ({ trx, run, step }) => { await ctx.mailer.queue([mailOf(run, step)], trx); },
 *     wait: ({ step }) => ({ nextAt: delayEnd(new Date(), step.delay) }),
 *   },
 *   exitCheck: async (trx, run) => ((await optedOut(trx, run.subject)) ? "opted-out" : null),
 * });
 * await ctx.runs.start(trx, { kind: "sequence", ownerKey: sequence.id, version: sequence.version,
 *   definition: { steps: sequence.steps }, subject: { type: "client", id: client.id } });
 */
export function createRunEngine(options: RunEngineOptions): RunEngine {
  const core: EngineCore = {
    db: options.db,
    jobs: options.jobs,
    log: options.log,
    kinds: new Map(),
    definitions: new DefinitionCache(),
    maxDepth: options.maxDepth ?? MAX_RUN_DEPTH,
    feedRegistered: false,
  };

  /** The chain fields of a run `parent` causes, or RunChainError. */
  function chainOf(parent: Run | null | undefined, kind: string, ownerKey: string) {
    if (!parent) return { depth: 0, parentRunId: null, lineage: [] as string[] };
    const depth = parent.depth + 1;
    if (depth > core.maxDepth) {
      throw new RunChainError("depth", `Runs may cause other runs ${core.maxDepth} deep at most`);
    }
    const lineage = [...parent.lineage, `${parent.kind}:${parent.ownerKey}`];
    if (lineage.includes(`${kind}:${ownerKey}`)) {
      throw new RunChainError(
        "loop",
        `A run of ${kind} "${ownerKey}" caused this one: it does not start again`,
      );
    }
    return { depth, parentRunId: parent.id, lineage };
  }

  async function definitionOf(db: Db, run: Run) {
    return core.definitions.get(db, run.definitionHash);
  }

  const engine: RunEngine = {
    registerKind(name, kind) {
      if (!KIND_NAME.test(name))
        throw new Error(`Run kind "${name}" must be lower-case letters, digits and dashes`);
      if (core.kinds.has(name)) throw new Error(`Run kind "${name}" is registered already`);
      const entry: KindEntry = {
        name,
        jobName: `run.${name}`,
        kind: kind as unknown as KindEntry["kind"],
        executors: normaliseExecutors(kind.executors as never),
      };
      core.kinds.set(name, entry);
      if (kind.onRunsChanged && !core.feedRegistered) {
        core.feedRegistered = true;
        registerFeed(core);
      }
      core.jobs.register(entry.jobName, stepJobHandler(core, entry), {
        concurrency: kind.concurrency ?? DEFAULT_CONCURRENCY,
        maxAttempts: STEP_JOB_ATTEMPTS,
      });
    },

    async start(db, input) {
      const entry = kindEntry(core, input.kind);
      if (!input.ownerKey) throw new Error("A run needs its owner's key");
      const chain = chainOf(input.parent, input.kind, input.ownerKey);
      const { hash, definition } = canonicalDefinition(input.definition ?? null);
      core.definitions.remember(hash, definition);
      const newRun = {
        kind: input.kind,
        ownerKey: input.ownerKey,
        version: input.version ?? 1,
        hash,
        subject: input.subject ?? null,
        context: input.context ?? {},
        dedupeKey: input.dedupeKey ?? null,
        ...chain,
      };
      const first = entry.kind.flow.first(definition);
      if (first !== null) {
        // The usual start: one statement, in the caller's transaction or on its own.
        const now = new Date();
        const dueAt = input.startAt && input.startAt > now ? input.startAt : now;
        const run = await startRun(db, {
          ...newRun,
          definition: core.definitions.isStored(hash) ? undefined : definition,
          // A key the definition lacks is scheduled all the same: running it fails the run visibly there.
          first: {
            key: first,
            type: entry.kind.flow.step(definition, first)?.type ?? "unknown",
            dueAt,
            waiting: dueAt > now,
          },
          job: (rows) => core.jobs.enqueueFrom(entry.jobName, rows, { maxAttempts: STEP_JOB_ATTEMPTS }),
          jobShape: entry.jobName,
        });
        if (run) {
          // Committed already when not in a caller's transaction: its step may be taken now,
          // and its definition is stored for the next starts.
          if (!db.isTransaction) {
            core.definitions.markStored(hash);
            core.jobs.wake(entry.jobName);
          }
          return { run, created: true } as StartResult<never>;
        }
        const existing = await activeRunByDedupeKey(db, input.kind, input.dedupeKey as string);
        // The holder ended between the insert and this read: start afresh.
        if (!existing) return engine.start(db, input);
        return { run: existing, created: false } as StartResult<never>;
      }
      // Nothing to do: the run finishes at once, its kind's onRunEnded told in its transaction.
      return inTransaction(db, async (trx) => {
        if (!core.definitions.isStored(hash)) await saveDefinition(trx, hash, definition);
        const inserted = await insertRun(trx, newRun);
        if (!inserted) {
          const existing = await activeRunByDedupeKey(trx, input.kind, input.dedupeKey as string);
          if (!existing) return engine.start(trx, input);
          return { run: existing, created: false } as StartResult<never>;
        }
        return {
          run: await endRun(core, trx, entry, inserted, "finished"),
          created: true,
        } as StartResult<never>;
      });
    },

    exit(db, input) {
      if (!input.reason) throw new Error("An exit needs its reason");
      return inTransaction(db, async (trx) => {
        await flushMoves(trx);
        const runs = await lockActiveRuns(trx, {
          subject: input.subject,
          kind: input.kind,
          ownerKey: input.ownerKey,
        });
        const exited: Run[] = [];
        for (const run of runs) {
          const entry = kindEntry(core, run.kind);
          exited.push(await endRun(core, trx, entry, run, "exited", { exitReason: input.reason }));
        }
        return exited;
      });
    },

    signal(db, input) {
      if (!input.subject && !input.runId) throw new Error("A signal names a subject or a run");
      return inTransaction(db, async (trx) => {
        await flushMoves(trx);
        const runs = await lockActiveRuns(trx, {
          subject: input.subject,
          runId: input.runId,
          kind: input.kind,
          awaiting: input.event,
        });
        const resumed: Run[] = [];
        for (const run of runs) {
          const key = run.cursor as string;
          const { step } = (await lockRun(trx, run.id, key)) ?? {};
          if (step?.status !== "waiting") continue;
          const entry = kindEntry(core, run.kind);
          // The timeout's job goes first: the next step may reuse nothing of it, but it must not fire.
          await deleteQueuedJobs(trx, entry.jobName, [stepJobKey(run.id, key)]);
          const output = { resumedBy: "event", event: input.event, data: input.data ?? null };
          resumed.push(
            await completeStep(core, trx, entry, run, await definitionOf(trx, run), key, {
              output,
              attempt: step.attempt,
              startedAt: step.startedAt,
            }),
          );
        }
        return resumed;
      });
    },

    async signalEach(db, input) {
      if (!input.signals.length) return [];
      await flushMoves(db);
      const awaiting = await subjectsAwaiting(db, {
        event: input.event,
        kind: input.kind,
        subjects: input.signals.map((s) => s.subject),
      });
      const resumed: Run[] = [];
      for (const { subject, data } of input.signals)
        if (awaiting.has(`${subject.type}:${subject.id}`))
          resumed.push(...(await engine.signal(db, { event: input.event, kind: input.kind, subject, data })));
      return resumed;
    },

    cancel(runId, db = core.db, reason) {
      return inTransaction(db, async (trx) => {
        await flushMoves(trx);
        const locked = await lockRun(trx, runId, null);
        if (!locked) throw notFound("Run not found");
        const { run } = locked;
        if (run.status !== "running" && run.status !== "waiting" && run.status !== "failed") {
          throw conflict("This run has ended already");
        }
        return endRun(core, trx, kindEntry(core, run.kind), run, "cancelled", { exitReason: reason });
      });
    },

    retryFromFailed(runId, db = core.db) {
      return inTransaction(db, async (trx) => {
        await flushMoves(trx);
        const locked = await lockRun(trx, runId, null);
        if (!locked) throw notFound("Run not found");
        const { run } = locked;
        if (run.status !== "failed") throw conflict("Only a failed run can be run again");
        const key = run.cursor;
        const step = key === null ? undefined : (await lockRun(trx, runId, key))?.step;
        if (key === null || step?.status !== "failed") {
          throw conflict("This run did not fail on a step: it cannot be run again from one");
        }
        const entry = kindEntry(core, run.kind);
        const now = new Date();
        // Fresh attempts; the last error stays on the step until an attempt succeeds.
        await updateStep(trx, runId, key, { status: "scheduled", attempt: 0, dueAt: now, finishedAt: null });
        const again = await updateRun(trx, run, { status: "running", error: null, finishedAt: null }, [
          "failed",
        ]);
        await enqueueStep(core, trx, entry, runId, key, now);
        return again as Run;
      });
    },

    async get(runId, db = core.db) {
      await flushMoves(db);
      const run = await getRun(db, runId);
      if (!run) return undefined;
      return { ...run, definition: await definitionOf(db, run), steps: await stepsOf(db, runId) };
    },

    async list(query, db = core.db) {
      await flushMoves(db);
      const pageSize = Math.min(Math.max(1, Math.floor(query.pageSize ?? 10)), MAX_PAGE_SIZE);
      const page = Math.max(1, Math.floor(query.page ?? 1));
      return listRuns(db, {
        kind: query.kind,
        ownerKey: query.ownerKey,
        subject: query.subject,
        status: query.status,
        step: query.step,
        startedFrom: query.startedFrom,
        startedBefore: query.startedBefore,
        contextText: query.contextText,
        limit: pageSize,
        offset: (page - 1) * pageSize,
      });
    },

    async counts(kind, ownerKeys, db = core.db) {
      await flushMoves(db);
      return countRuns(db, kind, ownerKeys);
    },

    removeOwner(db, kind, ownerKey) {
      return inTransaction(db, async (trx) => {
        await flushMoves(trx);
        return deleteOwnerRuns(trx, kind, ownerKey, `run.${kind}`);
      });
    },
  };
  return engine;
}
