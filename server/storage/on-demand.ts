/**
 * Files made on first request and kept in storage: the asset manager's image renditions and
 * a catalogue page's zoom size. One piece for every such file:
 *
 * - **Once.** Concurrent requests in one instance share one promise; across instances a claim
 *   row (`on_demand_claims`, a lease) lets exactly one make it while the others wait for the
 *   object to appear (a broadcast says when; a poll covers a lost message). A claim whose
 *   holder died expires and is taken over.
 * - **Cached.** The result is stored under its key; later requests are a `head`, nothing more.
 * - **Bounded.** Each source says how many objects one address without a session may have
 *   made per minute (the count is in the database, shared by every instance); past it, 429.
 *   Objects already made are never limited. A source bounds its own work (the PDF zoom source
 *   runs at most one renderer per core; sharp has its thread pool).
 *
 * A source is an entry in the registry: it names the keys it makes and how to make them.
 *
 * @example
 * const onDemand = onDemandOf(ctx);
 * onDemand.register({ name: "pdf-zoom", anonymousPerMinute: 60, owns: isZoomKey, make: renderZoom });
 * const object = await onDemand.ensure(key, { anonymous: true, address: request.ip });
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import { Readable } from "node:stream";
import { sql } from "kysely";
import { hit } from "../auth/rate-limit";
import type { AppContext } from "../context";
import { HttpError, notFound } from "../http/errors";
import type { StoredObject } from "./storage";

/** What a source makes: the bytes and their type. */
export interface Made {
  body: Buffer;
  contentType: string;
}

export interface OnDemandSource {
  /** Short name, for the log and the rate limit's key. */
  name: string;
  /** Objects one address without a session may have made per minute. */
  anonymousPerMinute: number;
  /** Whether `key` is one of this source's objects (no I/O). */
  owns(key: string): boolean;
  /** Makes the object; throws an HttpError (404, 422) when the key names nothing it can make. */
  make(key: string, signal: AbortSignal): Promise<Made>;
}

/** Who asks: an address without a session is rate limited. */
export interface Caller {
  anonymous: boolean;
  address: string;
}

export interface OnDemandOptions {
  /** How long a claim holds without its holder finishing (then another instance takes over). */
  claimMs?: number;
  /** How long a request waits for an object another request is making. */
  waitMs?: number;
  /** How often a waiter looks at storage when no broadcast came. */
  pollMs?: number;
}

type Deps = Pick<AppContext, "db" | "storage" | "broadcast" | "log">;

/** Broadcast channel: "the object at key is made (or failed)". */
const CHANNEL = "on_demand_made";
/** A failure is remembered this long, so `start` can tell a poller it will not come. */
const FAILURE_MEMORY_MS = 60_000;

interface Outcome {
  key: string;
  error?: { statusCode: number; message: string };
}

export class OnDemand {
  private readonly sources: OnDemandSource[] = [];
  private readonly inFlight = new Map<string, Promise<StoredObject>>();
  private readonly waiters = new Map<string, Set<(outcome: Outcome) => void>>();
  private readonly failures = new Map<string, { error: HttpError; at: number }>();
  private readonly owner = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly claimMs: number;
  private readonly waitMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly deps: Deps,
    options: OnDemandOptions = {},
  ) {
    this.claimMs = options.claimMs ?? 90_000;
    this.waitMs = options.waitMs ?? 120_000;
    this.pollMs = options.pollMs ?? 500;
    deps.broadcast.subscribe(CHANNEL, (payload) => {
      let outcome: Outcome;
      try {
        outcome = JSON.parse(payload) as Outcome;
      } catch {
        return;
      }
      for (const wake of this.waiters.get(outcome.key) ?? []) wake(outcome);
    });
  }

  /** Adds a source; the first whose `owns` matches a key makes it. */
  register(source: OnDemandSource): void {
    this.sources.push(source);
  }

  sourceFor(key: string): OnDemandSource | undefined {
    return this.sources.find((source) => source.owns(key));
  }

  /** The object at `key`, made first when it is missing and a source makes such keys. */
  async ensure(key: string, caller: Caller): Promise<StoredObject> {
    const stored = await this.deps.storage.head(key);
    if (stored) return stored;
    const source = this.sourceFor(key);
    if (!source) throw notFound("File not found");
    await this.admit(source, caller);
    return this.once(key, source);
  }

  /**
   * The object when it exists; otherwise starts making it (once, as `ensure`) and answers null
   * at once, for callers that ask again later (view-image.dll's pdf-generate variant). A make
   * that failed recently rethrows its error.
   */
  async start(key: string, caller: Caller): Promise<StoredObject | null> {
    const stored = await this.deps.storage.head(key);
    if (stored) return stored;
    const failed = this.failures.get(key);
    if (failed) {
      if (Date.now() - failed.at < FAILURE_MEMORY_MS) throw failed.error;
      this.failures.delete(key);
    }
    const source = this.sourceFor(key);
    if (!source) throw notFound("File not found");
    if (!this.inFlight.has(key)) {
      await this.admit(source, caller);
      // Its outcome is read by the next call (the object, or the remembered failure).
      this.once(key, source).catch(() => {});
    }
    return null;
  }

  private async admit(source: OnDemandSource, caller: Caller): Promise<void> {
    if (!caller.anonymous) return;
    const count = await hit(this.deps.db, `on-demand:${source.name}:${caller.address}`, 60);
    if (count > source.anonymousPerMinute) {
      throw new HttpError(429, "Too many images requested at once; try again in a minute");
    }
  }

  /** One make per key in this instance; the claim makes it one across instances. */
  private once(key: string, source: OnDemandSource): Promise<StoredObject> {
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.claimOrWait(key, source)
        .then((stored) => {
          this.failures.delete(key);
          return stored;
        })
        .catch((error: unknown) => {
          if (error instanceof HttpError) this.failures.set(key, { error, at: Date.now() });
          throw error;
        })
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async claimOrWait(key: string, source: OnDemandSource): Promise<StoredObject> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      if (await this.claim(key)) {
        try {
          // Made by another instance between our look and our claim?
          return (await this.deps.storage.head(key)) ?? (await this.make(key, source));
        } finally {
          await this.release(key);
        }
      }
      const stored = await this.waitForOther(key, deadline);
      if (stored) return stored;
      if (Date.now() >= deadline) {
        throw new HttpError(503, "This image is taking too long to make; try again shortly");
      }
      // The holder's claim ran out without an object: try to take it over.
    }
  }

  private async make(key: string, source: OnDemandSource): Promise<StoredObject> {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new HttpError(503, "This image took too long to make")),
      this.claimMs - 5_000,
    );
    try {
      const made = await source.make(key, controller.signal);
      const stored = await this.deps.storage.put(key, Readable.from([made.body]), made.contentType);
      this.announce({ key });
      return stored;
    } catch (error) {
      const status = error instanceof HttpError ? error.statusCode : 500;
      const message = error instanceof Error ? error.message : String(error);
      this.announce({ key, error: { statusCode: status, message } });
      if (!(error instanceof HttpError)) {
        this.deps.log.error({ err: error, key, source: source.name }, "could not make an on-demand file");
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private announce(outcome: Outcome): void {
    this.deps.broadcast.publish(CHANNEL, JSON.stringify(outcome)).catch((err: unknown) => {
      // Waiters on other instances poll storage as well; they only learn it later.
      this.deps.log.warn({ err, key: outcome.key }, "could not announce an on-demand file");
    });
  }

  /** Waits for another holder's outcome: the object, an error, or null when its claim is gone. */
  private async waitForOther(key: string, deadline: number): Promise<StoredObject | null> {
    let wake: (outcome: Outcome) => void = () => {};
    const woken = new Promise<Outcome>((resolve) => {
      wake = resolve;
    });
    const set = this.waiters.get(key) ?? new Set();
    this.waiters.set(key, set);
    set.add(wake);
    try {
      while (Date.now() < deadline) {
        let timer: NodeJS.Timeout | undefined;
        const outcome = await Promise.race([
          woken,
          new Promise<null>((resolve) => {
            timer = setTimeout(() => resolve(null), this.pollMs);
          }),
        ]);
        clearTimeout(timer);
        if (outcome?.error) {
          const { statusCode, message } = outcome.error;
          // The maker's own failure is in its log; a waiter says only that it did not work out.
          throw statusCode < 500
            ? new HttpError(statusCode, message)
            : new HttpError(503, "This image could not be made; try again shortly");
        }
        const stored = await this.deps.storage.head(key);
        if (stored) return stored;
        if (!(await this.claimHeld(key))) return null;
      }
      return null;
    } finally {
      set.delete(wake);
      if (!set.size) this.waiters.delete(key);
    }
  }

  /** Takes the claim on `key` when nobody holds it or its holder's time ran out. */
  private async claim(key: string): Promise<boolean> {
    const { rows } = await sql<{ owner: string }>`
      insert into on_demand_claims (key, owner, expires_at)
      values (${key}, ${this.owner}, now() + ${`${this.claimMs} milliseconds`}::interval)
      on conflict (key) do update set owner = excluded.owner, expires_at = excluded.expires_at
        where on_demand_claims.expires_at < now()
      returning owner`.execute(this.deps.db);
    return rows.length === 1;
  }

  private async claimHeld(key: string): Promise<boolean> {
    const row = await this.deps.db
      .selectFrom("on_demand_claims")
      .select("key")
      .where("key", "=", key)
      .where(sql<boolean>`expires_at >= now()`)
      .executeTakeFirst();
    return Boolean(row);
  }

  private async release(key: string): Promise<void> {
    try {
      await this.deps.db
        .deleteFrom("on_demand_claims")
        .where("key", "=", key)
        .where("owner", "=", this.owner)
        .execute();
    } catch (err) {
      // It expires by itself; a later request takes it over then.
      this.deps.log.warn({ err, key }, "could not release an on-demand claim");
    }
  }
}

const instances = new WeakMap<object, OnDemand>();

/**
 * The app's one OnDemand (per built app, keyed by its context): the assets route serves what
 * it makes, modules register their sources in it.
 */
export function onDemandOf(ctx: Deps): OnDemand {
  const known = instances.get(ctx);
  if (known) return known;
  const onDemand = new OnDemand(ctx);
  instances.set(ctx, onDemand);
  return onDemand;
}
