/**
 * A short-lived cache of resolved sessions, so a request does not pay a session lookup
 * query when the same session asked a moment ago.
 *
 * Revocation stays immediate: every change that can end or narrow a session (sign-out,
 * revoke, disable, delete, role or module change, password reset) calls `forgetUser` or
 * `forgetSession` before it answers, and on PostgreSQL the same forget is broadcast to the
 * other instances (LISTEN/NOTIFY, see server/db/broadcast.ts). The TTL only bounds how long
 * an entry may live if a broadcast is ever lost (e.g. a dropped listener connection).
 *
 * A per-user generation guards the race where a lookup started before a forget and would
 * store its stale answer after it: such an answer is used once, never stored.
 */

export interface CachedSession {
  userId: string;
  deviceId: string;
  role: number;
  modules: ReadonlySet<number>;
  /** When the session itself expires (ms since epoch). */
  expiresAt: number;
}

interface Entry {
  value: CachedSession;
  until: number;
}

export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();
  private readonly generations = new Map<string, number>();
  private enabled = true;
  /** Bumped when everything is forgotten at once. */
  private epoch = 0;

  constructor(
    /** How long an entry lives, ms; 0 turns the cache off. */
    private readonly ttlMs: number,
    private readonly maxEntries = 50_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** A live cached session, or undefined. */
  get(sessionId: string): CachedSession | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    const now = this.now();
    if (entry.until <= now || entry.value.expiresAt <= now) {
      this.entries.delete(sessionId);
      return undefined;
    }
    return entry.value;
  }

  /** Taken before a lookup; pass it to `set` so a forget in between wins. */
  generation(userId: string): string {
    return `${this.epoch}:${this.generations.get(userId) ?? 0}`;
  }

  set(sessionId: string, value: CachedSession, generation: string): void {
    if (!this.enabled || this.ttlMs <= 0) return;
    if (this.generation(value.userId) !== generation) return;
    if (this.entries.size >= this.maxEntries) {
      // Drop the oldest entry (Map keeps insertion order).
      const first = this.entries.keys().next();
      if (!first.done) this.entries.delete(first.value);
    }
    this.entries.set(sessionId, { value, until: this.now() + this.ttlMs });
  }

  forgetSession(sessionId: string): void {
    const entry = this.entries.get(sessionId);
    if (entry) this.bump(entry.value.userId);
    this.entries.delete(sessionId);
  }

  forgetUser(userId: string): void {
    this.bump(userId);
    for (const [sid, entry] of this.entries) {
      if (entry.value.userId === userId) this.entries.delete(sid);
    }
  }

  /** Forget everything and stop (or resume) caching, e.g. while a broadcast listener is down. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    if (!enabled) {
      this.entries.clear();
      this.epoch++; // everything in flight is stale too
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private bump(userId: string): void {
    this.generations.set(userId, (this.generations.get(userId) ?? 0) + 1);
  }
}
