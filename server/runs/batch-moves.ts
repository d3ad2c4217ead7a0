/**
 * The moves of a batch (step-runner.ts: the steps of one run due now, run in one transaction)
 * kept in memory and written in one statement when the batch ends (writeMoves): the steps done
 * with their records, the step the run is at, the run's cursor and outputs, and the job's end
 * when the run finished or waits. One statement per transaction instead of one per step.
 *
 * It stays exact because nothing reads the run's rows before they are written:
 * - the steps of the batch see the run as it is in memory (its outputs, its cursor);
 * - every other write or read of the engine in the transaction writes them first (flushMoves:
 *   an end, a park on an event, a failed attempt, and the engine's calls an executor may make,
 *   `exit`, `signal`, `cancel`…, which read runs from the database);
 * - a run reaches each step once: the keys of its steps are read with its lock, and a flow that
 *   names one of them, or one the batch reached, is written first and then moved as before,
 *   which fails the run ("The flow came back to step …");
 * - a throw undoes the transaction, and these moves with it.
 */
import type { Transaction } from "kysely";
import type { Database } from "../db";
import type { Db, Run } from "./contract";
import type { EngineCore, KindEntry } from "./core";
import { type AddedStep, writeMoves } from "./run-moves";
import { type Carrier, enqueueStep } from "./step-jobs";

type Trx = Transaction<Database>;

/** A step's record once done (transitions.ts Completion, as the batch keeps it). */
export interface DoneRecord {
  attempt: number;
  startedAt: Date | null;
  input?: unknown;
  output?: unknown;
}

/** The batch of each transaction that runs one. */
const batchIn = new WeakMap<Db, BatchMoves>();

/**
 * Writes the moves kept for `db`'s transaction, if any: before anything reads or writes its
 * runs. The rest of its batch then writes each move at once: what the engine did meanwhile (an
 * executor exited its own run) shows in the next move, as it does outside a batch.
 */
export async function flushMoves(db: Db): Promise<void> {
  const batch = batchIn.get(db);
  if (!batch) return;
  batch.direct = true;
  await batch.flush();
}

export class BatchMoves {
  /** Keys of the steps the run reached: read with its lock, and reached in this batch. */
  private readonly reached: Set<string>;
  /** The step whose row exists, done in this batch (the first move after a write). */
  private done: ({ key: string; finishedAt: Date } & DoneRecord) | undefined;
  /** Steps reached since the last write, in order: done, and the last one scheduled. */
  private added: AddedStep[] = [];
  /** The run as the moves left it (what the batch's steps see). */
  private current: Run | undefined;
  /** The next step is due later: the job is queued again for then, in the write. */
  private later = false;
  /** The carrier could not take the next step (stopping): it gets a job of its own. */
  private enqueue: { key: string; dueAt: Date } | undefined;
  private carrier: Carrier | undefined;
  /** The engine was called in the transaction (flushMoves): moves are written at once from then on. */
  direct = false;

  constructor(
    private readonly core: EngineCore,
    private readonly entry: KindEntry,
    private readonly trx: Trx,
    reached: readonly string[],
  ) {
    this.reached = new Set(reached);
    batchIn.set(trx, this);
  }

  /**
   * Whether a move to `next` may be kept: not when the run reached it already (the flow comes
   * back: written at once, the move fails the run), nor once the engine was called.
   */
  keeps(next: string | null): boolean {
    return !this.direct && (next === null || !this.reached.has(next));
  }

  /** The step at the cursor done and the run at `next`, in memory; answers the run moved. */
  async advance(
    run: Run,
    key: string,
    record: DoneRecord,
    outputs: Record<string, unknown>,
    next: { key: string; type: string; dueAt: Date; later: boolean },
    carrier: Carrier | undefined,
  ): Promise<Run> {
    this.markDone(key, record);
    const seq = run.stepsReached + 1;
    this.added.push({
      step_key: next.key,
      step_type: next.type,
      seq,
      status: "scheduled",
      attempt: 0,
      due_at: next.dueAt,
    });
    this.reached.add(next.key);
    this.later = next.later;
    this.carrier = carrier;
    this.current = {
      ...run,
      status: next.later ? "waiting" : "running",
      cursor: next.key,
      awaiting: null,
      outputs,
      stepsReached: seq,
      updatedAt: new Date(),
    };
    const carried = await carrier?.carry(this.trx, next.key, next.later ? next.dueAt : undefined);
    this.enqueue = carried ? undefined : { key: next.key, dueAt: next.dueAt };
    return this.current;
  }

  /** The last step done and the run finished, in memory (its job done in the write). */
  finish(
    run: Run,
    key: string,
    record: DoneRecord,
    outputs: Record<string, unknown>,
    carrier?: Carrier,
  ): Run {
    this.markDone(key, record);
    const now = new Date();
    this.carrier = carrier;
    this.later = false;
    this.current = {
      ...run,
      status: "finished",
      cursor: null,
      awaiting: null,
      outputs,
      finishedAt: now,
      updatedAt: now,
    };
    return this.current;
  }

  /**
   * Writes the moves kept (one statement), then what follows a run's end (its kind's
   * onRunEnded) or a next step the job could not carry. Answers the run as written (undefined:
   * nothing was kept, or the run was no longer active).
   */
  async flush(): Promise<Run | undefined> {
    const { done, current } = this;
    if (!done || !current) return undefined;
    const { added, enqueue } = this;
    const finished = current.status === "finished";
    this.done = undefined;
    this.added = [];
    this.enqueue = undefined;
    const last = added.at(-1);
    const job = finished
      ? this.carrier?.endWith?.(null)
      : this.later && last
        ? this.carrier?.endWith?.(last.step_key, last.due_at)
        : undefined;
    const moved = await writeMoves(this.trx, { run: current, done, added, job });
    if (!moved) return undefined;
    if (enqueue) await enqueueStep(this.core, this.trx, this.entry, moved.id, enqueue.key, enqueue.dueAt);
    if (finished) await this.entry.kind.onRunEnded?.(this.trx, moved);
    return moved;
  }

  /** The step `key` done: the row that exists, or the one this batch reached (still to insert). */
  private markDone(key: string, record: DoneRecord): void {
    const finishedAt = new Date();
    const last = this.added.at(-1);
    if (last?.step_key === key && last.status === "scheduled") {
      Object.assign(last, {
        status: "done",
        attempt: record.attempt,
        started_at: record.startedAt,
        finished_at: finishedAt,
        input: record.input,
        output: record.output,
      } satisfies Partial<AddedStep>);
      return;
    }
    if (this.done) throw new Error(`Step "${key}" is not the one its batch is at`);
    this.done = { key, finishedAt, ...record };
  }
}
