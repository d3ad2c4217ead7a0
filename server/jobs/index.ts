/**
 * Durable jobs (ARCHITECTURE.md §5): PDF processing, thumbnails, sequences, automation
 * delays and mail go through one `jobs` table, on PGlite and PostgreSQL alike.
 *
 * - **At least once.** A job survives a crash or restart and runs again, so handlers must be
 *   idempotent (check whether the work is done already, write with upserts, use the job id
 *   as an idempotency key towards outside services).
 * - **One run at a time.** A job is taken with `FOR UPDATE SKIP LOCKED` under a lease that
 *   heartbeats extend; when its worker dies, another takes it once the lease has run out.
 * - **Retries** with exponential backoff (retry.ts) until `maxAttempts`, then 'failed' with
 *   `last_error`. Done jobs are deleted after 7 days; failed ones are kept.
 *
 * @example
 * const jobs = createJobQueue({ db, log, reclaimOnStart: database.kind === "pglite" });
 * jobs.register<{ to: string }>("mail.send", async ({ payload }) => send(payload.to));
 * await jobs.start();
 * await jobs.enqueue("mail.send", { to: "a@example.com" });
 */
export type {
  EnqueueOptions,
  JobContext,
  JobEndPart,
  JobEndQuery,
  JobHandler,
  JobLogger,
  JobQueue,
  JobQueueOptions,
  JobRecord,
  JobState,
  RegisterOptions,
} from "./contract";
export { createJobQueue } from "./queue";
export { MAX_RETRY_DELAY_MS, retryDelayMs } from "./retry";
