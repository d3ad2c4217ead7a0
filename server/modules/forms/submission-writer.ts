/**
 * Stores public submissions durably before anyone is told they were received, many per
 * transaction: while one batch commits, the next gathers, so 50 people sending at once cost a
 * few commits, not 50 (group commit). Each batch writes, in one transaction, the submissions,
 * the day's counts, the notification and confirmation mails (the outbox) and the webhook
 * deliveries (jobs), so a submission never exists without its mail and hook, nor they without
 * it. Each submitter's promise settles only after that commit.
 *
 * The per-address limit is counted in the same transaction (the database's counters, so every
 * instance shares them): a submission past the limit is refused with 429 and stores nothing.
 *
 * A batch that fails for another reason than the database being away is retried one
 * submission at a time, so one bad submission cannot fail the others.
 *
 * Partial answers (partial-store.ts: a visitor's answers kept on each Next, with the funnel's
 * counts) go through the same batches, in a transaction of their own after the submissions'; a
 * stored submission deletes its respondent's partial answer in its own transaction.
 */
import { randomUUID } from "node:crypto";
import { MODULE_IDS } from "../../../resources/modules";
import { resumeDaysOf } from "../../../schemas/form-definition";
import { hit } from "../../auth/rate-limit";
import type { AppContext } from "../../context";
import { Inserts, insertRows } from "../../db/insert-rows";
import { isDatabaseUnavailable } from "../../db/unavailable";
import { HttpError } from "../../http/errors";
import type { AnyDb } from "../../resources/rules";
import type { PublishedForm } from "./forms.service";
import {
  deletePartials,
  hashResumeToken,
  isResumeToken,
  type NewPartial,
  type SavedPartial,
  writePartials,
} from "./partial-store";
import { claimFiles, countDay } from "./submission-counts";
import { mailsOf } from "./submission-mails";
import type { Tracking } from "./tracking";

/** The event the module's webhooks hear. */
export const SUBMISSION_EVENT = "submission.created";
const SUBMISSION_COLUMNS = {
  id: "uuid",
  form_id: "uuid",
  version: "integer",
  answers: "jsonb",
  tracking: "jsonb",
  utm_source: "text",
  idempotency_key: "text",
} as const;

/** Submissions written in one transaction at most. */
const MAX_BATCH = 200;

export interface NewSubmission {
  form: PublishedForm;
  answers: Record<string, unknown>;
  tracking: Tracking;
  idempotencyKey: string | null;
  /** Tokens of files uploaded for this submission's file fields. */
  files: string[];
  /** The sender's address: submissions are limited per address and minute. */
  ip: string;
  /** The respondent's resume token, if they have one: their partial answer goes with this. */
  resumeToken?: string | null;
}

export interface StoredSubmission {
  id: string;
  createdAt: string;
  /** A retry of a submission stored before (same Idempotency-Key): nothing new was written. */
  repeated: boolean;
}

type Pending =
  | {
      kind: "submission";
      item: NewSubmission;
      resolve: (stored: StoredSubmission) => void;
      reject: (error: unknown) => void;
    }
  | {
      kind: "partial";
      item: NewPartial;
      resolve: (saved: SavedPartial) => void;
      reject: (error: unknown) => void;
    };

/** Partial saves an address may make a minute, as many times its submissions (one a Next). */
const PARTIALS_PER_SUBMISSION = 4;

/** A new submission as other modules see it, in the transaction that stores it. */
export interface StoredForHooks {
  id: string;
  createdAt: string;
  form: PublishedForm;
  answers: Record<string, unknown>;
  tracking: Tracking;
  /**
   * The client the CRM made or found of the answer, set by its hook (which runs before the
   * automations' hook, whose events name that client); absent when it made none.
   */
  clientId?: string;
}

/**
 * What another module does with new submissions (the CRM makes clients of them), inside the
 * batch's transaction, so it happens exactly when the submissions are stored. It may answer a
 * function to run after the commit (live events).
 */
export type SubmissionHook = (trx: AnyDb, stored: StoredForHooks[]) => Promise<(() => void) | undefined>;

/** A submission refused by the per-address limit. */
export const tooMany = () => new HttpError(429, "Too many answers from your address; try again in a minute");

export class SubmissionWriter {
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  private idleWaiters: Array<() => void> = [];
  private readonly hooks: SubmissionHook[] = [];
  /**
   * Batches committing at once: one, on both databases. Every batch ends on rows the next one
   * needs too (the day's stats, its answers' clients), so two in flight mostly wait on each
   * other; one at a time, the next gathers all that arrived meanwhile, and fewer, larger
   * batches send fewer statements (bench:forms on PostgreSQL: 592/s with one, 488/s with four).
   */
  private readonly maxInFlight = 1;

  constructor(private readonly ctx: AppContext) {}

  /** Resolves once the submission (with its mails and deliveries) is committed. */
  submit(item: NewSubmission): Promise<StoredSubmission> {
    return new Promise((resolve, reject) => {
      this.queue.push({ kind: "submission", item, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once the partial answer (and its funnel counts) is committed. */
  savePartial(item: NewPartial): Promise<SavedPartial> {
    return new Promise((resolve, reject) => {
      this.queue.push({ kind: "partial", item, resolve, reject });
      this.schedule();
    });
  }

  /** Adds a module's work to every batch's transaction (see SubmissionHook). */
  onStored(hook: SubmissionHook): void {
    this.hooks.push(hook);
  }

  /** Resolves when nothing is waiting or being written (tests, shutdown). */
  idle(): Promise<void> {
    if (!this.inFlight && !this.queue.length) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Starts a batch on the next turn of the event loop, not at once: the requests that arrive
   * meanwhile join it (PGlite's statements never yield to the loop, so without this each batch
   * would hold one submission).
   */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || !this.queue.length) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.queue.length || this.inFlight >= this.maxInFlight) return;
      const batch = this.queue.splice(0, MAX_BATCH);
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        this.ctx.mailer.wake();
        if (!this.inFlight && !this.queue.length) for (const wake of this.idleWaiters.splice(0)) wake();
        this.schedule();
      });
      this.schedule();
    });
  }

  private async run(batch: Pending[]): Promise<void> {
    const submissions = batch.filter((p) => p.kind === "submission");
    const partials = batch.filter((p) => p.kind === "partial");
    if (submissions.length) await this.runKind(submissions, (items) => this.write(items));
    if (partials.length) await this.runKind(partials, (items) => this.writePartials(items));
  }

  /** Writes one kind's items together; when that fails, one at a time (see the top). */
  private async runKind<T, R>(
    batch: Array<{ item: T; resolve: (r: R) => void; reject: (e: unknown) => void }>,
    write: (items: T[]) => Promise<Array<R | HttpError>>,
  ): Promise<void> {
    const settle = (p: (typeof batch)[number], outcome: R | HttpError) =>
      outcome instanceof HttpError ? p.reject(outcome) : p.resolve(outcome);
    try {
      const stored = await write(batch.map((p) => p.item));
      for (const [i, p] of batch.entries()) settle(p, stored[i]);
    } catch (error) {
      if (batch.length === 1 || isDatabaseUnavailable(error)) {
        for (const p of batch) p.reject(error);
        return;
      }
      for (const p of batch) {
        try {
          settle(p, (await write([p.item]))[0]);
        } catch (single) {
          p.reject(single);
        }
      }
    }
  }

  /** Per-address limit: which of `items` are past it (counted, the refused ones too). */
  private async refused<T extends { ip: string }>(trx: AnyDb, items: T[], kind = "forms", times = 1) {
    const byIp = new Map<string, T[]>();
    for (const item of items) byIp.set(item.ip, [...(byIp.get(item.ip) ?? []), item]);
    const out = new Set<T>();
    for (const [ip, mine] of byIp) {
      const count = Number(await hit(trx as unknown as AppContext["db"], `${kind}:${ip}`, 60, mine.length));
      const over = Math.min(mine.length, count - this.ctx.config.formsRateLimit * times);
      for (let i = 0; i < over; i++) out.add(mine[mine.length - 1 - i]);
    }
    return out;
  }

  /** Partial answers: limited per address as submissions are (more of them: one a page). */
  private async writePartials(items: NewPartial[]): Promise<Array<SavedPartial | HttpError>> {
    const db = this.ctx.db as unknown as AnyDb;
    const refused = await this.refused(db, items, "forms-partial", PARTIALS_PER_SUBMISSION);
    const accepted = items.filter((i) => !refused.has(i));
    const saved = accepted.length
      ? await db.transaction().execute((trx) =>
          writePartials(
            trx,
            accepted.map((i) => ({ ...i, days: resumeDaysOf(i.form.definition.settings) })),
          ),
        )
      : [];
    return items.map((i) => (refused.has(i) ? tooMany() : (saved.shift() as SavedPartial)));
  }

  private async write(items: NewSubmission[]): Promise<Array<StoredSubmission | HttpError>> {
    const db = this.ctx.db as unknown as AnyDb;
    // Counted on their own, before the transaction: a batch's transaction never holds the
    // address's counter row, so batches from one address commit side by side.
    const refused = await this.refused(db, items);
    const out = await db.transaction().execute(async (trx) => {
      const accepted = items.filter((i) => !refused.has(i));
      if (!accepted.length) return { result: items.map(() => tooMany()), fresh: [], after: [] };
      const { rows: inserted } = await trx.executeQuery(
        insertRows<{
          id: string;
          form_id: string;
          idempotency_key: string | null;
          created_at: Date | string;
        }>(
          "form_submissions",
          SUBMISSION_COLUMNS,
          accepted.map((s) => ({
            id: randomUUID(),
            form_id: s.form.id,
            version: s.form.version,
            answers: s.answers,
            tracking: s.tracking,
            utm_source: s.tracking.parameters.utm_source ?? "",
            idempotency_key: s.idempotencyKey,
          })),
          "on conflict (form_id, idempotency_key) do nothing returning id, form_id, idempotency_key, created_at",
        ),
      );
      const byKey = new Map(
        inserted.filter((r) => r.idempotency_key).map((r) => [`${r.form_id}:${r.idempotency_key}`, r]),
      );
      const unkeyed = inserted.filter((r) => !r.idempotency_key);
      const result: Array<StoredSubmission | HttpError> = [];
      const fresh: Array<{ item: NewSubmission; id: string; createdAt: string }> = [];
      for (const item of items) {
        if (refused.has(item)) {
          result.push(tooMany());
          continue;
        }
        const key = `${item.form.id}:${item.idempotencyKey}`;
        // Unkeyed rows come back in the order given; a keyed one is new when this statement wrote it.
        const row = item.idempotencyKey ? byKey.get(key) : unkeyed.shift();
        if (row) {
          if (item.idempotencyKey) byKey.delete(key);
          const createdAt = new Date(row.created_at).toISOString();
          fresh.push({ item, id: row.id, createdAt });
          result.push({ id: row.id, createdAt, repeated: false });
          continue;
        }
        const earlier = await trx
          .selectFrom("form_submissions")
          .select(["id", "created_at"])
          .where("form_id", "=", item.form.id)
          .where("idempotency_key", "=", item.idempotencyKey)
          .executeTakeFirstOrThrow();
        result.push({
          id: earlier.id,
          createdAt: new Date(earlier.created_at).toISOString(),
          repeated: true,
        });
      }
      const after = await this.sideEffects(trx, fresh);
      return { result, fresh, after };
    });
    for (const run of out.after) run();
    const forms = new Set(out.fresh.map((f) => f.item.form.id));
    for (const formId of forms)
      this.ctx.events.publish({
        resource: `forms/${formId}/submissions`,
        moduleID: MODULE_IDS.forms,
        type: "created",
        ids: out.fresh.filter((f) => f.item.form.id === formId).map((f) => f.id),
        actorId: null,
      });
    return out.result;
  }

  /** The day's counts, claimed files, mails and webhook deliveries of new submissions. */
  private async sideEffects(
    trx: AnyDb,
    fresh: Array<{ item: NewSubmission; id: string; createdAt: string }>,
  ): Promise<Array<() => void>> {
    if (!fresh.length) return [];
    await claimFiles(trx, fresh);
    await deletePartials(
      trx,
      fresh
        .filter(({ item }) => isResumeToken(item.resumeToken))
        .map(({ item }) => ({ formId: item.form.id, hash: hashResumeToken(item.resumeToken as string) })),
    );
    // The mails, the webhook deliveries and their jobs in one statement (Inserts).
    const together = new Inserts();
    const mails = fresh.flatMap(({ item }) => mailsOf(item));
    await this.ctx.mailer.queue(mails, trx as unknown as AppContext["db"], together);
    await this.ctx.webhooks.queueMany(
      MODULE_IDS.forms,
      SUBMISSION_EVENT,
      fresh.map(({ item, id, createdAt }) => ({
        form: { id: item.form.id, slug: item.form.slug, name: item.form.name, version: item.form.version },
        submission: { id, createdAt, answers: item.answers, tracking: item.tracking },
      })),
      trx as unknown as AppContext["db"],
      together,
    );
    await together.send(trx);
    const after: Array<() => void> = [];
    const stored = fresh.map(({ item, id, createdAt }) => ({
      id,
      createdAt,
      form: item.form,
      answers: item.answers,
      tracking: item.tracking,
    }));
    for (const hook of this.hooks) {
      const run = await hook(trx, stored);
      if (run) after.push(run);
    }
    // Last: the day's row is shared by every batch (countDay).
    await countDay(trx, fresh);
    return after;
  }
}
