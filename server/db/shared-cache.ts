/**
 * Values kept in memory until something they depend on changes, on any instance: a change is
 * told to every instance through the database broadcast, and each clears its copy. While the
 * broadcast is not connected nothing is kept (a change elsewhere could be missed), and a value
 * read while a change landed is not kept (the generation moved on), so a clear is never undone
 * by a slow read. Forms' published definitions use it.
 *
 * @example
 * const cache = new SharedCache<Form>(ctx, "atelier_forms", 500);
 * const generation = cache.generation;
 * const form = cache.get(slug) ?? cache.keep(slug, await load(slug), generation);
 * await cache.changed(); // after a committed change
 */
import type { CoreContext } from "../core-context";

export class SharedCache<V> {
  private readonly values = new Map<string, V>();
  private listening = false;
  /** Moves on at every clear; a value read across a clear is not kept. */
  generation = 0;

  constructor(
    private readonly ctx: Pick<CoreContext, "broadcast" | "log">,
    private readonly channel: string,
    private readonly maxEntries: number,
  ) {
    ctx.broadcast.subscribe(channel, () => this.clear());
    ctx.broadcast.onStatus((connected) => {
      this.listening = connected;
      this.clear();
    });
  }

  clear(): void {
    this.generation++;
    this.values.clear();
  }

  /** Call after a committed change: clears here and on every other instance. */
  async changed(): Promise<void> {
    this.clear();
    try {
      await this.ctx.broadcast.notice(this.channel, "changed");
    } catch (error) {
      // The others clear when their broadcast reconnects (onStatus).
      this.ctx.log.warn({ err: error, channel: this.channel }, "cache: other instances not told of a change");
    }
  }

  get(key: string): V | undefined {
    return this.listening ? this.values.get(key) : undefined;
  }

  /** Keeps `value` when nothing changed since `generation`; answers it either way. */
  keep(key: string, value: V, generation: number): V {
    if (!this.listening || generation !== this.generation) return value;
    this.values.delete(key);
    this.values.set(key, value);
    if (this.values.size > this.maxEntries) {
      const oldest = this.values.keys().next().value;
      if (oldest !== undefined) this.values.delete(oldest);
    }
    return value;
  }
}
